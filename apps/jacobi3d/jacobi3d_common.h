/* The MPI set-up and verification of jacobi3d, shared by MPI-basic/Bamboo/nocomm
 * (jacobi3d.c) and MPI-olap (jacobi3d_olap.c) so that both variants run on the same
 * decomposition and face datatypes and are checked alike. What sets them apart, the sweep
 * loop and how it exchanges the faces, stays in each program. */
#ifndef JACOBI3D_COMMON_H
#define JACOBI3D_COMMON_H

#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

#include "app.h"
#include "jacobi3d_kernels.h"

#define JACOBI3D_USAGE "[N [ITERATIONS [BY [BZ]]]]"

/* Reads the arguments and makes the 3D process grid `cart` and this rank's block `g` of it.
 * Returns 0 (rank 0 has said why) when N is too small for the grid; the caller then ends. */
static inline int jacobi3d_setup(int argc, char **argv, int *iterations, MPI_Comm *cart, struct block *g)
{
    const int n = app_int_arg(argc, argv, 1, 64, JACOBI3D_USAGE);
    *iterations = app_int_arg(argc, argv, 2, 50, JACOBI3D_USAGE);
    const int by = app_int_arg(argc, argv, 3, 8, JACOBI3D_USAGE);
    const int bz = app_int_arg(argc, argv, 4, 4, JACOBI3D_USAGE);

    /* dims[0] splits z, the outermost axis, whose faces are the cheapest to send: MPI_Dims_create
     * puts the largest factor first. */
    int size, dims[3] = {0, 0, 0}, periods[3] = {0, 0, 0};
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Dims_create(size, 3, dims);
    if (n < dims[0]) {
        int rank;
        MPI_Comm_rank(MPI_COMM_WORLD, &rank);
        if (rank == 0)
            fprintf(stderr, "jacobi3d: N=%d is too small for a %dx%dx%d process grid\n", n, dims[0], dims[1], dims[2]);
        return 0;
    }
    MPI_Cart_create(MPI_COMM_WORLD, 3, dims, periods, 1, cart);
    int rank, coords[3];
    MPI_Comm_rank(*cart, &rank);
    MPI_Cart_coords(*cart, rank, 3, coords);

    *g = (struct block){.n = n, .by = by, .bz = bz};
    split(n, dims[0], coords[0], &g->z0, &g->nz);
    split(n, dims[1], coords[1], &g->y0, &g->ny);
    split(n, dims[2], coords[2], &g->x0, &g->nx);
    return 1;
}

/* Axis d = 0, 1, 2 is z, y, x: its neighbours (MPI_PROC_NULL at the cube's boundary) and the
 * face datatype of one plane of owned points. */
static inline void jacobi3d_faces(MPI_Comm cart, const struct block *g, int lo[3], int hi[3], MPI_Datatype face[3])
{
    for (int d = 0; d < 3; d++) {
        MPI_Cart_shift(cart, d, 1, &lo[d], &hi[d]);
        int sizes[3] = {g->nz + 2, g->ny + 2, g->nx + 2}, sub[3] = {g->nz, g->ny, g->nx}, start[3] = {0, 0, 0};
        sub[d] = 1;
        MPI_Type_create_subarray(3, sizes, sub, start, MPI_ORDER_C, MPI_DOUBLE, &face[d]);
        MPI_Type_commit(&face[d]);
    }
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

static inline void jacobi3d_free(MPI_Comm *cart, MPI_Datatype face[3], double *u, double *v, double *b)
{
    for (int d = 0; d < 3; d++)
        MPI_Type_free(&face[d]);
    MPI_Comm_free(cart);
    free(u);
    free(v);
    free(b);
}

#endif
