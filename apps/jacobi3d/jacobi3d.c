/*
 * jacobi3d: Poisson's equation lap(u) = f on the unit cube with Dirichlet boundary, solved by
 * Jacobi sweeps of the 7-point scheme (seed 000 SV-B, seed 002 SII-B). The N^3 grid is split
 * into blocks over a 3D process grid; every sweep first refreshes the one-point ghost layer
 * of the six faces from the neighbours.
 *
 *   jacobi3d [N [ITERATIONS [BY [BZ]]]]     (N^3 interior points; BY x BZ: cache block)
 *
 * MPI-basic (bulk-synchronous: send the faces, receive them, sweep), annotated for Bamboo;
 * compiled with -include nocomm.h it is MPI-nocomm. The computation is in jacobi3d_kernels.h,
 * the set-up and verification it shares with jacobi3d_olap.c in jacobi3d_common.h.
 */
#include <mpi.h>

#include "app.h"
#include "jacobi3d_common.h"
#include "jacobi3d_kernels.h"

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int iterations;
    MPI_Comm cart;
    struct block g;
    if (!jacobi3d_setup(argc, argv, &iterations, &cart, &g)) {
        MPI_Finalize();
        return 2;
    }
    int lo[3], hi[3];
    MPI_Datatype face[3];
    jacobi3d_faces(cart, &g, lo, hi, face);
    /* A message travelling towards higher coordinates along axis d has tag 2d+1, towards
     * lower 2d; faces are addressed from the first owned point, planes stride[d] apart. */
    const ptrdiff_t stride[3] = {stride_z(&g), stride_y(&g), 1};
    const int len[3] = {g.nz, g.ny, g.nx};
    const ptrdiff_t first = at(&g, 1, 1, 1);
    double *u, *v, *b;
    jacobi3d_grids(&g, &u, &v, &b);

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

    const int status = jacobi3d_verify(&g, iterations, u, v, cart);
    jacobi3d_free(&cart, face, u, v, b);
    MPI_Finalize();
    return status;
}
