/*
 * cannon25d: C = A*B for N x N doubles with the 2.5D communication-avoiding algorithm
 * (Solomonik & Demmel) on a q x q x c grid of P = c*q^2 ranks (seed 000 section V-D,
 * seed 001 section 4.1.1). With c = 1 it is 2D Cannon.
 *
 *   cannon25d [N [C [REPEATS]]]
 *
 * A and B live on layer 0 as q x q blocks of N/q. Each repetition broadcasts them along Z
 * to the c layers, lets layer k do the Cannon steps k*q/c .. (k+1)*q/c - 1 (an initial skew,
 * then q/c - 1 shifts of A left and B up, one dgemm per step), and sums the layers' partial
 * products on layer 0 along Z. MPI-basic and, through bamboocc, the Bamboo variant: the
 * broadcast and the reduction are receive blocks with the MinHeap layout along Z (seed 000
 * Fig. 7), the rotation a send and a receive block per step as in 2D Cannon (Fig. 5).
 */
#include <mpi.h>

#include "app.h"
#include "cannon25d_common.h"
#include "cannon25d_kernels.h"

enum { TAG_A, TAG_B };

#pragma bamboo dimension 3

int main(int argc, char **argv)
{
    const cannon25d_run r = cannon25d_start(&argc, &argv);
    /* The skew brings A(i, first) and B(first, j) from (i, first) and (first, j). */
    const int a_skew_from = layer_rank(r.layer, r.q, r.i, r.first);
    const int a_skew_to = layer_rank(r.layer, r.q, r.i, 2 * r.j - r.first);
    const int b_skew_from = layer_rank(r.layer, r.q, r.first, r.j);
    const int b_skew_to = layer_rank(r.layer, r.q, 2 * r.i - r.first, r.j);
    int self;
    MPI_Comm_rank(r.layer, &self);

    double *home, *a_spare[2], *b_spare[2], *c_part;
    cannon25d_blocks(r.nb, r.i, r.j, r.k, &home, a_spare, b_spare, &c_part);
    double *a_home = home, *b_home = home + r.blk;

    MPI_Barrier(MPI_COMM_WORLD);
    const double start = MPI_Wtime();
    for (int rep = 0; rep < r.repeats; rep++) {
#pragma bamboo olap layout MinHeap Z
#pragma bamboo receive
        MPI_Bcast(home, 2 * r.blk, MPI_DOUBLE, 0, r.fiber);

        /* Step 0 brings the skewed blocks (no message where the skew is zero), the later
         * steps the right and lower neighbours'. */
        double *a = a_home, *b = b_home;
#pragma bamboo olap layout OneNeighborBackward X Y
        for (int t = 0; t < r.steps; t++) {
            const int a_from = t == 0 ? a_skew_from : r.right, a_to = t == 0 ? a_skew_to : r.left;
            const int b_from = t == 0 ? b_skew_from : r.down, b_to = t == 0 ? b_skew_to : r.up;
            double *a_next = a == a_spare[0] ? a_spare[1] : a_spare[0];
            double *b_next = b == b_spare[0] ? b_spare[1] : b_spare[0];
            MPI_Request sends[2];
            int nsends = 0;
#pragma bamboo send
            {
                if (a_to != self)
                    MPI_Isend(a, r.blk, MPI_DOUBLE, a_to, TAG_A, r.layer, &sends[nsends++]);
                if (b_to != self)
                    MPI_Isend(b, r.blk, MPI_DOUBLE, b_to, TAG_B, r.layer, &sends[nsends++]);
            }
#pragma bamboo receive
            {
                if (a_from != self) {
                    MPI_Recv(a_next, r.blk, MPI_DOUBLE, a_from, TAG_A, r.layer, MPI_STATUS_IGNORE);
                    a = a_next;
                }
                if (b_from != self) {
                    MPI_Recv(b_next, r.blk, MPI_DOUBLE, b_from, TAG_B, r.layer, MPI_STATUS_IGNORE);
                    b = b_next;
                }
            }
            MPI_Waitall(nsends, sends, MPI_STATUSES_IGNORE);
            block_multiply(r.nb, r.nb, a, b, t == 0 ? 0.0 : 1.0, c_part);
        }

#pragma bamboo olap layout MinHeap Z
#pragma bamboo receive
        MPI_Reduce(r.k == 0 ? MPI_IN_PLACE : c_part, c_part, r.blk, MPI_DOUBLE, MPI_SUM, 0, r.fiber);
    }
    return cannon25d_finish(r, home, a_spare, b_spare, c_part, start);
}
