/*
 * multigrid: geometric multigrid V-cycles for the periodic Helmholtz problem
 *     alpha u - lap(u) = f,  alpha = 40,
 * after miniGMG (seed 001 section 4.2): cell-centred 7-point operator, Gauss-Seidel red/black
 * smoothing with two ghost layers (one exchange per red/black sweep, with all 26 neighbours),
 * 8-cell average restriction, trilinear interpolation, V-cycles truncated when a rank's box
 * has BOTTOM^3 cells (4^3 by default), where many GSRB sweeps are the bottom solver.
 *
 *   multigrid [N [CYCLES [BOTTOM]]]    N^3 cells per rank (N a power of two >= 2 BOTTOM),
 *                                      CYCLES V-cycles
 *
 * The ranks form a periodic 3D grid (MPI_Dims_create); cells are cubes of side
 * h = 1 / (largest number of cells along an axis). f = A u* for a known u* (the kernels
 * header), so the discrete solution is u* itself. Rank 0 prints the residual max-norm after
 * each cycle, the worst reduction factor, the final residual's root mean square and
 * max |u - u*|: max-norms by MPI_MAX (exact), the sum of squares added in the order of the
 * grid coordinates, so that the line has the same bits under any MPI (and Bamboo).
 *
 * This file is MPI-basic (mpicc), Bamboo (bamboocc) and MPI-nocomm (-include nocomm.h);
 * multigrid_olap.c is the same solver with the exchanges overlapped by hand.
 */
#include <mpi.h>

#include "app.h"
#include "multigrid_common.h"
#include "multigrid_kernels.h"

#pragma bamboo dimension 3

/* Refreshes `depth` ghost layers of array `a` of level L, faces, edges and corners, from the
 * 26 neighbours: one message each way per direction, tagged with the sender's direction. */
static void exchange(const multigrid *mg, const level *L, double *a, int depth)
{
    MPI_Request sends[DIRECTIONS];
#pragma bamboo olap layout NearestNeighbor X Y Z
    {
#pragma bamboo send
        {
            for (int d = 0; d < DIRECTIONS; d++) {
                int count = pack(L, a, halo(L->n, d, depth, 0), mg->send[d]);
                MPI_Isend(mg->send[d], count, MPI_DOUBLE, mg->neighbour[d], d, mg->grid, &sends[d]);
            }
        }
#pragma bamboo receive
        {
            for (int d = 0; d < DIRECTIONS; d++)
                MPI_Recv(mg->recv[d], mg->capacity[d], MPI_DOUBLE, mg->neighbour[d], DIRECTIONS - 1 - d, mg->grid,
                         MPI_STATUS_IGNORE);
            for (int d = 0; d < DIRECTIONS; d++)
                unpack(L, a, halo(L->n, d, depth, 1), mg->recv[d]);
        }
        MPI_Waitall(DIRECTIONS, sends, MPI_STATUSES_IGNORE);
    }
}

/* `sweeps` red/black sweeps on level l, each after an exchange. The red pass also updates
 * the first ghost layer (exactly as its owner does), so the black pass after it sees current
 * red values all round. Starting from u = 0 (`from_zero`), ghosts included, the first
 * exchange fetches instead the first ghost layer of f, which those red ghost updates read. */
static void smooth(const multigrid *mg, int l, int sweeps, int from_zero)
{
    const level *L = &mg->L[l];
    for (int s = 0; s < sweeps; s++) {
        if (s == 0 && from_zero)
            exchange(mg, L, L->f, 1);
        else
            exchange(mg, L, L->u, GHOST);
        gsrb_sweep(L, -1, L->n + 1);
    }
}

static void vcycle(const multigrid *mg)
{
    const int bottom = mg->levels - 1;
    for (int l = 0; l < bottom; l++) {
        const level *L = &mg->L[l], *coarse = &mg->L[l + 1];
        smooth(mg, l, PRE_SWEEPS, l > 0);
        exchange(mg, L, L->u, 1);
        residual(L, cube(0, L->n));
        restrict_residual(L, coarse);
        level_zero_u(coarse);
    }
    smooth(mg, bottom, mg->bottom_sweeps, 1);
    for (int l = bottom - 1; l >= 0; l--) {
        const level *L = &mg->L[l], *coarse = &mg->L[l + 1];
        exchange(mg, coarse, coarse->u, 1);
        interpolate_add(L, coarse, cube(0, L->n), mg->row);
        smooth(mg, l, POST_SWEEPS, 0);
    }
}

/* This rank's largest |f - A u| on the finest level, its ghosts refreshed first. */
static double largest_residual(const multigrid *mg)
{
    const level *L = &mg->L[0];
    exchange(mg, L, L->u, 1);
    return residual(L, cube(0, L->n));
}

int main(int argc, char **argv)
{
    return multigrid_run(&argc, &argv, vcycle, largest_residual);
}
