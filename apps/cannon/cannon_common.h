/* The MPI set-up, skew and verification of cannon, shared by MPI-basic/Bamboo/nocomm
 * (cannon.c) and MPI-olap (cannon_olap.c) so that both variants start from the same grid and
 * blocks and are checked alike: cannon_start() and cannon_finish() begin and end both
 * programs. What sets them apart, the rotation loop, stays in each. */
#ifndef CANNON_COMMON_H
#define CANNON_COMMON_H

#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

#include "app.h"
#include "cannon_kernels.h"

enum { TAG_SKEW_A, TAG_SKEW_B, TAG_A, TAG_B };

static const char cannon_usage[] = "[N [REPEATS]]  (N x N matrices, N divisible by sqrt(ranks); ranks a square number)";

static inline void swap(double **x, double **y)
{
    double *t = *x;
    *x = *y;
    *y = t;
}

/* What both programs run on: N, REPEATS, the side q of the q x q process grid, my place
 * (row, col) in it and the neighbours that A (along the row) and B (along the column) come
 * from and go to in a rotation, and the side nb and size count of a block. The programs keep
 * it in a local whose address they never take, which Bamboo's firing rules read like any
 * other local. */
typedef struct cannon_run {
    int n, repeats, q, nb, count;
    MPI_Comm grid;
    int row, col, right, left, down, up;
} cannon_run;

/* MPI_Init and the set-up from the arguments; ends the program (rank 0 says why) when the
 * ranks are not a square number or q does not divide N. The grid is periodic in both
 * dimensions: A rotates along the rows, B along the columns. reorder lets Bamboo give each
 * process a compact block of the grid. */
static inline cannon_run cannon_start(int *argc, char ***argv)
{
    int rank, size;
    app_start(argc, argv, &rank, &size);
    cannon_run r;
    r.n = app_int_arg(*argc, *argv, 1, 192, cannon_usage);
    r.repeats = app_int_arg(*argc, *argv, 2, 2, cannon_usage);

    r.q = 1;
    while ((r.q + 1) * (r.q + 1) <= size)
        r.q++;
    if (r.q * r.q != size || r.n % r.q != 0) {
        if (rank == 0 && r.q * r.q != size)
            fprintf(stderr, "cannon: needs a square number of ranks, not %d\nusage: %s %s\n", size, (*argv)[0],
                    cannon_usage);
        else if (rank == 0)
            fprintf(stderr, "cannon: N = %d is not divisible by the grid's side %d\nusage: %s %s\n", r.n, r.q,
                    (*argv)[0], cannon_usage);
        app_refuse();
    }
    r.nb = r.n / r.q;
    r.count = r.nb * r.nb;

    int dims[2] = {r.q, r.q}, periods[2] = {1, 1}, coords[2], me;
    MPI_Cart_create(MPI_COMM_WORLD, 2, dims, periods, 1, &r.grid);
    MPI_Comm_rank(r.grid, &me);
    MPI_Cart_coords(r.grid, me, 2, coords);
    r.row = coords[0];
    r.col = coords[1];
    MPI_Cart_shift(r.grid, 1, -1, &r.right, &r.left);
    MPI_Cart_shift(r.grid, 0, -1, &r.down, &r.up);
    return r;
}

/* The five nb x nb blocks of rank (row, col): its A and B, C = 0, and the buffers the next
 * A and B arrive in. */
static inline void cannon_blocks(int nb, int row, int col, double **a, double **b, double **c, double **next_a,
                                 double **next_b)
{
    *a = cannon_block_alloc(nb);
    *b = cannon_block_alloc(nb);
    *c = cannon_block_alloc(nb);
    *next_a = cannon_block_alloc(nb);
    *next_b = cannon_block_alloc(nb);
    if (!*a || !*b || !*c || !*next_a || !*next_b) {
        int rank;
        MPI_Comm_rank(MPI_COMM_WORLD, &rank);
        fprintf(stderr, "cannon: rank %d: out of memory for five %d x %d blocks\n", rank, nb, nb);
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    cannon_fill(*a, nb, row * nb, col * nb, CANNON_SEED_A);
    cannon_fill(*b, nb, row * nb, col * nb, CANNON_SEED_B);
}

/* The skew: row i of blocks of A turns i ranks left, column j of B j ranks up, so that rank
 * (i,j) holds A(i,i+j) and B(i+j,j), partners in the sum over k. */
static inline void cannon_skew(MPI_Comm grid, int row, int col, int count, double **a, double **next_a, double **b,
                               double **next_b)
{
    int from, to;
    MPI_Cart_shift(grid, 1, -row, &from, &to);
    MPI_Sendrecv(*a, count, MPI_DOUBLE, to, TAG_SKEW_A, *next_a, count, MPI_DOUBLE, from, TAG_SKEW_A, grid,
                 MPI_STATUS_IGNORE);
    swap(a, next_a);
    MPI_Cart_shift(grid, 0, -col, &from, &to);
    MPI_Sendrecv(*b, count, MPI_DOUBLE, to, TAG_SKEW_B, *next_b, count, MPI_DOUBLE, from, TAG_SKEW_B, grid,
                 MPI_STATUS_IGNORE);
    swap(b, next_b);
}

/* Checks C = REPEATS * A*B on every rank and prints the verification line; returns the
 * program's exit status (app_verified). Every quantity on the line is an integer or a
 * maximum: exact, so the same whatever order MPI combines them in. */
static inline int cannon_verify(const double *c, int n, int q, int repeats, int row, int col)
{
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    const int nb = n / q;
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
        if (!passed && app_communicates())
            fprintf(stderr, "cannon: C differs from A*B: largest difference %g over %lld entries checked (of %lld); "
                            "sum of C %lld, expected %lld\n", worst, total[0], to_check, total[1], expected);
    }
    MPI_Bcast(&passed, 1, MPI_INT, 0, MPI_COMM_WORLD);
    char what[160];
    snprintf(what, sizeof what, "cannon N=%d grid=%dx%d repeats=%d checked=%lld maxdiff=%g sum=%lld", n, q, q, repeats,
             total[0], worst, total[1]);
    return app_verified(what, passed);
}

/* The end of both programs, after the multiplications that began at `start` (MPI_Wtime):
 * the time, the check of C, the frees, MPI_Finalize. Returns the program's exit status. */
static inline int cannon_finish(cannon_run r, double *a, double *b, double *c, double *next_a, double *next_b,
                                double start)
{
    app_report_time(start);
    const int status = cannon_verify(c, r.n, r.q, r.repeats, r.row, r.col);
    free(a);
    free(b);
    free(c);
    free(next_a);
    free(next_b);
    MPI_Comm_free(&r.grid);
    MPI_Finalize();
    return status;
}

#endif
