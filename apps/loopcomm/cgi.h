/* CGI: CG with indirect accesses, as NAS writes it. The problem, the iterations, the check and
 * the output are cg.h's (the kernel prints itself as CG: cg and cgi solve the same problem and
 * their results compare); only the layout of the matrix differs.
 *
 * Distribution: as cg.h's, but this PE keeps its rows' nonzeros by row (compressed sparse rows),
 * one CSR for each source PE b holding the nonzeros whose column is in b's block, with the
 * column numbers counted from that block's first: the offsets into b's block of p. The product
 * q = A p is then, for each source PE b, each local row i and each of its nonzeros k in b's
 * block, one remote element p[colidx[k]] of b: read through the column array, not affine in the
 * loop counters (cg.h's by-column layout reads p[j] for each column j instead). The PE stays
 * invariant in the nest over rows. The KERNEL_*.c file has that loop (cg_matvec). Elements per
 * iteration: n. */
#ifndef LC_CGI_H
#define LC_CGI_H

#include "cg.h"

/* The problem (cg_define), and this PE's rows by row, one CSR for each source PE's block of
 * columns: rowstr[b], colidx[b], a[b]. */
static void cgi_setup(cg_problem *pr, lc_world *world, int argc, char **argv)
{
    cg_define(pr, world, argc, argv);
    pr->rowstr = lc_malloc(pr->npes * sizeof(long *));
    pr->colidx = lc_malloc(pr->npes * sizeof(int *));
    pr->a = lc_malloc(pr->npes * sizeof(double *));
    double *d = cg_diagonal(pr);
    for (int b = 0; b < pr->npes; b++)
        cg_compress(pr, pr->first, pr->first + pr->rows, lc_block_first(pr->n, pr->npes, b),
                    lc_block_first(pr->n, pr->npes, b + 1), d, 0, &pr->rowstr[b], &pr->colidx[b],
                    &pr->a[b]);
    free(d);
}

#endif
