/* The MPI set-up and verification of jacobi2d, shared by MPI-basic/Bamboo/nocomm
 * (jacobi2d.c) and MPI-olap (jacobi2d_olap.c) so that both run on the same decomposition and
 * are checked alike: jacobi2d_start() and jacobi2d_finish() begin and end both programs.
 * What sets them apart, the iteration loop and how it exchanges the ghost cells, stays in
 * each program.
 *
 * app.h is included by a path relative to this file, not through -I like the other
 * applications: jacobi2d is the README's first example, built as `bamboocc
 * apps/jacobi2d/jacobi2d.c` with no flags. */
#ifndef JACOBI2D_COMMON_H
#define JACOBI2D_COMMON_H

#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../common/app.h"
#include "jacobi2d_kernels.h"

#define JACOBI2D_USAGE "[N [ITERATIONS]]"

enum { TAG_UP, TAG_DOWN, TAG_LEFT, TAG_RIGHT, TAG_VERIFY };

/* A rank's block of the N x N grid: a process grid of px columns x py rows, px the largest
 * divisor of the rank count <= its square root; neighbours are -1 along the grid's edge. */
struct block {
    int n;
    int px, py;
    int row0, rows;  /* first owned row (0-based) and how many */
    int col0, cols;
    int up, down, left, right;
};

/* First index and length of part `k` of `n` points split into `parts` nearly equal parts. */
static inline void split(int n, int parts, int k, int *first, int *len)
{
    *len = n / parts + (k < n % parts);
    *first = k * (n / parts) + (k < n % parts ? k : n % parts);
}

/* The block of `rank` among `size` ranks. */
static inline struct block jacobi2d_block(int n, int size, int rank)
{
    struct block g = {.n = n, .px = 1};
    for (int d = 1; d * d <= size; d++)
        if (size % d == 0)
            g.px = d;
    g.py = size / g.px;
    const int gx = rank % g.px, gy = rank / g.px;
    split(n, g.px, gx, &g.col0, &g.cols);
    split(n, g.py, gy, &g.row0, &g.rows);
    g.up = gy > 0 ? rank - g.px : -1;
    g.down = gy < g.py - 1 ? rank + g.px : -1;
    g.left = gx > 0 ? rank - 1 : -1;
    g.right = gx < g.px - 1 ? rank + 1 : -1;
    return g;
}

/* Two zeroed grids with the fixed boundary: 1.0 along the top edge of the global grid, 0.0
 * elsewhere. */
