/* FT, fine-grained: the transpose reads every element from its owner with shmem_double_g
 * (ft.h has the problem, the transforms and the check). */
#include <shmem.h>

#include "ft.h"

static double *a;   /* symmetric: this PE's m rows of the N × N array */

/* t[r][b*m + j] = PE b's a[j][me*m + r]. */
static void ft_transpose(const ft_problem *pr)
{
    const int n = (int)pr->n, m = (int)pr->m, me = pr->me;
    double *t = pr->t;
    for (int b = 0; b < pr->npes; b++) {
        /* comm begin */
        for (int j = 0; j < m; j++)
            for (int r = 0; r < m; r++)
                t[r * n + b * m + j] = shmem_double_g(&a[j * n + me * m + r], b);
        /* comm end */
    }
}

int main(int argc, char **argv)
{
    lc_world *world = lc_init();
    ft_problem pr;
    ft_setup(&pr, world, argc, argv);
    a = shmem_malloc(pr.m * pr.n * sizeof(double));
    if (!a)
        lc_refuse("symmetric heap exhausted");
    return ft_main(&pr, a, ft_transpose);
}
