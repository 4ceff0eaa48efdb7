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
    const jacobi3d_run r = jacobi3d_start(&argc, &argv);
    /* a copy for the kernels, which take it by address: r's address stays untaken */
    struct block g = r.g;
    double *u, *v, *b;
    jacobi3d_grids(&g, &u, &v, &b);

    MPI_Request sends[6];
    MPI_Barrier(r.cart);
    const double start = MPI_Wtime();
#pragma bamboo dimension 3
#pragma bamboo olap layout NN X Y Z
    for (int it = 0; it < r.iterations; it++) {
#pragma bamboo send
        for (int d = 0; d < 3; d++) {
            MPI_Isend(u + r.first, 1, r.face[d], r.lo[d], 2 * d, r.cart, &sends[2 * d]);
            MPI_Isend(u + r.first + (r.len[d] - 1) * r.stride[d], 1, r.face[d], r.hi[d], 2 * d + 1, r.cart,
                      &sends[2 * d + 1]);
        }
#pragma bamboo receive
        for (int d = 0; d < 3; d++) {
            MPI_Recv(u + r.first - r.stride[d], 1, r.face[d], r.lo[d], 2 * d + 1, r.cart, MPI_STATUS_IGNORE);
            MPI_Recv(u + r.first + r.len[d] * r.stride[d], 1, r.face[d], r.hi[d], 2 * d, r.cart, MPI_STATUS_IGNORE);
        }
        MPI_Waitall(6, sends, MPI_STATUSES_IGNORE);
        sweep(&g, v, u, b);
        double *t = u;
        u = v;
        v = t;
    }
    return jacobi3d_finish(r, u, v, b, start);
}
