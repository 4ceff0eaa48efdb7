/* CG, hand-vectorized (seed 004's baseline): before the product loop over a source PE's
 * columns, one blocking shmem_double_get brings that PE's whole block of p (cg.h has the
 * problem, the iterations and the check). */
#include <shmem.h>

#include "cg.h"

static double *p;     /* symmetric: this PE's block of the search direction */
static double *pbuf;  /* private: the block of p being multiplied */

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
        shmem_double_get(pbuf, p, cols, b);
        for (int j = 0; j < cols; j++) {
            double pj = pbuf[j];
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
    pbuf = lc_malloc(pr.max_block * sizeof(double));
    return cg_main(&pr, p, cg_matvec);
}
