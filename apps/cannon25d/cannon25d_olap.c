/*
 * cannon25d, MPI-olap: the computation of cannon25d.c (2.5D Cannon, C = A*B on a
 * q x q x c grid), restructured by hand so that messages travel while dgemm runs.
 *
 *   cannon25d_olap [N [C [REPEATS]]]
 *
 * What differs from MPI-basic:
 * - Every receive of a repetition is posted when it starts (the broadcast from the parent
 *   in the Z tree, the skewed blocks, the children's partial sums of the reduction).
 * - The broadcast and the reduction along Z are binomial trees of Isend/Irecv: the MPI
 *   subset of docs/mpi-support.md has no nonblocking collectives, and a tree of our own
 *   can be pipelined.
 * - A travels in row panels (large blocks only), everywhere: a rank forwards panel p down
 *   the Z tree and to its skew partner as soon as it has it, and multiplies C's panel p as
 *   soon as A's panel p of the step is in, so the broadcast and the skew of A overlap the
 *   first dgemms.
 * - Double buffering of the shifts: a step forwards its A panels and its B to the left and
 *   upper neighbours before it multiplies them, into buffers the neighbours posted a step
 *   ahead.
 * - The reduction starts panel by panel: in the last step, a panel of C whose children's
 *   contributions are in goes up the tree while the next panel is computed.
 */
#include <mpi.h>
#include <stdlib.h>
#include <string.h>

#include "app.h"
#include "cannon25d_common.h"
#include "cannon25d_kernels.h"

/* Row panels of A and C in the pipeline, at most PANELS of at least PANEL_ROWS rows: each
 * panel is a message and a dgemm of its own, and on this shared-memory machine panels
 * below ~512 rows cost more in messages and dgemm efficiency than their overlap gains
 * (measured at N/q = 256 and 512). CANNON25D_PANELS overrides the count (the check uses it
 * to exercise the pipeline on small blocks). */
enum { PANELS = 4, PANEL_ROWS = 512 };

/* Tags: the Z broadcast of A and B, the Z reduction, and A and B arriving for step t
 * (TAG_STEP + 2t, + 1), distinct per step because a neighbour may send the panels of two
 * consecutive steps interleaved. */
enum { TAG_HOME_A, TAG_HOME_B, TAG_C, TAG_STEP };

/* Rank k's place in the binomial tree rooted at 0 over the c ranks of a fiber: its parent
 * (k without its lowest bit) and its children k + 2^m below that bit, nearest first. */
struct tree {
    int parent, nchildren, child[31];
};

static struct tree binomial_tree(int k, int c)
{
    struct tree t = {-1, 0, {0}};
    int span = c;
    if (k > 0) {
        span = k & -k;
        t.parent = k - span;
    }
    for (int m = 1; m < span && k + m < c; m <<= 1)
        t.child[t.nchildren++] = k + m;
    return t;
}

/* Sends that must be done by the end of the repetition: the forwards of the broadcast and
 * the skew, and the reduction's. */
struct sends {
    MPI_Request *requests;
    int count;
};

/* A home panel (count doubles at `panel`, once `arrival` is done) down the Z tree,
 * farthest child first since it heads the largest subtree, and to its skew partner. */
static void forward(double *panel, int count, MPI_Request *arrival, const struct tree *z, int home_tag,
                    MPI_Comm fiber, int skew_to, int skew_tag, MPI_Comm layer, struct sends *out)
{
    if (arrival)
        MPI_Wait(arrival, MPI_STATUS_IGNORE);
    for (int x = z->nchildren - 1; x >= 0; x--)
        MPI_Isend(panel, count, MPI_DOUBLE, z->child[x], home_tag, fiber, &out->requests[out->count++]);
    MPI_Isend(panel, count, MPI_DOUBLE, skew_to, skew_tag, layer, &out->requests[out->count++]);
}

/* The reduction's step at a panel of C whose children's sums (count doubles apart by
 * stride in `children`) are in: add them, pass the sum up. */
