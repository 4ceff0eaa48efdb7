/*
 * jacobi3d, MPI-olap: jacobi3d.c restructured by hand to overlap the ghost exchange with the
 * sweep (split-phase). Each sweep posts the six face receives and sends, updates the interior
 * points, which read no ghost cell, while the faces travel, waits for the ghosts and then
 * updates the boundary shell. (The paper's MPI-olap pipelines 2x2x2 sub-blocks instead; the
 * interior/boundary split is the usual expert form and needs no second decomposition.)
 *
 *   jacobi3d_olap [N [ITERATIONS [BY [BZ]]]]
 *
 * Same kernel (jacobi3d_kernels.h), decomposition and verification as jacobi3d.c, so the
 * same values to the last bit.
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

    int lo[3], hi[3];
    const ptrdiff_t stride[3] = {stride_z(&g), stride_y(&g), 1};
    const int len[3] = {g.nz, g.ny, g.nx};
    MPI_Datatype face[3];
    /* The interior [a[d], e[d]) along axis d leaves out the planes next to a neighbour: those
     * read its ghosts. Along an edge of the cube the boundary is fixed and nothing waits. */
    int a[3], e[3];
    for (int d = 0; d < 3; d++) {
        MPI_Cart_shift(cart, d, 1, &lo[d], &hi[d]);
        int sizes[3] = {g.nz + 2, g.ny + 2, g.nx + 2}, sub[3] = {g.nz, g.ny, g.nx}, start[3] = {0, 0, 0};
        sub[d] = 1;
        MPI_Type_create_subarray(3, sizes, sub, start, MPI_ORDER_C, MPI_DOUBLE, &face[d]);
        MPI_Type_commit(&face[d]);
        a[d] = 1 + (lo[d] != MPI_PROC_NULL);
        e[d] = len[d] + 1 - (hi[d] != MPI_PROC_NULL);
        if (e[d] < a[d])
            e[d] = a[d];
    }
    const ptrdiff_t first = at(&g, 1, 1, 1);

    double *u = malloc(block_cells(&g) * sizeof *u);
    double *v = malloc(block_cells(&g) * sizeof *v);
    double *b = malloc(block_cells(&g) * sizeof *b);
    if (!u || !v || !b) {
        fprintf(stderr, "jacobi3d: out of memory for a %dx%dx%d block\n", g.nx, g.ny, g.nz);
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    block_init(&g, u, v, b);

    /* requests[0..5]: ghost receives, [6..11]: face sends. */
    MPI_Request requests[12];
    MPI_Barrier(cart);
    const double start = MPI_Wtime();
    for (int it = 0; it < iterations; it++) {
        for (int d = 0; d < 3; d++) {
            MPI_Irecv(u + first - stride[d], 1, face[d], lo[d], 2 * d + 1, cart, &requests[2 * d]);
            MPI_Irecv(u + first + len[d] * stride[d], 1, face[d], hi[d], 2 * d, cart, &requests[2 * d + 1]);
        }
        for (int d = 0; d < 3; d++) {
            MPI_Isend(u + first, 1, face[d], lo[d], 2 * d, cart, &requests[6 + 2 * d]);
            MPI_Isend(u + first + (len[d] - 1) * stride[d], 1, face[d], hi[d], 2 * d + 1, cart, &requests[6 + 2 * d + 1]);
        }

        /* MPI moves a large (rendezvous) message only inside MPI calls: test between slabs of
         * the interior so the faces travel while it is swept, not all in the wait below. */
        int arrived = 0;
        for (int k = a[0]; k < e[0]; k += g.bz) {
            const int k1 = k + g.bz < e[0] ? k + g.bz : e[0];
            sweep_box(&g, v, u, b, k, k1, a[1], e[1], a[2], e[2]);
            if (!arrived)
                MPI_Testall(12, requests, &arrived, MPI_STATUSES_IGNORE);
        }
        MPI_Waitall(6, requests, MPI_STATUSES_IGNORE);

        /* The shell: z slabs whole, y slabs between them, x slabs inside both. */
        sweep_box(&g, v, u, b, 1, a[0], 1, g.ny + 1, 1, g.nx + 1);
        sweep_box(&g, v, u, b, e[0], g.nz + 1, 1, g.ny + 1, 1, g.nx + 1);
        sweep_box(&g, v, u, b, a[0], e[0], 1, a[1], 1, g.nx + 1);
        sweep_box(&g, v, u, b, a[0], e[0], e[1], g.ny + 1, 1, g.nx + 1);
        sweep_box(&g, v, u, b, a[0], e[0], a[1], e[1], 1, a[2]);
        sweep_box(&g, v, u, b, a[0], e[0], a[1], e[1], e[2], g.nx + 1);

        /* The next sweep writes into u: its faces must have left. */
        MPI_Waitall(6, requests + 6, MPI_STATUSES_IGNORE);
        double *t = u;
        u = v;
        v = t;
    }
    app_report_time(start);

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
