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

#include "jacobi2d_common.h"

int main(int argc, char **argv)
{
    const jacobi2d_run r = jacobi2d_start(&argc, &argv);
    const int rows = r.g.rows, cols = r.g.cols;
    const int up = r.g.up, down = r.g.down, left = r.g.left, right = r.g.right;
    double *u = r.u, *v = r.v;
    double *recv_left = r.recv_left, *recv_right = r.recv_right;

    MPI_Request sends[4];
    MPI_Barrier(MPI_COMM_WORLD);
    const double start = MPI_Wtime();
#pragma bamboo olap
    for (int it = 0; it < r.iterations; it++) {
        int nsends;
#pragma bamboo send
        nsends = jacobi2d_send_halos(&r, u, sends);
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
    return jacobi2d_finish(r, u, v, start);
}
