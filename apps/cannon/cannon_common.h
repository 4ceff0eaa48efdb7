/* The MPI set-up, skew and verification of cannon, shared by MPI-basic/Bamboo/nocomm
 * (cannon.c) and MPI-olap (cannon_olap.c) so that both variants start from the same grid and
 * blocks and are checked alike. What sets them apart, the rotation loop, stays in each. */
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

/* Reads N and REPEATS and the grid's side q. Returns 0 (rank 0 has said why) when the ranks
 * are not a square number or q does not divide N; the caller then ends. */
static inline int cannon_args(int argc, char **argv, int *n, int *repeats, int *q)
{
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    *n = app_int_arg(argc, argv, 1, 192, cannon_usage);
    *repeats = app_int_arg(argc, argv, 2, 2, cannon_usage);

    *q = 1;
    while ((*q + 1) * (*q + 1) <= size)
        (*q)++;
    if (*q * *q != size || *n % *q != 0) {
        if (rank == 0 && *q * *q != size)
            fprintf(stderr, "cannon: needs a square number of ranks, not %d\nusage: %s %s\n", size, argv[0],
                    cannon_usage);
        else if (rank == 0)
            fprintf(stderr, "cannon: N = %d is not divisible by the grid's side %d\nusage: %s %s\n", *n, *q, argv[0],
                    cannon_usage);
        return 0;
    }
    return 1;
}

/* The q x q grid, this rank's place (row, col) in it and the neighbours that A (along the
 * row) and B (along the column) come from and go to in a rotation. Periodic in both
 * dimensions: A rotates along the rows, B along the columns. reorder lets Bamboo give each
 * process a compact block of the grid. */
static inline void cannon_grid(int q, MPI_Comm *grid, int *row, int *col, int *right, int *left, int *down, int *up)
{
    int dims[2] = {q, q}, periods[2] = {1, 1}, coords[2], me;
    MPI_Cart_create(MPI_COMM_WORLD, 2, dims, periods, 1, grid);
    MPI_Comm_rank(*grid, &me);
    MPI_Cart_coords(*grid, me, 2, coords);
    *row = coords[0];
    *col = coords[1];
    MPI_Cart_shift(*grid, 1, -1, right, left);
    MPI_Cart_shift(*grid, 0, -1, down, up);
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

static inline void cannon_free(MPI_Comm *grid, double *a, double *b, double *c, double *next_a, double *next_b)
{
    free(a);
    free(b);
    free(c);
    free(next_a);
    free(next_b);
    MPI_Comm_free(grid);
}

#endif
