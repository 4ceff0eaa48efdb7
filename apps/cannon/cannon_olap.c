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
#include <stdio.h>
#include <stdlib.h>

#include "app.h"
#include "cannon_kernels.h"

enum { TAG_SKEW_A, TAG_SKEW_B, TAG_A, TAG_B };

/* Row panels per dgemm: a poll or more to keep the messages moving, panels tall enough that
 * dgemm keeps its speed (OpenBLAS, one core: 1024 x 1024 blocks lose 2% in two panels of 512
 * rows, 7% in four of 256, 20% in eight of 128). */
enum { MAX_PANELS = 4, MIN_PANEL_ROWS = 512 };

static const char usage[] = "[N [REPEATS]]  (N x N matrices, N divisible by sqrt(ranks); ranks a square number)";

static void swap(double **x, double **y)
{
    double *t = *x;
    *x = *y;
    *y = t;
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    const int n = app_int_arg(argc, argv, 1, 192, usage);
    const int repeats = app_int_arg(argc, argv, 2, 2, usage);

    int q = 1;
    while ((q + 1) * (q + 1) <= size)
        q++;
    if (q * q != size || n % q != 0) {
        if (rank == 0 && q * q != size)
            fprintf(stderr, "cannon: needs a square number of ranks, not %d\nusage: %s %s\n", size, argv[0], usage);
        else if (rank == 0)
            fprintf(stderr, "cannon: N = %d is not divisible by the grid's side %d\nusage: %s %s\n", n, q, argv[0],
                    usage);
        MPI_Finalize();
        return 2;
    }

    int dims[2] = {q, q}, periods[2] = {1, 1}, coords[2], me;
    MPI_Comm grid;
    MPI_Cart_create(MPI_COMM_WORLD, 2, dims, periods, 1, &grid);
    MPI_Comm_rank(grid, &me);
    MPI_Cart_coords(grid, me, 2, coords);
    const int row = coords[0], col = coords[1];
    int right, left, down, up;
    MPI_Cart_shift(grid, 1, -1, &right, &left);
    MPI_Cart_shift(grid, 0, -1, &down, &up);

    const int nb = n / q;
    const int count = nb * nb;
    double *a = cannon_block_alloc(nb), *b = cannon_block_alloc(nb), *c = cannon_block_alloc(nb);
    double *next_a = cannon_block_alloc(nb), *next_b = cannon_block_alloc(nb);
    if (!a || !b || !c || !next_a || !next_b) {
        fprintf(stderr, "cannon: rank %d: out of memory for five %d x %d blocks\n", rank, nb, nb);
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    cannon_fill(a, nb, row * nb, col * nb, CANNON_SEED_A);
    cannon_fill(b, nb, row * nb, col * nb, CANNON_SEED_B);
    int panels = nb / MIN_PANEL_ROWS;
    panels = panels < 1 ? 1 : panels > MAX_PANELS ? MAX_PANELS : panels;

    MPI_Barrier(MPI_COMM_WORLD);
    double start = MPI_Wtime();

    /* The skew has nothing to overlap with: the first dgemm needs its result. */
    int from, to;
    MPI_Cart_shift(grid, 1, -row, &from, &to);
    MPI_Sendrecv(a, count, MPI_DOUBLE, to, TAG_SKEW_A, next_a, count, MPI_DOUBLE, from, TAG_SKEW_A, grid,
                 MPI_STATUS_IGNORE);
    swap(&a, &next_a);
    MPI_Cart_shift(grid, 0, -col, &from, &to);
    MPI_Sendrecv(b, count, MPI_DOUBLE, to, TAG_SKEW_B, next_b, count, MPI_DOUBLE, from, TAG_SKEW_B, grid,
                 MPI_STATUS_IGNORE);
    swap(&b, &next_b);

    const int steps = repeats * q;
    for (int step = 0; step < steps; step++) {
        const int rotate = step + 1 < steps;
        MPI_Request rotation[4];
        int arrived = !rotate;
        if (rotate) {
            /* dgemm only reads a and b, which MPI allows while they are being sent. */
            MPI_Irecv(next_a, count, MPI_DOUBLE, right, TAG_A, grid, &rotation[0]);
            MPI_Irecv(next_b, count, MPI_DOUBLE, down, TAG_B, grid, &rotation[1]);
            MPI_Isend(a, count, MPI_DOUBLE, left, TAG_A, grid, &rotation[2]);
            MPI_Isend(b, count, MPI_DOUBLE, up, TAG_B, grid, &rotation[3]);
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
    app_report_time(start);

    /* The check of cannon.c, unchanged. */
    double maxdiff = 0.0, worst = 0.0;
    long long mine[2] = {cannon_check_block(c, n, nb, row * nb, col * nb, repeats, &maxdiff), cannon_block_sum(c, nb)};
    long long total[2] = {0, 0};
    if (mine[0] < 0) {
        fprintf(stderr, "cannon: rank %d: out of memory for the check\n", rank);
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    MPI_Reduce(mine, total, 2, MPI_LONG_LONG, MPI_SUM, 0, MPI_COMM_WORLD);
    MPI_Reduce(&maxdiff, &worst, 1, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
    int passed = 0;
    if (rank == 0) {
        const long long expected = cannon_expected_sum(n, repeats);
        const long long samples = nb < CANNON_SAMPLES ? nb : CANNON_SAMPLES, to_check = size * samples * samples;
        passed = worst == 0.0 && total[0] == to_check && total[1] == expected;
        if (!passed)
            fprintf(stderr, "cannon: C differs from A*B: largest difference %g over %lld entries checked (of %lld); "
                            "sum of C %lld, expected %lld\n", worst, total[0], to_check, total[1], expected);
    }
    MPI_Bcast(&passed, 1, MPI_INT, 0, MPI_COMM_WORLD);
    char what[160];
    snprintf(what, sizeof what, "cannon N=%d grid=%dx%d repeats=%d checked=%lld maxdiff=%g sum=%lld", n, q, q, repeats,
             total[0], worst, total[1]);
    const int status = app_verified(what, passed);

    free(a);
    free(b);
    free(c);
    free(next_a);
    free(next_b);
    MPI_Comm_free(&grid);
    MPI_Finalize();
    return status;
}
