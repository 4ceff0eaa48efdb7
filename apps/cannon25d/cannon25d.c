/*
 * cannon25d: C = A*B for N x N doubles with the 2.5D communication-avoiding algorithm
 * (Solomonik & Demmel) on a q x q x c grid of P = c*q^2 ranks (seed 000 section V-D,
 * seed 001 section 4.1.1). With c = 1 it is 2D Cannon.
 *
 *   cannon25d [N [C [REPEATS]]]
 *
 * A and B live on layer 0 as q x q blocks of N/q. Each repetition broadcasts them along Z
 * to the c layers, lets layer k do the Cannon steps k*q/c .. (k+1)*q/c - 1 (an initial skew,
 * then q/c - 1 shifts of A left and B up, one dgemm per step), and sums the layers' partial
 * products on layer 0 along Z. MPI-basic and, through bamboocc, the Bamboo variant: the
 * broadcast and the reduction are receive blocks with the MinHeap layout along Z (seed 000
 * Fig. 7), the rotation a send and a receive block per step as in 2D Cannon (Fig. 5).
 */
#include <mpi.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "app.h"
#include "cannon25d_kernels.h"

enum { TAG_A, TAG_B };

#pragma bamboo dimension 3

/* Rank in the periodic q x q layer of the block (row, col), taken modulo q. */
static int layer_rank(MPI_Comm layer, int q, int row, int col)
{
    int at[2] = {((row % q) + q) % q, ((col % q) + q) % q}, r;
    MPI_Cart_rank(layer, at, &r);
    return r;
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);

    const char *usage = "[N [C [REPEATS]]]: ranks = C*q^2, q a multiple of C, N a multiple of q";
    const int fallback_c = default_replication(size);
    const int n = app_int_arg(argc, argv, 1, 384, usage);
    const int c = app_int_arg(argc, argv, 2, fallback_c ? fallback_c : 1, usage);
    const int repeats = app_int_arg(argc, argv, 3, 3, usage);
    const int q = layer_side(size, c);
    const char *problem = q == 0       ? "the number of ranks is not C*q^2"
                          : q % c != 0 ? "q is not a multiple of C (each layer does q/C Cannon steps)"
                          : n % q != 0 ? "N is not a multiple of q"
                          : (double)(n / q) * (n / q) >= 1 << 30 ? "N/q is too large" : NULL;
    if (problem) {
        if (rank == 0)
            fprintf(stderr, "cannon25d: N=%d C=%d on %d ranks: %s\nusage: %s %s\n", n, c, size, problem, argv[0],
                    usage);
        MPI_Finalize();
        return 2;
    }

    /* X and Y span a layer (periodic: the shifts rotate), Z the replicas. reorder lets the
     * runtime give a process a compact block of the grid. */
    int dims[3] = {q, q, c}, periods[3] = {1, 1, 0}, coords[3];
    const int in_layer[3] = {1, 1, 0}, along_z[3] = {0, 0, 1};
    MPI_Comm grid, layer, fiber;
    MPI_Cart_create(MPI_COMM_WORLD, 3, dims, periods, 1, &grid);
    int me;
    MPI_Comm_rank(grid, &me);
    MPI_Cart_coords(grid, me, 3, coords);
    MPI_Cart_sub(grid, in_layer, &layer);
    MPI_Cart_sub(grid, along_z, &fiber); /* its rank is the layer k, so layer 0 is its root */
    const int i = coords[0], j = coords[1], k = coords[2];
    const int nb = n / q, blk = nb * nb, steps = q / c;

    /* Layer k starts k*q/c steps into Cannon's sequence: its first step multiplies
     * A(i, m) B(m, j) with m = i + j + k*q/c, which the skew brings from (i, m) and (m, j). */
    const int first = i + j + k * steps;
    const int a_skew_from = layer_rank(layer, q, i, first), a_skew_to = layer_rank(layer, q, i, 2 * j - first);
    const int b_skew_from = layer_rank(layer, q, first, j), b_skew_to = layer_rank(layer, q, 2 * i - first, j);
    int self, left, right, up, down;
    MPI_Comm_rank(layer, &self);
    MPI_Cart_shift(layer, 1, 1, &left, &right);
    MPI_Cart_shift(layer, 0, 1, &up, &down);

    /* home: this rank's blocks of A and B, side by side so that one broadcast replicates
     * both (layer 0's own, the other layers' copies). A step's blocks are the home ones or
     * were received into one of two spares, the one the current block is not in, so home
     * stays intact for the next repetition. */
    double *home = alloc_block(2 * (size_t)blk), *a_home = home, *b_home = home + blk;
    double *a_spare[2] = {alloc_block(blk), alloc_block(blk)}, *b_spare[2] = {alloc_block(blk), alloc_block(blk)};
    double *c_part = alloc_block(blk);
    for (int x = 0; x < 2; x++) { /* touch every page before the timed part */
        memset(a_spare[x], 0, blk * sizeof(double));
        memset(b_spare[x], 0, blk * sizeof(double));
    }
    memset(c_part, 0, blk * sizeof *c_part);
    if (k == 0) {
        fill_block(a_home, nb, (int64_t)i * nb, (int64_t)j * nb, gen_a);
        fill_block(b_home, nb, (int64_t)i * nb, (int64_t)j * nb, gen_b);
    } else {
        memset(home, 0, 2 * (size_t)blk * sizeof *home);
    }

    MPI_Barrier(MPI_COMM_WORLD);
    const double start = MPI_Wtime();
    for (int rep = 0; rep < repeats; rep++) {
#pragma bamboo olap layout MinHeap Z
#pragma bamboo receive
        MPI_Bcast(home, 2 * blk, MPI_DOUBLE, 0, fiber);

        /* Step 0 brings the skewed blocks (no message where the skew is zero), the later
         * steps the right and lower neighbours'. */
        double *a = a_home, *b = b_home;
#pragma bamboo olap layout OneNeighborBackward X Y
        for (int t = 0; t < steps; t++) {
            const int a_from = t == 0 ? a_skew_from : right, a_to = t == 0 ? a_skew_to : left;
            const int b_from = t == 0 ? b_skew_from : down, b_to = t == 0 ? b_skew_to : up;
            double *a_next = a == a_spare[0] ? a_spare[1] : a_spare[0];
            double *b_next = b == b_spare[0] ? b_spare[1] : b_spare[0];
            MPI_Request sends[2];
            int nsends = 0;
#pragma bamboo send
            {
                if (a_to != self)
                    MPI_Isend(a, blk, MPI_DOUBLE, a_to, TAG_A, layer, &sends[nsends++]);
                if (b_to != self)
                    MPI_Isend(b, blk, MPI_DOUBLE, b_to, TAG_B, layer, &sends[nsends++]);
            }
#pragma bamboo receive
            {
                if (a_from != self) {
                    MPI_Recv(a_next, blk, MPI_DOUBLE, a_from, TAG_A, layer, MPI_STATUS_IGNORE);
                    a = a_next;
                }
                if (b_from != self) {
                    MPI_Recv(b_next, blk, MPI_DOUBLE, b_from, TAG_B, layer, MPI_STATUS_IGNORE);
                    b = b_next;
                }
            }
            MPI_Waitall(nsends, sends, MPI_STATUSES_IGNORE);
            block_multiply(nb, nb, a, b, t == 0 ? 0.0 : 1.0, c_part);
        }

#pragma bamboo olap layout MinHeap Z
#pragma bamboo receive
        MPI_Reduce(k == 0 ? MPI_IN_PLACE : c_part, c_part, blk, MPI_DOUBLE, MPI_SUM, 0, fiber);
    }
    app_report_time(start);

    /* Every entry of C is an integer, so the sums below are exact in any order. */
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
    const int status = app_verified(what, passed);

    free(home), free(a_spare[0]), free(a_spare[1]), free(b_spare[0]), free(b_spare[1]), free(c_part);
    MPI_Comm_free(&fiber);
    MPI_Comm_free(&layer);
    MPI_Comm_free(&grid);
    MPI_Finalize();
    return status;
}
