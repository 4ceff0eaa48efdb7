/*
 * lu: solves A x = b, A dense N x N, by LU factorization with partial pivoting, the way
 * HPL's pdgesv0 does it (seed 001, section 4.1.2): no lookahead, every panel is factorized,
 * broadcast and applied before the next one starts.
 *
 *   lu [N [NB [P]]]      defaults 1000 64, P x Q process grid with Q = ranks / P
 *                        (P defaults to the smaller factor of MPI_Dims_create)
 *
 * [A | b] is dealt 2D block-cyclically in NB x NB blocks over the P x Q grid (ranks
 * row-major). For each panel of NB columns: its process column factorizes it (pFact:
 * recursive, one combined pivot-search-and-swap reduction per column), the panel goes
 * round the process row in a ring (pBcast), then every process applies the row
 * interchanges to its trailing columns, the panel's process row solves for the U block row
 * and broadcasts it down each process column, and everyone updates its trailing matrix
 * with dgemm (pUpdate). b rides along as column N, so U x = y is all that is left; it is
 * solved block by block. Checked by HPL's scaled residual against the regenerated matrix.
 *
 * This one file is MPI-basic (mpicc), the Bamboo variant (bamboocc) and MPI-nocomm.
 */
#include "app.h"
#include "lu_common.h"
#include "lu_kernels.h"

#include <mpi.h>
#include <stdlib.h>

int main(int argc, char **argv)
{
    lu_run r = lu_start(&argc, &argv);
    const int n = r.d.n, nb = r.d.nb, q = r.d.q;
    const int left = (r.d.mycol + q - 1) % q, right = (r.d.mycol + 1) % q, mycol = r.d.mycol;
    double *panel = calloc(lu_panel_max(&r.d), sizeof *panel);
    const int nblocks = (n + nb - 1) / nb;

    MPI_Barrier(MPI_COMM_WORLD);
    double start = MPI_Wtime();
#pragma bamboo olap
    for (int k = 0; k < nblocks; k++) {
        /* Seed 001, section 4.1.2: the next panel's owners first, since their update of this
         * panel leads to the next factorization and broadcast, which everyone waits for; then
         * this panel's owners, which factorize it on entry; the others give way at every
         * evaluation point, so that a next panel's owner never waits behind their updates. */
#pragma bamboo priority mycol == (k + 1) % q ? 1 : (mycol == k % q ? 0 : -1)
        const int j = k * nb, jb = imin(nb, n - j), pcol = k % q;
        const int count = (int)lu_panel_len(&r.d, j, jb);
        const int c0 = lu_numroc(j + jb, nb, mycol, q), nt = r.d.nq - c0; /* my trailing columns */
#pragma bamboo receive
        {
            if (mycol == pcol)
                factor_columns(&r.d, &r.cm, j, jb, 0, jb, r.ipiv, r.w, r.offer, r.best);
        }
        if (mycol == pcol)
            lu_panel_pack(&r.d, j, jb, r.ipiv, panel);
#pragma bamboo send
        {
            if (mycol == pcol && q > 1)
                MPI_Send(panel, count, MPI_DOUBLE, right, TAG_PANEL, r.cm.row);
        }
#pragma bamboo receive
        {
            if (mycol != pcol) {
                MPI_Recv(panel, count, MPI_DOUBLE, left, TAG_PANEL, r.cm.row, MPI_STATUS_IGNORE);
                if (right != pcol)
                    MPI_Send(panel, count, MPI_DOUBLE, right, TAG_PANEL, r.cm.row);
            }
        }
#pragma bamboo receive
        swap_and_broadcast_u(&r.d, r.cm.col, j, jb, panel, c0, nt, r.u, r.swapbuf);
        lu_update(&r.d, j, jb, panel, r.u, c0, nt);
    }
    const int status = lu_finish(&r, start);
    free(panel);
    return status;
}