static void reduce_up(double *c_panel, const double *children, size_t stride, int count, const struct tree *z,
                      MPI_Comm fiber, struct sends *out)
{
    for (int x = 0; x < z->nchildren; x++)
        add_to(c_panel, children + x * stride, count);
    if (z->parent >= 0)
        MPI_Isend(c_panel, count, MPI_DOUBLE, z->parent, TAG_C, fiber, &out->requests[out->count++]);
}

int main(int argc, char **argv)
{
    const cannon25d_run r = cannon25d_start(&argc, &argv);
    const int nb = r.nb, blk = r.blk, q = r.q, i = r.i, j = r.j, first = r.first;
    /* A zero skew moves nothing: MPI_PROC_NULL makes its messages no-ops. */
    const int a_skew_from = first % q == j ? MPI_PROC_NULL : layer_rank(r.layer, q, i, first);
    const int a_skew_to = first % q == j ? MPI_PROC_NULL : layer_rank(r.layer, q, i, 2 * j - first);
    const int b_skew_from = first % q == i ? MPI_PROC_NULL : layer_rank(r.layer, q, first, j);
    const int b_skew_to = first % q == i ? MPI_PROC_NULL : layer_rank(r.layer, q, 2 * i - first, j);
    const struct tree z = binomial_tree(r.k, r.c);

    /* Panel p holds rows row0[p] .. row0[p + 1] - 1 of an nb x nb block. */
    const char *panels_env = getenv("CANNON25D_PANELS");
    int npanels = panels_env ? atoi(panels_env) : nb / PANEL_ROWS;
    npanels = npanels < 1 ? 1 : npanels > PANELS ? PANELS : npanels > nb ? nb : npanels;
    int row0[PANELS + 1];
    for (int p = 0; p <= npanels; p++)
        row0[p] = p * nb / npanels;
#define PANEL(m, p) ((m) + (size_t)row0[p] * nb)
#define PANEL_COUNT(p) ((row0[(p) + 1] - row0[p]) * nb)

    double *home, *a_spare[2], *b_spare[2], *c_part;
    cannon25d_blocks(nb, i, j, r.k, &home, a_spare, b_spare, &c_part);
    double *a_home = home, *b_home = home + blk;
    /* The children's partial sums of C, for the reduction. */
    double *child_part = alloc_block((size_t)(z.nchildren ? z.nchildren : 1) * blk);
    memset(child_part, 0, (size_t)(z.nchildren ? z.nchildren : 1) * blk * sizeof *child_part);

    MPI_Request home_recv[1 + PANELS], b_recv[2], a_recv[2][PANELS], child_recv[PANELS][31];
    MPI_Request step_sends[1 + PANELS];
    struct sends out = {malloc((size_t)((z.nchildren + 1) * (1 + PANELS) + PANELS) * sizeof(MPI_Request)), 0};

    MPI_Barrier(MPI_COMM_WORLD);
    const double start = MPI_Wtime();
    for (int rep = 0; rep < r.repeats; rep++) {
        out.count = 0;
        if (r.k > 0) {
            MPI_Irecv(b_home, blk, MPI_DOUBLE, z.parent, TAG_HOME_B, r.fiber, &home_recv[0]);
            for (int p = 0; p < npanels; p++)
                MPI_Irecv(PANEL(a_home, p), PANEL_COUNT(p), MPI_DOUBLE, z.parent, TAG_HOME_A, r.fiber, &home_recv[1 + p]);
        }
        /* A step's blocks are the home ones (zero skew) or were received into one of two
         * spares, the one the current block is not in: home stays intact. */
        double *a_cur = a_skew_from == MPI_PROC_NULL ? a_home : a_spare[0];
        double *b_cur = b_skew_from == MPI_PROC_NULL ? b_home : b_spare[0];
        MPI_Irecv(b_cur, blk, MPI_DOUBLE, b_skew_from, TAG_STEP + 1, r.layer, &b_recv[0]);
        for (int p = 0; p < npanels; p++)
            MPI_Irecv(PANEL(a_cur, p), PANEL_COUNT(p), MPI_DOUBLE, a_skew_from, TAG_STEP, r.layer, &a_recv[0][p]);
        for (int p = 0; p < npanels; p++)
            for (int x = 0; x < z.nchildren; x++)
                MPI_Irecv(PANEL(child_part + (size_t)x * blk, p), PANEL_COUNT(p), MPI_DOUBLE, z.child[x], TAG_C, r.fiber,
                          &child_recv[p][x]);

        /* The first dgemm needs B whole, and A's first panel. */
        forward(b_home, blk, r.k > 0 ? &home_recv[0] : NULL, &z, TAG_HOME_B, r.fiber, b_skew_to, TAG_STEP + 1, r.layer,
                &out);
        forward(PANEL(a_home, 0), PANEL_COUNT(0), r.k > 0 ? &home_recv[1] : NULL, &z, TAG_HOME_A, r.fiber, a_skew_to,
                TAG_STEP, r.layer, &out);

        int reduced = 0; /* panels of C whose reduction has started */
        for (int t = 0; t < r.steps; t++) {
            const int cur = t & 1, last = t == r.steps - 1;
            double *a_next = a_cur == a_spare[0] ? a_spare[1] : a_spare[0];
            double *b_next = b_cur == b_spare[0] ? b_spare[1] : b_spare[0];
            int nstep_sends = 0;
            if (!last) {
                MPI_Irecv(b_next, blk, MPI_DOUBLE, r.down, TAG_STEP + 2 * (t + 1) + 1, r.layer, &b_recv[!cur]);
                for (int p = 0; p < npanels; p++)
                    MPI_Irecv(PANEL(a_next, p), PANEL_COUNT(p), MPI_DOUBLE, r.right, TAG_STEP + 2 * (t + 1), r.layer,
                              &a_recv[!cur][p]);
            }
            MPI_Wait(&b_recv[cur], MPI_STATUS_IGNORE);
            if (!last)
                MPI_Isend(b_cur, blk, MPI_DOUBLE, r.up, TAG_STEP + 2 * (t + 1) + 1, r.layer,
                          &step_sends[nstep_sends++]);
            for (int p = 0; p < npanels; p++) {
                /* The broadcast's panels move on one panel ahead of the skewed ones' use. */
                if (t == 0 && p + 1 < npanels)
                    forward(PANEL(a_home, p + 1), PANEL_COUNT(p + 1), r.k > 0 ? &home_recv[2 + p] : NULL, &z,
                            TAG_HOME_A, r.fiber, a_skew_to, TAG_STEP, r.layer, &out);
                MPI_Wait(&a_recv[cur][p], MPI_STATUS_IGNORE);
                if (!last)
                    MPI_Isend(PANEL(a_cur, p), PANEL_COUNT(p), MPI_DOUBLE, r.left, TAG_STEP + 2 * (t + 1), r.layer,
                              &step_sends[nstep_sends++]);
                block_multiply(row0[p + 1] - row0[p], nb, PANEL(a_cur, p), b_cur, t == 0 ? 0.0 : 1.0,
                               PANEL(c_part, p));
                /* Last step: every finished panel whose children's sums are in goes up
                 * while the next one is computed; the others after the loop. */
                while (last && reduced <= p) {
                    int in;
                    MPI_Testall(z.nchildren, child_recv[reduced], &in, MPI_STATUSES_IGNORE);
                    if (!in)
                        break;
                    reduce_up(PANEL(c_part, reduced), PANEL(child_part, reduced), blk, PANEL_COUNT(reduced), &z,
                              r.fiber, &out);
                    reduced++;
                }
            }
            MPI_Waitall(nstep_sends, step_sends, MPI_STATUSES_IGNORE);
            a_cur = a_next;
            b_cur = b_next;
        }
        for (; reduced < npanels; reduced++) {
            MPI_Waitall(z.nchildren, child_recv[reduced], MPI_STATUSES_IGNORE);
            reduce_up(PANEL(c_part, reduced), PANEL(child_part, reduced), blk, PANEL_COUNT(reduced), &z, r.fiber, &out);
        }
        MPI_Waitall(out.count, out.requests, MPI_STATUSES_IGNORE);
    }
    const int status = cannon25d_finish(r, home, a_spare, b_spare, c_part, start);
    free(out.requests);
    free(child_part);
    return status;
}
