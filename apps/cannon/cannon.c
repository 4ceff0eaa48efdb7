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
    MPI_Init(&argc, &argv);
    int n, repeats, q;
    if (!cannon_args(argc, argv, &n, &repeats, &q)) {
        MPI_Finalize();
        return 2;
    }
    MPI_Comm grid;
    int row, col, right, left, down, up;
    cannon_grid(q, &grid, &row, &col, &right, &left, &down, &up);
    const int nb = n / q;
    const int count = nb * nb;
    double *a, *b, *c, *next_a, *next_b;
    cannon_blocks(nb, row, col, &a, &b, &c, &next_a, &next_b);

    MPI_Barrier(MPI_COMM_WORLD);
    double start = MPI_Wtime();

    cannon_skew(grid, row, col, count, &a, &next_a, &b, &next_b);

    cannon_multiply_add(nb, a, b, c);
    /* Seed 000 Fig. 5. Under MPI the receives are posted first so that the blocking sends
     * around each ring cannot deadlock; Bamboo moves the send block ahead and suspends the
     * task, holding no worker, until both next blocks have arrived. */
    MPI_Request receives[2];
#pragma bamboo dimension 2
#pragma bamboo olap layout OneNeighborBackward X Y
    for (int step = 1; step < repeats * q; step++) {
#pragma bamboo receive
        {
            MPI_Irecv(next_a, count, MPI_DOUBLE, right, TAG_A, grid, &receives[0]);
            MPI_Irecv(next_b, count, MPI_DOUBLE, down, TAG_B, grid, &receives[1]);
        }
#pragma bamboo send
        {
            MPI_Send(a, count, MPI_DOUBLE, left, TAG_A, grid);
            MPI_Send(b, count, MPI_DOUBLE, up, TAG_B, grid);
        }
        MPI_Waitall(2, receives, MPI_STATUSES_IGNORE);
        swap(&a, &next_a);
        swap(&b, &next_b);
        cannon_multiply_add(nb, a, b, c);
    }
    app_report_time(start);

    const int status = cannon_verify(c, n, q, repeats, row, col);
    cannon_free(&grid, a, b, c, next_a, next_b);
    MPI_Finalize();
    return status;
}
