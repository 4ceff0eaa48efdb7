/* The MPI set-up and verification of cannon25d, shared by MPI-basic/Bamboo/nocomm
 * (cannon25d.c) and MPI-olap (cannon25d_olap.c) so that both variants run on the same grid
 * and blocks and are checked alike: cannon25d_start() and cannon25d_finish() begin and end
 * both programs. What sets them apart, how a repetition moves the blocks (broadcast, skew,
 * shifts, reduction), stays in each program. */
#ifndef CANNON25D_COMMON_H
#define CANNON25D_COMMON_H

#include <mpi.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "app.h"
#include "cannon25d_kernels.h"

static const char cannon25d_usage[] = "[N [C [REPEATS]]]: ranks = C*q^2, q a multiple of C, N a multiple of q";

/* What both programs run on: N, C, REPEATS and the layer's side q; the q x q x c grid, its
 * layer (X and Y, periodic: the shifts rotate) and fiber (Z, the replicas) through this rank,
 * and the rank's place (i, j, k) in it; the side nb and size blk of a block, the steps of a
 * layer, the first block of the sum a layer starts with, and the neighbours in the layer
 * that blocks shift from and to. The programs keep it in a local whose address they never
 * take, which Bamboo's firing rules read like any other local. */
typedef struct cannon25d_run {
    int n, c, repeats, q;
    MPI_Comm grid, layer, fiber;
    int i, j, k;
    int nb, blk, steps, first;
    int left, right, up, down;
} cannon25d_run;

/* MPI_Init and the set-up from the arguments; ends the program (rank 0 says why) when the
 * ranks or N do not fit. reorder lets the runtime give a process a compact block of the grid. */
static inline cannon25d_run cannon25d_start(int *argc, char ***argv)
{
    int rank, size;
    app_start(argc, argv, &rank, &size);
    const int fallback_c = default_replication(size);
    cannon25d_run r;
    r.n = app_int_arg(*argc, *argv, 1, 384, cannon25d_usage);
    r.c = app_int_arg(*argc, *argv, 2, fallback_c ? fallback_c : 1, cannon25d_usage);
    r.repeats = app_int_arg(*argc, *argv, 3, 3, cannon25d_usage);
    r.q = layer_side(size, r.c);
    const int n = r.n, c = r.c, q = r.q;
    const char *problem = q == 0       ? "the number of ranks is not C*q^2"
                          : q % c != 0 ? "q is not a multiple of C (each layer does q/C Cannon steps)"
                          : n % q != 0 ? "N is not a multiple of q"
                          : (double)(n / q) * (n / q) >= 1 << 30 ? "N/q is too large" : NULL;
    if (problem) {
        if (rank == 0)
            fprintf(stderr, "cannon25d: N=%d C=%d on %d ranks: %s\nusage: %s %s\n", n, c, size, problem, (*argv)[0],
                    cannon25d_usage);
        app_refuse();
    }

    int dims[3] = {q, q, c}, periods[3] = {1, 1, 0}, coords[3];
    const int in_layer[3] = {1, 1, 0}, along_z[3] = {0, 0, 1};
    MPI_Cart_create(MPI_COMM_WORLD, 3, dims, periods, 1, &r.grid);
    int me;
    MPI_Comm_rank(r.grid, &me);
    MPI_Cart_coords(r.grid, me, 3, coords);
    MPI_Cart_sub(r.grid, in_layer, &r.layer);
    MPI_Cart_sub(r.grid, along_z, &r.fiber); /* its rank is the layer k, so layer 0 is its root */
    r.i = coords[0];
    r.j = coords[1];
    r.k = coords[2];

    r.nb = n / q;
    r.blk = r.nb * r.nb;
    r.steps = q / c;
    /* Layer k starts k*q/c steps into Cannon's sequence: its first step multiplies
     * A(i, m) B(m, j) with m = i + j + k*q/c. */
    r.first = r.i + r.j + r.k * r.steps;
    MPI_Cart_shift(r.layer, 1, 1, &r.left, &r.right);
    MPI_Cart_shift(r.layer, 0, 1, &r.up, &r.down);
    return r;
}

