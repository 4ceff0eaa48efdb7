/*
 * lu_olap: lu.c (read it first) restructured by hand with HPL's depth-1 lookahead
 * (pdgesvK2, seed 001, section 4.1.2), to overlap the panel broadcast with the update.
 *
 *   lu_olap [N [NB [P]]]     the arguments of lu.c
 *
 * In iteration k the owners of panel k+1 first apply panel k to the panel k+1 columns
 * only, factorize panel k+1 and start its ring broadcast (MPI_Isend), and only then update
 * the rest of their trailing matrix. Everyone else posts the receive of panel k+1 before
 * its update of panel k, which it does in column chunks, testing between chunks for panel
 * k+1 and forwarding it round the ring as soon as it is in. So panel k+1 travels while
 * panel k's update runs, and the next iteration finds it there. The panels alternate
 * between two buffers. The factorization is lu.c's; only where an update is split (the
 * next panel's columns apart) may BLAS round differently, so the residual may differ from
 * lu.c's in the last digits.
 */
#include "app.h"
#include "lu_common.h"
#include "lu_kernels.h"

#include <mpi.h>
#include <stdlib.h>

/* factor_columns() and swap_and_broadcast_u() are lu.c's; lu.c must define them itself for
 * Bamboo's firing rules (see there), so they are not in lu_common.h. */

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

/* The ring broadcast of one panel along my process row, split-phase: a root sends to
 * its right; everyone else receives from its left and forwards to its right unless that
 * is the root. `arrived` once the panel is in buf. */
typedef struct ring {
    double *buf;
    int count, left, right;
    int arrived, forward;
    MPI_Comm comm;
    MPI_Request recv, send;
} ring;

static void ring_start(ring *r, const lu_dist *d, const lu_comms *cm, int k, int jb)
{
    const int q = d->q, root = k % q;
    r->count = (int)lu_panel_len(d, k * d->nb, jb);
    r->left = (d->mycol + q - 1) % q;
    r->right = (d->mycol + 1) % q;
    r->comm = cm->row;
    r->forward = r->right != root;
    r->recv = r->send = MPI_REQUEST_NULL;
    if (d->mycol == root) {
        r->arrived = 1;
        if (q > 1)
            MPI_Isend(r->buf, r->count, MPI_DOUBLE, r->right, TAG_PANEL, r->comm, &r->send);
    } else {
        r->arrived = 0;
        MPI_Irecv(r->buf, r->count, MPI_DOUBLE, r->left, TAG_PANEL, r->comm, &r->recv);
    }
}

static void ring_arrived(ring *r)
{
    r->arrived = 1;
    if (r->forward)
        MPI_Isend(r->buf, r->count, MPI_DOUBLE, r->right, TAG_PANEL, r->comm, &r->send);
}

/* Progress without blocking: completes the receive if the panel is in (and forwards it),
 * and lets a large send of it advance (Open MPI moves rendezvous data only inside calls). */
static void ring_poll(ring *r)
{
    int done;
    if (!r->arrived) {
        MPI_Test(&r->recv, &done, MPI_STATUS_IGNORE);
        if (done)
            ring_arrived(r);
    } else if (r->send != MPI_REQUEST_NULL) {
        MPI_Test(&r->send, &done, MPI_STATUS_IGNORE);
    }
}

static void ring_wait(ring *r)
{
    if (!r->arrived) {
        MPI_Wait(&r->recv, MPI_STATUS_IGNORE);
        ring_arrived(r);
    }
}

/* Before the buffer takes another panel. */
static void ring_finish(ring *r) { MPI_Wait(&r->send, MPI_STATUS_IGNORE); }

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
    const size_t panel_max = lu_panel_max(&d);
    ring rings[2];
    for (int i = 0; i < 2; i++)
        rings[i] = (ring){.buf = calloc(panel_max, sizeof(double)), .recv = MPI_REQUEST_NULL, .send = MPI_REQUEST_NULL};
    const int nblocks = (n + nb - 1) / nb, mycol = d.mycol;
    const int chunk = imax(4 * nb, 256); /* columns of update between two looks at the ring */

    MPI_Barrier(MPI_COMM_WORLD);
    double start = MPI_Wtime();
    if (mycol == 0) {
        factor_columns(&d, &cm, 0, imin(nb, n), 0, imin(nb, n), ipiv, w, offer, best);
        lu_panel_pack(&d, 0, imin(nb, n), ipiv, rings[0].buf);
    }
    ring_start(&rings[0], &d, &cm, 0, imin(nb, n));
    for (int k = 0; k < nblocks; k++) {
        const int j = k * nb, jb = imin(nb, n - j);
        ring *now = &rings[k & 1], *next = &rings[(k + 1) & 1];
        ring_wait(now);
        int c0 = lu_numroc(j + jb, nb, mycol, q), nt = d.nq - c0; /* my trailing columns */
        if (k + 1 < nblocks) {
            const int jn = j + jb, jbn = imin(nb, n - jn);
            ring_finish(next); /* it still forwards panel k-1 */
            if (mycol == (k + 1) % q) {
                /* Lookahead: panel k on the next panel's columns (my first trailing ones),
                 * then panel k+1, on its way before the rest of the update. */
                swap_and_broadcast_u(&d, cm.col, j, jb, now->buf, c0, jbn, u, swapbuf);
                lu_update(&d, j, jb, now->buf, u, c0, jbn);
                factor_columns(&d, &cm, jn, jbn, 0, jbn, ipiv, w, offer, best);
                lu_panel_pack(&d, jn, jbn, ipiv, next->buf);
                c0 += jbn;
                nt -= jbn;
            }
            ring_start(next, &d, &cm, k + 1, jbn);
        }
        swap_and_broadcast_u(&d, cm.col, j, jb, now->buf, c0, nt, u, swapbuf);
        for (int done = 0; done < nt; done += chunk) {
            lu_update(&d, j, jb, now->buf, u + (size_t)done * jb, c0 + done, imin(chunk, nt - done));
            if (k + 1 < nblocks)
                ring_poll(next);
        }
    }
    ring_finish(&rings[0]);
    ring_finish(&rings[1]);
    back_solve(&d, &cm, xl);
    app_report_time(start);

    const int status = lu_verify(&d, &cm, xl);
    free(rings[0].buf);
    free(rings[1].buf);
    lu_free(&d, &cm, u, swapbuf, w, offer, best, ipiv, xl);
    MPI_Finalize();
    return status;
}
