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
    lu_run r = lu_start(&argc, &argv);
    const int n = r.d.n, nb = r.d.nb, q = r.d.q;
    const size_t panel_max = lu_panel_max(&r.d);
    ring rings[2];
    for (int i = 0; i < 2; i++)
        rings[i] = (ring){.buf = calloc(panel_max, sizeof(double)), .recv = MPI_REQUEST_NULL, .send = MPI_REQUEST_NULL};
    const int nblocks = (n + nb - 1) / nb, mycol = r.d.mycol;
    const int chunk = imax(4 * nb, 256); /* columns of update between two looks at the ring */

    MPI_Barrier(MPI_COMM_WORLD);
    double start = MPI_Wtime();
    if (mycol == 0) {
        factor_columns(&r.d, &r.cm, 0, imin(nb, n), 0, imin(nb, n), r.ipiv, r.w, r.offer, r.best);
        lu_panel_pack(&r.d, 0, imin(nb, n), r.ipiv, rings[0].buf);
    }
    ring_start(&rings[0], &r.d, &r.cm, 0, imin(nb, n));
    for (int k = 0; k < nblocks; k++) {
        const int j = k * nb, jb = imin(nb, n - j);
        ring *now = &rings[k & 1], *next = &rings[(k + 1) & 1];
        ring_wait(now);
        int c0 = lu_numroc(j + jb, nb, mycol, q), nt = r.d.nq - c0; /* my trailing columns */
        if (k + 1 < nblocks) {
            const int jn = j + jb, jbn = imin(nb, n - jn);
            ring_finish(next); /* it still forwards panel k-1 */
            if (mycol == (k + 1) % q) {
                /* Lookahead: panel k on the next panel's columns (my first trailing ones),
                 * then panel k+1, on its way before the rest of the update. */
                swap_and_broadcast_u(&r.d, r.cm.col, j, jb, now->buf, c0, jbn, r.u, r.swapbuf);
                lu_update(&r.d, j, jb, now->buf, r.u, c0, jbn);
                factor_columns(&r.d, &r.cm, jn, jbn, 0, jbn, r.ipiv, r.w, r.offer, r.best);
                lu_panel_pack(&r.d, jn, jbn, r.ipiv, next->buf);
                c0 += jbn;
                nt -= jbn;
            }
            ring_start(next, &r.d, &r.cm, k + 1, jbn);
        }
        swap_and_broadcast_u(&r.d, r.cm.col, j, jb, now->buf, c0, nt, r.u, r.swapbuf);
        for (int done = 0; done < nt; done += chunk) {
            lu_update(&r.d, j, jb, now->buf, r.u + (size_t)done * jb, c0 + done, imin(chunk, nt - done));
            if (k + 1 < nblocks)
                ring_poll(next);
        }
    }
    ring_finish(&rings[0]);
    ring_finish(&rings[1]);
    const int status = lu_finish(&r, start);
    free(rings[0].buf);
    free(rings[1].buf);
    return status;
}
