/*
 * cannon: C = A*B for N x N matrices by Cannon's algorithm on a q x q periodic process grid
 * (P = q^2 ranks, N divisible by q), each rank holding one N/q x N/q block of A, B and C.
 *
 * MPI-basic, annotated for Bamboo as in seed 000 Fig. 5: after the initial skew, each step
 * multiplies the blocks at hand with dgemm and then rotates A one rank left and B one rank
 * up, bulk-synchronously.
 *
 *   cannon [N [REPEATS]]
 *
 * REPEATS multiplications accumulate into C (C = REPEATS * A*B): the blocks simply keep
 * rotating, a full turn of q steps per multiplication.
 */
#include <mpi.h>

#include "app.h"
#include "cannon_common.h"
#include "cannon_kernels.h"

int main(int argc, char **argv)
{
    const cannon_run r = cannon_start(&argc, &argv);
    double *a, *b, *c, *next_a, *next_b;
    cannon_blocks(r.nb, r.row, r.col, &a, &b, &c, &next_a, &next_b);

    MPI_Barrier(MPI_COMM_WORLD);
    double start = MPI_Wtime();

    cannon_skew(r.grid, r.row, r.col, r.count, &a, &next_a, &b, &next_b);

    cannon_multiply_add(r.nb, a, b, c);
    /* Seed 000 Fig. 5. Under MPI the receives are posted first so that the blocking sends
     * around each ring cannot deadlock; Bamboo moves the send block ahead and suspends the
     * task, holding no worker, until both next blocks have arrived. */
    MPI_Request receives[2];
#pragma bamboo dimension 2
#pragma bamboo olap layout OneNeighborBackward X Y
    for (int step = 1; step < r.repeats * r.q; step++) {
#pragma bamboo receive
        {
            MPI_Irecv(next_a, r.count, MPI_DOUBLE, r.right, TAG_A, r.grid, &receives[0]);
            MPI_Irecv(next_b, r.count, MPI_DOUBLE, r.down, TAG_B, r.grid, &receives[1]);
        }
#pragma bamboo send
        {
            MPI_Send(a, r.count, MPI_DOUBLE, r.left, TAG_A, r.grid);
            MPI_Send(b, r.count, MPI_DOUBLE, r.up, TAG_B, r.grid);
        }
        MPI_Waitall(2, receives, MPI_STATUSES_IGNORE);
        swap(&a, &next_a);
        swap(&b, &next_b);
        cannon_multiply_add(r.nb, a, b, c);
    }
    return cannon_finish(r, a, b, c, next_a, next_b, start);
}