static inline void jacobi2d_grids(const struct block *g, double **u, double **v)
{
    const int cols = g->cols;
    *u = calloc((size_t)(g->rows + 2) * (cols + 2), sizeof **u);
    *v = calloc((size_t)(g->rows + 2) * (cols + 2), sizeof **v);
    if (!*u || !*v) {
        fprintf(stderr, "jacobi2d: out of memory for a %dx%d block\n", g->rows, cols);
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    if (g->up < 0)
        for (int i = 0; i < cols + 2; i++)
            AT(*u, 0, i) = AT(*v, 0, i) = 1.0;
}

/* What both programs start from. */
typedef struct jacobi2d_run {
    int iterations;
    struct block g;
    double *u, *v;  /* the two grids, with the boundary set */
    double *send_left, *send_right, *recv_left, *recv_right;  /* the columns, packed */
} jacobi2d_run;

/* Starts MPI, reads the arguments, and makes this rank's block, grids and column buffers. A
 * grid too small for the process grid ends the program (rank 0 says why). */
static inline jacobi2d_run jacobi2d_start(int *argc, char ***argv)
{
    int rank, size;
    app_start(argc, argv, &rank, &size);
    jacobi2d_run r;
    const int n = app_int_arg(*argc, *argv, 1, 256, JACOBI2D_USAGE);
    r.iterations = app_int_arg(*argc, *argv, 2, 100, JACOBI2D_USAGE);
    r.g = jacobi2d_block(n, size, rank);
    if (n < r.g.px || n < r.g.py) {
        if (rank == 0)
            fprintf(stderr, "jacobi2d: N=%d is too small for a %dx%d process grid\n", n, r.g.px, r.g.py);
        app_refuse();
    }
    jacobi2d_grids(&r.g, &r.u, &r.v);
    const size_t column = (size_t)r.g.rows * sizeof(double);
    r.send_left = malloc(column);
    r.send_right = malloc(column);
    r.recv_left = malloc(column);
    r.recv_right = malloc(column);
    return r;
}

/* Starts the halo sends of u: its first and last owned rows up and down, and its first and
 * last owned columns, packed into r's column buffers, left and right. Returns how many sends
 * it started, in sends[]. Both programs send alike; they differ in when they receive. */
static inline int jacobi2d_send_halos(const jacobi2d_run *r, double *u, MPI_Request sends[4])
{
    const int rows = r->g.rows, cols = r->g.cols;
    int nsends = 0;
    for (int j = 1; j <= rows; j++) {
        r->send_left[j - 1] = AT(u, j, 1);
        r->send_right[j - 1] = AT(u, j, cols);
    }
    if (r->g.up >= 0)
        MPI_Isend(&AT(u, 1, 1), cols, MPI_DOUBLE, r->g.up, TAG_UP, MPI_COMM_WORLD, &sends[nsends++]);
    if (r->g.down >= 0)
        MPI_Isend(&AT(u, rows, 1), cols, MPI_DOUBLE, r->g.down, TAG_DOWN, MPI_COMM_WORLD, &sends[nsends++]);
    if (r->g.left >= 0)
        MPI_Isend(r->send_left, rows, MPI_DOUBLE, r->g.left, TAG_LEFT, MPI_COMM_WORLD, &sends[nsends++]);
    if (r->g.right >= 0)
        MPI_Isend(r->send_right, rows, MPI_DOUBLE, r->g.right, TAG_RIGHT, MPI_COMM_WORLD, &sends[nsends++]);
    return nsends;
}

/* The whole grid after `iterations` sweeps, computed by one rank alone. */
static inline double *jacobi2d_serial(int n, int iterations)
{
    struct block whole = jacobi2d_block(n, 1, 0);
    double *u, *v;
    jacobi2d_grids(&whole, &u, &v);
    for (int it = 0; it < iterations; it++) {
        sweep_box(n, v, u, 1, n + 1, 1, n + 1);
        double *t = u;
        u = v;
        v = t;
    }
    free(v);
    return u;
}

/* Rank 0 gathers every block of u and compares it, bit for bit, with the serial computation:
 * Jacobi updates every point with the same arithmetic however the grid is split, so any
 * difference is a lost, stale or misplaced ghost cell. The checksum, a weighted sum of the
 * serial grid, is the same for any number of ranks. Returns the program's exit status
 * (app_verified). */
static inline int jacobi2d_verify(const struct block *g, int iterations, const double *u)
{
    char what[160] = "";
    const int n = g->n;
    if (!app_communicates()) {
        snprintf(what, sizeof what, "jacobi2d n=%d iterations=%d", n, iterations);
        return app_verified(what, 0);
    }
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    double *mine = malloc((size_t)g->rows * g->cols * sizeof *mine);
    for (int j = 1, cols = g->cols; j <= g->rows; j++)
        memcpy(&mine[(size_t)(j - 1) * cols], &AT(u, j, 1), cols * sizeof *mine);
    int passed = 1;
    if (rank != 0) {
        MPI_Send(mine, g->rows * g->cols, MPI_DOUBLE, 0, TAG_VERIFY, MPI_COMM_WORLD);
    } else {
        double *serial = jacobi2d_serial(n, iterations), *theirs = malloc((size_t)g->rows * g->cols * sizeof *theirs);
        for (int r = 0; r < size; r++) {
            const struct block b = jacobi2d_block(n, size, r);
            double *block = mine;
            if (r != 0) {
                block = theirs = realloc(theirs, (size_t)b.rows * b.cols * sizeof *theirs);
                MPI_Recv(block, b.rows * b.cols, MPI_DOUBLE, r, TAG_VERIFY, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            }
            const int cols = n;
            for (int j = 0; j < b.rows && passed; j++)
                if (memcmp(&block[(size_t)j * b.cols], &AT(serial, b.row0 + j + 1, b.col0 + 1), b.cols * sizeof *block)) {
                    fprintf(stderr, "jacobi2d: row %d of rank %d differs from the serial computation\n", b.row0 + j + 1, r);
                    passed = 0;
                }
        }
        double checksum = 0.0;
        for (int j = 1, cols = n; j <= n; j++)
            for (int i = 1; i <= n; i++)
                checksum += AT(serial, j, i) * (double)(j * (n + 1) + i);
        snprintf(what, sizeof what, "jacobi2d n=%d iterations=%d checksum=%.15e", n, iterations, checksum);
        free(serial);
        free(theirs);
    }
    free(mine);
    MPI_Bcast(&passed, 1, MPI_INT, 0, MPI_COMM_WORLD);
    return app_verified(what, passed);
}

/* Ends both programs: the time of the loop begun at `start`, the verification of `u` (the
 * grid swept last; `v` the other), the program's exit status. */
static inline int jacobi2d_finish(jacobi2d_run r, double *u, double *v, double start)
{
    app_report_time(start);
    const int status = jacobi2d_verify(&r.g, r.iterations, u);
    free(u);
    free(v);
    free(r.send_left);
    free(r.send_right);
    free(r.recv_left);
    free(r.recv_right);
    MPI_Finalize();
    return status;
}

#endif
