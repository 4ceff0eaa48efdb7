/*
 * jacobi3d, MPI-olap: jacobi3d.c restructured by hand to overlap the ghost exchange with the
 * sweep (split-phase). Each sweep posts the six face receives and sends, updates the interior
 * points, which read no ghost cell, while the faces travel, waits for the ghosts and then
 * updates the boundary shell. (The paper's MPI-olap pipelines 2x2x2 sub-blocks instead; the
 * interior/boundary split is the usual expert form and needs no second decomposition.)
 *
 *   jacobi3d_olap [N [ITERATIONS [BY [BZ]]]]
 *
 * Same kernel (jacobi3d_kernels.h), decomposition and verification (jacobi3d_common.h) as
 * jacobi3d.c, so the same values to the last bit.
 */
#include <mpi.h>

#include "app.h"
#include "jacobi3d_common.h"
#include "jacobi3d_kernels.h"

int main(int argc, char **argv)
{
    const jacobi3d_run r = jacobi3d_start(&argc, &argv);
    const struct block *g = &r.g;
    /* The interior [a[d], e[d]) along axis d leaves out the planes next to a neighbour: those
     * read its ghosts. Along an edge of the cube the boundary is fixed and nothing waits. */
    int a[3], e[3];
    for (int d = 0; d < 3; d++) {
        a[d] = 1 + (r.lo[d] != MPI_PROC_NULL);
        e[d] = r.len[d] + 1 - (r.hi[d] != MPI_PROC_NULL);
        if (e[d] < a[d])
            e[d] = a[d];
    }
    double *u, *v, *b;
    jacobi3d_grids(g, &u, &v, &b);

    /* requests[0..5]: ghost receives, [6..11]: face sends. */
    MPI_Request requests[12];
    MPI_Barrier(r.cart);
    const double start = MPI_Wtime();
    for (int it = 0; it < r.iterations; it++) {
        for (int d = 0; d < 3; d++) {
            MPI_Irecv(u + r.first - r.stride[d], 1, r.face[d], r.lo[d], 2 * d + 1, r.cart, &requests[2 * d]);
            MPI_Irecv(u + r.first + r.len[d] * r.stride[d], 1, r.face[d], r.hi[d], 2 * d, r.cart, &requests[2 * d + 1]);
        }
        for (int d = 0; d < 3; d++) {
            MPI_Isend(u + r.first, 1, r.face[d], r.lo[d], 2 * d, r.cart, &requests[6 + 2 * d]);
            MPI_Isend(u + r.first + (r.len[d] - 1) * r.stride[d], 1, r.face[d], r.hi[d], 2 * d + 1, r.cart, &requests[6 + 2 * d + 1]);
        }

        /* MPI moves a large (rendezvous) message only inside MPI calls: test between slabs of
         * the interior so the faces travel while it is swept, not all in the wait below. */
        int arrived = 0;
        for (int k = a[0]; k < e[0]; k += g->bz) {
            const int k1 = k + g->bz < e[0] ? k + g->bz : e[0];
            sweep_box(g, v, u, b, k, k1, a[1], e[1], a[2], e[2]);
            if (!arrived)
                MPI_Testall(12, requests, &arrived, MPI_STATUSES_IGNORE);
        }
        MPI_Waitall(6, requests, MPI_STATUSES_IGNORE);

        /* The shell: z slabs whole, y slabs between them, x slabs inside both. */
        sweep_box(g, v, u, b, 1, a[0], 1, g->ny + 1, 1, g->nx + 1);
        sweep_box(g, v, u, b, e[0], g->nz + 1, 1, g->ny + 1, 1, g->nx + 1);
        sweep_box(g, v, u, b, a[0], e[0], 1, a[1], 1, g->nx + 1);
        sweep_box(g, v, u, b, a[0], e[0], e[1], g->ny + 1, 1, g->nx + 1);
        sweep_box(g, v, u, b, a[0], e[0], a[1], e[1], 1, a[2]);
        sweep_box(g, v, u, b, a[0], e[0], a[1], e[1], e[2], g->nx + 1);

        /* The next sweep writes into u: its faces must have left. */
        MPI_Waitall(6, requests + 6, MPI_STATUSES_IGNORE);
        double *t = u;
        u = v;
        v = t;
    }
    return jacobi3d_finish(r, u, v, b, start);
}
