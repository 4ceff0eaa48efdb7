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

/* factor_columns() and swap_and_broadcast_u() are the same in lu_olap.c. They stay in this
 * file, not in lu_common.h, because the panel loop calls them in receive blocks, and the
 * translator derives a function's firing rule (or says why its receives wait on their own)
 * only when the function is defined in this file. */

/* pFact for panel columns [c0, c1) of the panel at global column j (width jb): halves down
 * to LU_NBMIN columns, which go column by column, one reduction per pivot. */
static void factor_columns(lu_dist *d, const lu_comms *cm, int j, int jb, int c0, int c1, int *ipiv, double *w,
                           double *offer, double *best)
{
    int jl = lu_local(j, d->nb, d->q);
    if (c1 - c0 > LU_NBMIN) {
        int cmid = c0 + (c1 - c0) / 2;
        factor_columns(d, cm, j, jb, c0, cmid, ipiv, w, offer, best);
        lu_panel_right(d, j, jl, c0, cmid, c1, w);
        factor_columns(d, cm, j, jb, cmid, c1, ipiv, w, offer, best);
        return;
    }
    for (int c = c0; c < c1; c++) {
        lu_record_offer(d, jl, jb, j + c, offer);
        MPI_Allreduce(offer, best, 1, cm->record, cm->pick, cm->col);
        ipiv[c] = lu_record_apply(d, jl, jb, j + c, c1, best, w);
    }
}

/* pUpdate's communication, on my trailing local columns [c0, c0+nt): the panel's row
 * interchanges, and the U block row. The rows that become U travel to the panel's process
 * row, which also sends the rows they displace to where the pivots were, solves
 * U = L11^-1 U and broadcasts U down the process column. */
static void swap_and_broadcast_u(lu_dist *d, MPI_Comm col, int j, int jb, const double *panel, int c0, int nt,
                                 double *u, double *buf)
{
    if (nt == 0)
        return;
    int ipiv[LU_MAX_NB], src[LU_MAX_NB], disp_src[LU_MAX_NB], disp_dst[LU_MAX_NB], ndisp;
    lu_panel_pivots(d, j, jb, panel, ipiv);
    lu_row_moves(j, jb, ipiv, src, disp_src, disp_dst, &ndisp);
    const int nb = d->nb, p = d->p, me = d->myrow, rd = lu_owner(j, nb, p);
    const size_t lda = d->lda;
    double *a = &LU_A(d, 0, c0);
    int rows[LU_MAX_NB], slots[LU_MAX_NB], from[LU_MAX_NB], count;

    if (me != rd) {
        if ((count = lu_select(nb, p, me, jb, src, rows, NULL)) > 0) {
            lu_copy_rows(count, nt, a, lda, rows, buf, count, NULL);
            MPI_Send(buf, count * nt, MPI_DOUBLE, rd, TAG_U_ROWS, col);
        }
        if ((count = lu_select(nb, p, me, ndisp, disp_dst, rows, NULL)) > 0) {
            MPI_Recv(buf, count * nt, MPI_DOUBLE, rd, TAG_DISPLACED, col, MPI_STATUS_IGNORE);
            lu_copy_rows(count, nt, buf, count, NULL, a, lda, rows);
        }
    } else {
        /* My U rows first: the displaced rows overwrite some of them. */
        count = lu_select(nb, p, me, jb, src, rows, slots);
        lu_copy_rows(count, nt, a, lda, rows, u, jb, slots);
        for (int r = 0; r < p; r++)
            if (r != me && (count = lu_select(nb, p, r, jb, src, rows, slots)) > 0) {
                MPI_Recv(buf, count * nt, MPI_DOUBLE, r, TAG_U_ROWS, col, MPI_STATUS_IGNORE);
                lu_copy_rows(count, nt, buf, count, NULL, u, jb, slots);
            }
        for (int r = 0; r < p; r++) {
            if ((count = lu_select(nb, p, r, ndisp, disp_dst, rows, slots)) == 0)
                continue;
            for (int e = 0; e < count; e++)
                from[e] = lu_local(disp_src[slots[e]], nb, p);
            if (r == me) {
                lu_copy_rows(count, nt, a, lda, from, a, lda, rows);
            } else {
                lu_copy_rows(count, nt, a, lda, from, buf, count, NULL);
                MPI_Send(buf, count * nt, MPI_DOUBLE, r, TAG_DISPLACED, col);
            }
        }
        /* The panel's first jb rows here are L11. */
        cblas_dtrsm(CblasColMajor, CblasLeft, CblasLower, CblasNoTrans, CblasUnit, jb, nt, 1.0, panel,
                    lu_panel_rows(d, j), u, jb);
        lu_copy_rows(jb, nt, u, jb, NULL, a + lu_local(j, nb, p), lda, NULL);
    }
    MPI_Bcast(u, jb * nt, MPI_DOUBLE, rd, col);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    lu_dist d;
    if (!lu_setup(argc, argv, &d)) {
        MPI_Finalize();
        return 2;
    }
    lu_comms cm;
    lu_comms_create(&d, &cm);
    const int n = d.n, nb = d.nb, q = d.q;
    double *u, *swapbuf, *w, *offer, *best, *xl;
    int *ipiv;
    lu_buffers(&d, &u, &swapbuf, &w, &offer, &best, &ipiv, &xl);
    const int left = (d.mycol + q - 1) % q, right = (d.mycol + 1) % q, mycol = d.mycol;
    double *panel = calloc(lu_panel_max(&d), sizeof *panel);
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
        const int count = (int)lu_panel_len(&d, j, jb);
        const int c0 = lu_numroc(j + jb, nb, mycol, q), nt = d.nq - c0; /* my trailing columns */
#pragma bamboo receive
        {
            if (mycol == pcol)
                factor_columns(&d, &cm, j, jb, 0, jb, ipiv, w, offer, best);
        }
        if (mycol == pcol)
            lu_panel_pack(&d, j, jb, ipiv, panel);
#pragma bamboo send
        {
            if (mycol == pcol && q > 1)
                MPI_Send(panel, count, MPI_DOUBLE, right, TAG_PANEL, cm.row);
        }
#pragma bamboo receive
        {
            if (mycol != pcol) {
                MPI_Recv(panel, count, MPI_DOUBLE, left, TAG_PANEL, cm.row, MPI_STATUS_IGNORE);
                if (right != pcol)
                    MPI_Send(panel, count, MPI_DOUBLE, right, TAG_PANEL, cm.row);
            }
        }
#pragma bamboo receive
        swap_and_broadcast_u(&d, cm.col, j, jb, panel, c0, nt, u, swapbuf);
        lu_update(&d, j, jb, panel, u, c0, nt);
    }
    back_solve(&d, &cm, xl);
    app_report_time(start);

    const int status = lu_verify(&d, &cm, xl);
    free(panel);
    lu_free(&d, &cm, u, swapbuf, w, offer, best, ipiv, xl);
    MPI_Finalize();
    return status;
}
