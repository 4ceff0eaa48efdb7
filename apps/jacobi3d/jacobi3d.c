/*
 * jacobi3d: Poisson's equation lap(u) = f on the unit cube with Dirichlet boundary, solved by
 * Jacobi sweeps of the 7-point scheme (seed 000 SV-B, seed 002 SII-B). The N^3 grid is split
 * into blocks over a 3D process grid; every sweep first refreshes the one-point ghost layer
 * of the six faces from the neighbours.
 *
 *   jacobi3d [N [ITERATIONS [BY [BZ]]]]     (N^3 interior points; BY x BZ: cache block)
 *
 * MPI-basic (bulk-synchronous: send the faces, receive them, sweep), annotated for Bamboo;
 * compiled with -include nocomm.h it is MPI-nocomm. The computation is in jacobi3d_kernels.h.
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

#include "app.h"
#include "jacobi3d_kernels.h"

#define USAGE "[N [ITERATIONS [BY [BZ]]]]"

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    const int n = app_int_arg(argc, argv, 1, 64, USAGE);
    const int iterations = app_int_arg(argc, argv, 2, 50, USAGE);
    const int by = app_int_arg(argc, argv, 3, 8, USAGE);
    const int bz = app_int_arg(argc, argv, 4, 4, USAGE);

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
        MPI_Finalize();
        return 2;
    }
    MPI_Comm cart;
    MPI_Cart_create(MPI_COMM_WORLD, 3, dims, periods, 1, &cart);
    int rank, coords[3];
    MPI_Comm_rank(cart, &rank);
    MPI_Cart_coords(cart, rank, 3, coords);

    struct block g = {.n = n, .by = by, .bz = bz};
    split(n, dims[0], coords[0], &g.z0, &g.nz);
    split(n, dims[1], coords[1], &g.y0, &g.ny);
    split(n, dims[2], coords[2], &g.x0, &g.nx);

    /* Axis d = 0, 1, 2 is z, y, x: its neighbours (MPI_PROC_NULL at the cube's boundary), the
     * stride between its planes and the face datatype of one plane of owned points. */
    int lo[3], hi[3];
    const ptrdiff_t stride[3] = {stride_z(&g), stride_y(&g), 1};
    const int len[3] = {g.nz, g.ny, g.nx};
    MPI_Datatype face[3];
    for (int d = 0; d < 3; d++) {
        MPI_Cart_shift(cart, d, 1, &lo[d], &hi[d]);
        int sizes[3] = {g.nz + 2, g.ny + 2, g.nx + 2}, sub[3] = {g.nz, g.ny, g.nx}, start[3] = {0, 0, 0};
        sub[d] = 1;
        MPI_Type_create_subarray(3, sizes, sub, start, MPI_ORDER_C, MPI_DOUBLE, &face[d]);
        MPI_Type_commit(&face[d]);
    }
    /* A message travelling towards higher coordinates along axis d has tag 2d+1, towards
     * lower 2d; faces are addressed from the first owned point. */
    const ptrdiff_t first = at(&g, 1, 1, 1);

    double *u = malloc(block_cells(&g) * sizeof *u);
    double *v = malloc(block_cells(&g) * sizeof *v);
    double *b = malloc(block_cells(&g) * sizeof *b);
    if (!u || !v || !b) {
        fprintf(stderr, "jacobi3d: out of memory for a %dx%dx%d block\n", g.nx, g.ny, g.nz);
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    block_init(&g, u, v, b);

    MPI_Request sends[6];
    MPI_Barrier(cart);
    const double start = MPI_Wtime();
#pragma bamboo dimension 3
#pragma bamboo olap layout NN X Y Z
    for (int it = 0; it < iterations; it++) {
#pragma bamboo send
        for (int d = 0; d < 3; d++) {
            MPI_Isend(u + first, 1, face[d], lo[d], 2 * d, cart, &sends[2 * d]);
            MPI_Isend(u + first + (len[d] - 1) * stride[d], 1, face[d], hi[d], 2 * d + 1, cart, &sends[2 * d + 1]);
        }
#pragma bamboo receive
        for (int d = 0; d < 3; d++) {
            MPI_Recv(u + first - stride[d], 1, face[d], lo[d], 2 * d + 1, cart, MPI_STATUS_IGNORE);
            MPI_Recv(u + first + len[d] * stride[d], 1, face[d], hi[d], 2 * d, cart, MPI_STATUS_IGNORE);
        }
        MPI_Waitall(6, sends, MPI_STATUSES_IGNORE);
        sweep(&g, v, u, b);
        double *t = u;
        u = v;
        v = t;
    }
    app_report_time(start);

    /* u holds sweep `iterations`, v the one before. */
    struct measures local = block_measure(&g, u, v, iterations), global;
    MPI_Allreduce(&local, &global, 3, MPI_DOUBLE, MPI_MAX, cart);
    char what[160];
    const int passed = verdict(n, iterations, &global, what, sizeof what);
    const int status = app_verified(what, passed);

    for (int d = 0; d < 3; d++)
        MPI_Type_free(&face[d]);
    MPI_Comm_free(&cart);
    free(u);
    free(v);
    free(b);
    MPI_Finalize();
    return status;
}
