/* FT, hand-vectorized (seed 004's baseline): the transpose brings each source PE's block row
 * by row, one blocking shmem_double_get of m contiguous elements a row, then transposes it
 * locally (ft.h has the problem, the transforms and the check). */
#include <shmem.h>

#include "ft.h"

static double *a;     /* symmetric: this PE's m rows of the N × N array */
static double *buf;   /* private: one source PE's m × m block */

/* t[r][b*m + j] = PE b's a[j][me*m + r]. */
static void ft_transpose(const ft_problem *pr)
{
    const int n = (int)pr->n, m = (int)pr->m, me = pr->me;
    double *t = pr->t;
    for (int b = 0; b < pr->npes; b++) {
        /* comm begin */
        for (int j = 0; j < m; j++)
            shmem_double_get(&buf[j * m], &a[j * n + me * m], m, b);
        for (int j = 0; j < m; j++)
            for (int r = 0; r < m; r++)
                t[r * n + b * m + j] = buf[j * m + r];
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
    buf = lc_malloc(pr.m * pr.m * sizeof(double));
    return ft_main(&pr, a, ft_transpose);
}
