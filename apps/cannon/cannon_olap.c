/*
 * cannon, MPI-olap: cannon.c restructured by hand to overlap the rotation with the multiply
 * (seed 000 SV-C's pipeline). The dgemm of step s and the rotation that brings the blocks of
 * step s+1 are independent, so each step starts the rotation (Irecv into the second pair of
 * buffers, Isend from the first), multiplies, and only then waits and swaps the buffers.
 *
 *   cannon_olap [N [REPEATS]]      (as cannon.c)
 *
 * An MPI library without a progress thread moves a large (rendezvous) message only while the
 * program is inside MPI, so the dgemm runs in row panels with an MPI_Testall between them.
 */
#include <mpi.h>

#include "app.h"
#include "cannon_common.h"
#include "cannon_kernels.h"

/* Row panels per dgemm: a poll or more to keep the messages moving, panels tall enough that
 * dgemm keeps its speed (OpenBLAS, one core: 1024 x 1024 blocks lose 2% in two panels of 512
 * rows, 7% in four of 256, 20% in eight of 128). */
enum { MAX_PANELS = 4, MIN_PANEL_ROWS = 512 };

int main(int argc, char **argv)
{
    const cannon_run r = cannon_start(&argc, &argv);
    const int nb = r.nb, count = r.count;
    int panels = nb / MIN_PANEL_ROWS;
    panels = panels < 1 ? 1 : panels > MAX_PANELS ? MAX_PANELS : panels;
    double *a, *b, *c, *next_a, *next_b;
    cannon_blocks(nb, r.row, r.col, &a, &b, &c, &next_a, &next_b);

    MPI_Barrier(MPI_COMM_WORLD);
    double start = MPI_Wtime();

    /* The skew has nothing to overlap with: the first dgemm needs its result. */
    cannon_skew(r.grid, r.row, r.col, count, &a, &next_a, &b, &next_b);

    const int steps = r.repeats * r.q;
    for (int step = 0; step < steps; step++) {
        const int rotate = step + 1 < steps;
        MPI_Request rotation[4];
        int arrived = !rotate;
        if (rotate) {
            /* dgemm only reads a and b, which MPI allows while they are being sent. */
            MPI_Irecv(next_a, count, MPI_DOUBLE, r.right, TAG_A, r.grid, &rotation[0]);
            MPI_Irecv(next_b, count, MPI_DOUBLE, r.down, TAG_B, r.grid, &rotation[1]);
            MPI_Isend(a, count, MPI_DOUBLE, r.left, TAG_A, r.grid, &rotation[2]);
            MPI_Isend(b, count, MPI_DOUBLE, r.up, TAG_B, r.grid, &rotation[3]);
        }
        for (int p = 0; p < panels; p++) {
            cannon_multiply_add_rows(nb, (int)((long)p * nb / panels), (int)((long)(p + 1) * nb / panels), a, b, c);
            if (!arrived)
                MPI_Testall(4, rotation, &arrived, MPI_STATUSES_IGNORE);
        }
        if (rotate) {
            if (!arrived)
                MPI_Waitall(4, rotation, MPI_STATUSES_IGNORE);
            swap(&a, &next_a);
            swap(&b, &next_b);
        }
    }
    return cannon_finish(r, a, b, c, next_a, next_b, start);
}
