/*
 * jacobi2d, MPI-olap: jacobi2d.c restructured by hand to overlap the halo exchange with the
 * sweep (split-phase). Each iteration posts the four halo receives and sends, sweeps the
 * interior points, which read no ghost cell, while the halos travel, waits for the ghosts
 * and then sweeps the boundary shell.
 *
 *   jacobi2d_olap [N [ITERATIONS]]
 *
 * Same kernel (jacobi2d_kernels.h), decomposition and verification (jacobi2d_common.h) as
 * jacobi2d.c, so the same values to the last bit.
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
    /* The interior rows [j0, j1) and columns [i0, i1) leave out the lines next to a
     * neighbour: those read its ghosts. Along the grid's edge the boundary is fixed and
     * nothing waits. */
    const int j0 = 1 + (up >= 0), i0 = 1 + (left >= 0);
    int j1 = rows + 1 - (down >= 0), i1 = cols + 1 - (right >= 0);
    if (j1 < j0)
        j1 = j0;
    if (i1 < i0)
        i1 = i0;
    /* Rows swept between two tests of the requests. */
    const int strip = 16;

    MPI_Request receives[4], sends[4];
    MPI_Barrier(MPI_COMM_WORLD);
    const double start = MPI_Wtime();
    for (int it = 0; it < r.iterations; it++) {
        int nreceives = 0;
        if (up >= 0)
            MPI_Irecv(&AT(u, 0, 1), cols, MPI_DOUBLE, up, TAG_DOWN, MPI_COMM_WORLD, &receives[nreceives++]);
        if (down >= 0)
            MPI_Irecv(&AT(u, rows + 1, 1), cols, MPI_DOUBLE, down, TAG_UP, MPI_COMM_WORLD, &receives[nreceives++]);
        if (left >= 0)
            MPI_Irecv(recv_left, rows, MPI_DOUBLE, left, TAG_RIGHT, MPI_COMM_WORLD, &receives[nreceives++]);
        if (right >= 0)
            MPI_Irecv(recv_right, rows, MPI_DOUBLE, right, TAG_LEFT, MPI_COMM_WORLD, &receives[nreceives++]);
        const int nsends = jacobi2d_send_halos(&r, u, sends);
        /* MPI moves a large (rendezvous) message only inside MPI calls: test between strips of
         * the interior so the halos travel while it is swept, not all in the wait below. */
        int arrived = 0;
        for (int j = j0; j < j1; j += strip) {
            sweep_box(cols, v, u, j, j + strip < j1 ? j + strip : j1, i0, i1);
            if (!arrived)
                MPI_Testall(nreceives, receives, &arrived, MPI_STATUSES_IGNORE);
        }
        MPI_Waitall(nreceives, receives, MPI_STATUSES_IGNORE);
        for (int j = 1; j <= rows; j++) {
            if (left >= 0)
                AT(u, j, 0) = recv_left[j - 1];
            if (right >= 0)
                AT(u, j, cols + 1) = recv_right[j - 1];
        }

        /* The shell: the top and bottom rows whole, the left and right columns between them. */
        sweep_box(cols, v, u, 1, j0, 1, cols + 1);
        sweep_box(cols, v, u, j1, rows + 1, 1, cols + 1);
        sweep_box(cols, v, u, j0, j1, 1, i0);
        sweep_box(cols, v, u, j0, j1, i1, cols + 1);

        /* The next iteration packs u's edges into the send buffers: they must have left. */
        MPI_Waitall(nsends, sends, MPI_STATUSES_IGNORE);
        double *t = u;
        u = v;
        v = t;
    }
    return jacobi2d_finish(r, u, v, start);
}
