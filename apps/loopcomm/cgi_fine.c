/* CGI, fine-grained: the sparse product, row by row, reads every element of the distributed
 * vector p where it needs it, with shmem_double_g at the offset the column array gives
 * (cgi.h has the layout; cg.h the problem, the iterations and the check). */
#include <shmem.h>

#include "cgi.h"

static double *p;   /* symmetric: this PE's block of the search direction */

/* q = A p for this PE's rows: row by row, for each source PE's block of p. */
static void cg_matvec(const cg_problem *pr, double *q)
{
    const long rows = pr->rows;
    for (long i = 0; i < rows; i++)
        q[i] = 0.0;
    for (int b = 0; b < pr->npes; b++) {
        const long *rowstr = pr->rowstr[b];
        const int *colidx = pr->colidx[b];
        const double *a = pr->a[b];
        /* comm begin */
        for (long i = 0; i < rows; i++) {
            double sum = 0.0;
            for (long k = rowstr[i]; k < rowstr[i + 1]; k++)
                sum += a[k] * shmem_double_g(&p[colidx[k]], b);
            q[i] += sum;
        }
        /* comm end */
    }
}

int main(int argc, char **argv)
{
    lc_world *world = lc_init();
    cg_problem pr;
    cgi_setup(&pr, world, argc, argv);
    p = shmem_malloc(pr.max_block * sizeof(double));
    if (!p)
        lc_refuse("symmetric heap exhausted");
    return cg_main(&pr, p, cg_matvec);
}
