/* The MPI set-up and verification of jacobi3d, shared by MPI-basic/Bamboo/nocomm
 * (jacobi3d.c) and MPI-olap (jacobi3d_olap.c) so that both variants run on the same
 * decomposition and face datatypes and are checked alike: jacobi3d_start() and
 * jacobi3d_finish() begin and end both programs. What sets them apart, the sweep loop and how
 * it exchanges the faces, stays in each program. */
#ifndef JACOBI3D_COMMON_H
#define JACOBI3D_COMMON_H

#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

#include "app.h"
#include "jacobi3d_kernels.h"

#define JACOBI3D_USAGE "[N [ITERATIONS [BY [BZ]]]]"

/* What both programs run on: the arguments, the 3D process grid `cart` and my block `g` of
 * it, and along axis d = 0, 1, 2 (z, y, x) my neighbours lo[d] and hi[d] (MPI_PROC_NULL at
 * the cube's boundary) and my faces: len[d] planes of datatype face[d], stride[d] apart,
 * from the first owned point. A message travelling towards higher coordinates along axis d
 * has tag 2d+1, towards lower 2d. The programs keep it in a local whose address they never
 * take, which Bamboo's firing rules read like any other local. */
typedef struct jacobi3d_run {
    int iterations;
    MPI_Comm cart;
    struct block g;
    int lo[3], hi[3], len[3];
    MPI_Datatype face[3];
    ptrdiff_t stride[3], first;
} jacobi3d_run;

/* The neighbours and faces along each axis (jacobi3d_run). */
static inline void jacobi3d_faces(jacobi3d_run *r)
{
    const struct block *g = &r->g;
    const int len[3] = {g->nz, g->ny, g->nx};
    const ptrdiff_t stride[3] = {stride_z(g), stride_y(g), 1};
    for (int d = 0; d < 3; d++) {
        MPI_Cart_shift(r->cart, d, 1, &r->lo[d], &r->hi[d]);
        int sizes[3] = {g->nz + 2, g->ny + 2, g->nx + 2}, sub[3] = {g->nz, g->ny, g->nx}, start[3] = {0, 0, 0};
        sub[d] = 1;
        MPI_Type_create_subarray(3, sizes, sub, start, MPI_ORDER_C, MPI_DOUBLE, &r->face[d]);
        MPI_Type_commit(&r->face[d]);
        r->len[d] = len[d];
        r->stride[d] = stride[d];
    }
    r->first = at(g, 1, 1, 1);
}

/* MPI_Init and the set-up from the arguments; ends the program (rank 0 says why) when N is
 * too small for the process grid. */
static inline jacobi3d_run jacobi3d_start(int *argc, char ***argv)
{
    int rank, size;
    app_start(argc, argv, &rank, &size);
    jacobi3d_run r;
    const int n = app_int_arg(*argc, *argv, 1, 64, JACOBI3D_USAGE);
    r.iterations = app_int_arg(*argc, *argv, 2, 50, JACOBI3D_USAGE);
    const int by = app_int_arg(*argc, *argv, 3, 8, JACOBI3D_USAGE);
    const int bz = app_int_arg(*argc, *argv, 4, 4, JACOBI3D_USAGE);

    /* dims[0] splits z, the outermost axis, whose faces are the cheapest to send: MPI_Dims_create
     * puts the largest factor first. */
    int dims[3] = {0, 0, 0}, periods[3] = {0, 0, 0};
    MPI_Dims_create(size, 3, dims);
    if (n < dims[0]) {
        if (rank == 0)
            fprintf(stderr, "jacobi3d: N=%d is too small for a %dx%dx%d process grid\n", n, dims[0], dims[1], dims[2]);
        app_refuse();
    }
    MPI_Cart_create(MPI_COMM_WORLD, 3, dims, periods, 1, &r.cart);
    int me, coords[3];
    MPI_Comm_rank(r.cart, &me);
    MPI_Cart_coords(r.cart, me, 3, coords);

    struct block *g = &r.g;
    *g = (struct block){.n = n, .by = by, .bz = bz};
    split(n, dims[0], coords[0], &g->z0, &g->nz);
    split(n, dims[1], coords[1], &g->y0, &g->ny);
    split(n, dims[2], coords[2], &g->x0, &g->nx);
    jacobi3d_faces(&r);
    return r;
}

/* The two grids u, v and the right-hand side b, filled with the initial guess. */
static inline void jacobi3d_grids(const struct block *g, double **u, double **v, double **b)
{
    *u = malloc(block_cells(g) * sizeof **u);
    *v = malloc(block_cells(g) * sizeof **v);
    *b = malloc(block_cells(g) * sizeof **b);
    if (!*u || !*v || !*b) {
        fprintf(stderr, "jacobi3d: out of memory for a %dx%dx%d block\n", g->nx, g->ny, g->nz);
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    block_init(g, *u, *v, *b);
}

/* Checks sweep `iterations` in u (v holds the one before) against the closed form on every
 * rank; returns the program's exit status (app_verified). */
static inline int jacobi3d_verify(const struct block *g, int iterations, const double *u, const double *v, MPI_Comm cart)
{
    struct measures local = block_measure(g, u, v, iterations), global;
    MPI_Allreduce(&local, &global, 3, MPI_DOUBLE, MPI_MAX, cart);
    char what[160];
    const int passed = verdict(g->n, iterations, &global, what, sizeof what);
    return app_verified(what, passed);
}

/* The end of both programs, after the sweeps that began at `start` (MPI_Wtime): the time,
 * the check of u (v holds the sweep before), the frees, MPI_Finalize. Returns the program's
 * exit status. */
static inline int jacobi3d_finish(jacobi3d_run r, double *u, double *v, double *b, double start)
{
    app_report_time(start);
    const int status = jacobi3d_verify(&r.g, r.iterations, u, v, r.cart);
    for (int d = 0; d < 3; d++)
        MPI_Type_free(&r.face[d]);
    MPI_Comm_free(&r.cart);
    free(u);
    free(v);
    free(b);
    MPI_Finalize();
    return status;
}

#endif
