/*
 * jacobi2d: Jacobi iteration for Laplace's equation on an N x N grid, 2D block
 * decomposition, ghost cells refreshed by point-to-point halo exchange each sweep.
 *
 * The program of seed 000 Fig. 2: an ordinary MPI program (mpicc ignores the pragmas) that
 * bamboocc turns into a data-driven task program. MPI-basic (bulk-synchronous: send the
 * halos, receive them, sweep), annotated for Bamboo; compiled with -include nocomm.h it is
 * MPI-nocomm. The sweep is in jacobi2d_kernels.h, the set-up and verification it shares with
 * jacobi2d_olap.c in jacobi2d_common.h.
 *
 *   jacobi2d [N [ITERATIONS]]
 *
 * Prints a verification line with a checksum of the final grid (the same for any number of
 * ranks) and the time of the iteration loop.
 */
#include <mpi.h>
#include <stdlib.h>

#include "jacobi2d_common.h"

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int iterations;
    struct block g;
    if (!jacobi2d_setup(argc, argv, &iterations, &g)) {
        MPI_Finalize();
        return 2;
    }
    const int rows = g.rows, cols = g.cols;
    const int up = g.up, down = g.down, left = g.left, right = g.right;
    double *u, *v;
    jacobi2d_grids(&g, &u, &v);
    double *send_left = malloc(rows * sizeof *send_left), *send_right = malloc(rows * sizeof *send_right);
    double *recv_left = malloc(rows * sizeof *recv_left), *recv_right = malloc(rows * sizeof *recv_right);

    MPI_Request sends[4];
    MPI_Barrier(MPI_COMM_WORLD);
    const double start = MPI_Wtime();
#pragma bamboo olap
    for (int it = 0; it < iterations; it++) {
        int nsends = 0;
#pragma bamboo send
        {
            for (int j = 1; j <= rows; j++) {
                send_left[j - 1] = AT(u, j, 1);
                send_right[j - 1] = AT(u, j, cols);
            }
            if (up >= 0)
                MPI_Isend(&AT(u, 1, 1), cols, MPI_DOUBLE, up, TAG_UP, MPI_COMM_WORLD, &sends[nsends++]);
            if (down >= 0)
                MPI_Isend(&AT(u, rows, 1), cols, MPI_DOUBLE, down, TAG_DOWN, MPI_COMM_WORLD, &sends[nsends++]);
            if (left >= 0)
                MPI_Isend(send_left, rows, MPI_DOUBLE, left, TAG_LEFT, MPI_COMM_WORLD, &sends[nsends++]);
            if (right >= 0)
                MPI_Isend(send_right, rows, MPI_DOUBLE, right, TAG_RIGHT, MPI_COMM_WORLD, &sends[nsends++]);
        }
#pragma bamboo receive
        {
            if (up >= 0)
                MPI_Recv(&AT(u, 0, 1), cols, MPI_DOUBLE, up, TAG_DOWN, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            if (down >= 0)
                MPI_Recv(&AT(u, rows + 1, 1), cols, MPI_DOUBLE, down, TAG_UP, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            if (left >= 0)
                MPI_Recv(recv_left, rows, MPI_DOUBLE, left, TAG_RIGHT, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            if (right >= 0)
                MPI_Recv(recv_right, rows, MPI_DOUBLE, right, TAG_LEFT, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            for (int j = 1; j <= rows; j++) {
                if (left >= 0)
                    AT(u, j, 0) = recv_left[j - 1];
                if (right >= 0)
                    AT(u, j, cols + 1) = recv_right[j - 1];
            }
        }
        MPI_Waitall(nsends, sends, MPI_STATUSES_IGNORE);
        sweep_box(cols, v, u, 1, rows + 1, 1, cols + 1);
        double *t = u;
        u = v;
        v = t;
    }
    app_report_time(start);

    const int status = jacobi2d_verify(&g, iterations, u);
    free(u);
    free(v);
    free(send_left);
    free(send_right);
    free(recv_left);
    free(recv_right);
    MPI_Finalize();
    return status;
}
