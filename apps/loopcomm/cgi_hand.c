/* CGI, hand-vectorized (seed 004's baseline): before the product loop over this PE's rows for a
 * source PE, one blocking shmem_double_get brings that PE's whole block of p, which the column
 * array then indexes (cgi.h has the layout; cg.h the problem, the iterations and the check). */
#include <shmem.h>

#include "cgi.h"

static double *p;     /* symmetric: this PE's block of the search direction */
static double *pbuf;  /* private: the block of p being multiplied */

/* q = A p for this PE's rows: row by row, for each source PE's block of p. */
static void cg_matvec(const cg_problem *pr, double *q)
{
    const long rows = pr->rows;
    for (long i = 0; i < rows; i++)
        q[i] = 0.0;
    for (int b = 0; b < pr->npes; b++) {
        const int cols = (int)lc_block_size(pr->n, pr->npes, b);
        const long *rowstr = pr->rowstr[b];
        const int *colidx = pr->colidx[b];
        const double *a = pr->a[b];
        /* comm begin */
        shmem_double_get(pbuf, p, cols, b);
        for (long i = 0; i < rows; i++) {
            double sum = 0.0;
            for (long k = rowstr[i]; k < rowstr[i + 1]; k++)
                sum += a[k] * pbuf[colidx[k]];
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
    pbuf = lc_malloc(pr.max_block * sizeof(double));
    return cg_main(&pr, p, cg_matvec);
}
