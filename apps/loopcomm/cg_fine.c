/* CG, fine-grained: the sparse product reads every element of the distributed vector p where
 * it needs it, with shmem_double_g (cg.h has the problem, the iterations and the check). */
#include <shmem.h>

#include "cg.h"

static double *p;   /* symmetric: this PE's block of the search direction */

/* q = A p for this PE's rows: column by column, for each source PE's block of p. */
static void cg_matvec(const cg_problem *pr, double *q)
{
    const int *row = pr->row;
    const double *val = pr->val;
    for (long i = 0; i < pr->rows; i++)
        q[i] = 0.0;
    for (int b = 0; b < pr->npes; b++) {
        const int cols = (int)lc_block_size(pr->n, pr->npes, b);
        const long *start = pr->colstart + lc_block_first(pr->n, pr->npes, b);
        /* comm begin */
        for (int j = 0; j < cols; j++) {
            double pj = shmem_double_g(&p[j], b);
            for (long k = start[j]; k < start[j + 1]; k++)
                q[row[k]] += val[k] * pj;
        }
        /* comm end */
    }
}

int main(int argc, char **argv)
{
    lc_world *world = lc_init();
    cg_problem pr;
    cg_setup(&pr, world, argc, argv);
    p = shmem_malloc(pr.max_block * sizeof(double));
    if (!p)
        lc_refuse("symmetric heap exhausted");
    return cg_main(&pr, p, cg_matvec);
}