/* Rank in the periodic q x q layer of the block (row, col), taken modulo q. */
static inline int layer_rank(MPI_Comm layer, int q, int row, int col)
{
    int at[2] = {((row % q) + q) % q, ((col % q) + q) % q}, r;
    MPI_Cart_rank(layer, at, &r);
    return r;
}

/* home: rank (i, j, k)'s blocks of A and B, side by side so that one broadcast replicates
 * both (layer 0's own, the other layers' copies). A step's blocks are the home ones or were
 * received into one of two spares, the one the current block is not in, so home stays
 * intact for the next repetition. c_part: the layer's partial sum of C. */
static inline void cannon25d_blocks(int nb, int i, int j, int k, double **home, double *a_spare[2],
                                    double *b_spare[2], double **c_part)
{
    const int blk = nb * nb;
    *home = alloc_block(2 * (size_t)blk);
    a_spare[0] = alloc_block(blk), a_spare[1] = alloc_block(blk);
    b_spare[0] = alloc_block(blk), b_spare[1] = alloc_block(blk);
    *c_part = alloc_block(blk);
    for (int x = 0; x < 2; x++) { /* touch every page before the timed part */
        memset(a_spare[x], 0, blk * sizeof(double));
        memset(b_spare[x], 0, blk * sizeof(double));
    }
    memset(*c_part, 0, blk * sizeof **c_part);
    if (k == 0) {
        fill_block(*home, nb, (int64_t)i * nb, (int64_t)j * nb, gen_a);
        fill_block(*home + blk, nb, (int64_t)i * nb, (int64_t)j * nb, gen_b);
    } else {
        memset(*home, 0, 2 * (size_t)blk * sizeof **home);
    }
}

/* Checks layer 0's blocks of C and prints the verification line; returns the program's exit
 * status (app_verified). Every entry of C is an integer, so the sums are exact in any order. */
static inline int cannon25d_verify(const double *c_part, int n, int c, int q, int i, int j, int k)
{
    int rank;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    const int nb = n / q;
    struct block_check mine = {0, 0, 0};
    if (k == 0)
        mine = check_block(c_part, nb, n, (int64_t)i * nb, (int64_t)j * nb);
    int64_t part[3] = {mine.checksum, mine.checked, mine.mismatches}, total[3] = {0, 0, 0};
    MPI_Reduce(part, total, 3, MPI_INT64_T, MPI_SUM, 0, MPI_COMM_WORLD);
    int passed = 0;
    char what[256] = "";
    if (rank == 0) {
        const int64_t expected = expected_checksum(n);
        passed = total[0] == expected && total[1] > 0 && total[2] == 0;
        snprintf(what, sizeof what, "cannon25d N=%d c=%d q=%d checksum=%lld expected=%lld checked=%lld mismatches=%lld",
                 n, c, q, (long long)total[0], (long long)expected, (long long)total[1], (long long)total[2]);
    }
    MPI_Bcast(&passed, 1, MPI_INT, 0, MPI_COMM_WORLD); /* every rank's exit status says it */
    return app_verified(what, passed);
}

/* The end of both programs, after the repetitions that began at `start` (MPI_Wtime): the
 * time, the check of C, the frees, MPI_Finalize. Returns the program's exit status. */
static inline int cannon25d_finish(cannon25d_run r, double *home, double *a_spare[2], double *b_spare[2],
                                   double *c_part, double start)
{
    app_report_time(start);
    const int status = cannon25d_verify(c_part, r.n, r.c, r.q, r.i, r.j, r.k);
    free(home), free(a_spare[0]), free(a_spare[1]), free(b_spare[0]), free(b_spare[1]), free(c_part);
    MPI_Comm_free(&r.fiber);
    MPI_Comm_free(&r.layer);
    MPI_Comm_free(&r.grid);
    MPI_Finalize();
    return status;
}

#endif
