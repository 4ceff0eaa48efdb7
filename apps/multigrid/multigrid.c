/*
 * multigrid: geometric multigrid V-cycles for the periodic Helmholtz problem
 *     alpha u - lap(u) = f,  alpha = 40,
 * after miniGMG (seed 001 section 4.2): cell-centred 7-point operator, Gauss-Seidel red/black
 * smoothing with two ghost layers (one exchange per red/black sweep, with all 26 neighbours),
 * 8-cell average restriction, trilinear interpolation, V-cycles truncated when a rank's box
 * has 4^3 cells, where many GSRB sweeps are the bottom solver.
 *
 *   multigrid [N [CYCLES]]    N^3 cells per rank (N a power of two >= 8), CYCLES V-cycles
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
#include <math.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "app.h"
#include "multigrid_kernels.h"

#define USAGE "[N: cells per rank and side, a power of two >= 8] [CYCLES]"

enum { PRE_SWEEPS = 2, POST_SWEEPS = 2, BOTTOM_SIDE = 4 };
/* Periodic -lap(u) alone is singular (constants); alpha ~ 4 pi^2, the smallest non-zero
 * eigenvalue of -lap on the unit cube, makes the constant error as easy for the bottom
 * GSRB as the smoothest oscillating one, and bounds the error by the residual (verdict()). */
static const double ALPHA = 40.0;
static const double REDUCTION = 0.2;  /* each cycle must reduce the residual at least 5x ... */
static const double ROUNDING = 1e-9;  /* ... until it is this small relative to the first */

typedef struct {
    MPI_Comm grid;
    int dims[3], coords[3];
    int neighbour[DIRECTIONS];       /* rank of the grid in direction d (direction()) */
    int levels, bottom_sweeps;
    level *L;                        /* L[0] finest, L[levels - 1] the bottom */
    double *send[DIRECTIONS], *recv[DIRECTIONS];  /* sized for the finest level, GHOST deep: */
    int capacity[DIRECTIONS];                     /* the most any exchange sends that way */
    double *row;                     /* scratch of interpolate_add */
} multigrid;

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

static double residual_norm(const multigrid *mg)
{
    const level *L = &mg->L[0];
    exchange(mg, L, L->u, 1);
    double mine = residual(L, cube(0, L->n)), norm;
    MPI_Allreduce(&mine, &norm, 1, MPI_DOUBLE, MPI_MAX, mg->grid);
    return norm;
}

/* The sum of every rank's `mine`, added on one rank in the order of the grid coordinates:
 * the same bits however MPI numbers the grid (reorder) or orders a reduction. */
static double ordered_sum(const multigrid *mg, double mine)
{
    int size, rank;
    MPI_Comm_size(mg->grid, &size);
    MPI_Comm_rank(mg->grid, &rank);
    double *all = rank == 0 ? calloc(size, sizeof *all) : NULL, total = 0.0;
    MPI_Gather(&mine, 1, MPI_DOUBLE, all, 1, MPI_DOUBLE, 0, mg->grid);
    if (rank == 0) {
        int c[3], from;
        for (c[0] = 0; c[0] < mg->dims[0]; c[0]++)
            for (c[1] = 0; c[1] < mg->dims[1]; c[1]++)
                for (c[2] = 0; c[2] < mg->dims[2]; c[2]++) {
                    MPI_Cart_rank(mg->grid, c, &from);
                    total += all[from];
                }
        free(all);
    }
    MPI_Bcast(&total, 1, MPI_DOUBLE, 0, mg->grid);
    return total;
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    const int n = app_int_arg(argc, argv, 1, 32, USAGE);
    const int cycles = app_int_arg(argc, argv, 2, 8, USAGE);
    if (n < 2 * BOTTOM_SIDE || (n & (n - 1)) != 0 || cycles > 100) {
        fprintf(stderr, "usage: %s %s\n", argv[0], USAGE);
        exit(2);
    }

    multigrid mg = {.dims = {0, 0, 0}};
    int size, rank, periods[3] = {1, 1, 1};
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Dims_create(size, 3, mg.dims);
    MPI_Cart_create(MPI_COMM_WORLD, 3, mg.dims, periods, 1, &mg.grid);
    MPI_Comm_rank(mg.grid, &rank);
    MPI_Cart_coords(mg.grid, rank, 3, mg.coords);
    for (int d = 0; d < DIRECTIONS; d++) {
        int v[3], c[3];
        direction(d, v);
        for (int a = 0; a < 3; a++)
            c[a] = (mg.coords[a] + v[a] + mg.dims[a]) % mg.dims[a];
        MPI_Cart_rank(mg.grid, c, &mg.neighbour[d]);
    }

    long cells[3], origin[3], widest = 0;
    for (int a = 0; a < 3; a++) {
        cells[a] = (long)mg.dims[a] * n;
        origin[a] = (long)mg.coords[a] * n;
        widest = cells[a] > widest ? cells[a] : widest;
    }
    /* A red/black sweep on the bottom grid (m cells along its widest axis) reduces its
     * smoothest periodic error by about e^(-4 pi^2 / 3 m^2) and the constant error by about
     * e^(-alpha h^2 / 3) = e^(-alpha / 3 m^2): with alpha ~ 4 pi^2, m^2 / 2 sweeps reduce
     * both ~1000x, enough for the V-cycle to converge as if the bottom solve were exact. */
    const long bottom_widest = widest / n * BOTTOM_SIDE;
    mg.bottom_sweeps = (int)(bottom_widest * bottom_widest / 2 > 20 ? bottom_widest * bottom_widest / 2 : 20);
    for (int m = n; m >= BOTTOM_SIDE; m /= 2)
        mg.levels++;
    mg.L = malloc(mg.levels * sizeof *mg.L);
    for (int l = 0; l < mg.levels; l++) {
        int m = n >> l;
        level_init(&mg.L[l], m, (double)(1 << l) / (double)widest, ALPHA, malloc(3 * level_cells(m) * sizeof(double)));
    }
    size_t halo_values = 0, offset[DIRECTIONS];
    for (int d = 0; d < DIRECTIONS; d++) {
        offset[d] = halo_values;
        mg.capacity[d] = range_cells(halo(n, d, GHOST, 0));
        halo_values += mg.capacity[d];
    }
    double *buffers = malloc(2 * halo_values * sizeof *buffers);
    for (int d = 0; d < DIRECTIONS; d++) {
        mg.send[d] = buffers + offset[d];
        mg.recv[d] = buffers + halo_values + offset[d];
    }
    mg.row = malloc((n + 2) * sizeof *mg.row);
    double *table = malloc(3 * MODES * (n + 2 * GHOST) * sizeof *table);
    manufacture(&mg.L[0], origin, cells, table);

    double *norm = malloc((cycles + 1) * sizeof *norm);
    norm[0] = residual_norm(&mg);
    MPI_Barrier(MPI_COMM_WORLD);
    double start = MPI_Wtime();
    for (int c = 1; c <= cycles; c++) {
        vcycle(&mg);
        norm[c] = residual_norm(&mg);
    }
    app_report_time(start);

    /* L[0].r is the last residual; solution_error() overwrites it */
    const double rms = sqrt(ordered_sum(&mg, residual_squares(&mg.L[0])) / ((double)cells[0] * cells[1] * cells[2]));
    double error, mine = solution_error(&mg.L[0], origin, cells, table);
    MPI_Allreduce(&mine, &error, 1, MPI_DOUBLE, MPI_MAX, mg.grid);
    char *what = malloc(256 + 24 * (cycles + 1));
    sprintf(what, "multigrid n=%d cycles=%d grid=%dx%dx%d levels=%d bottom_sweeps=%d", n, cycles, mg.dims[0], mg.dims[1],
            mg.dims[2], mg.levels, mg.bottom_sweeps);
    int passed = verdict(norm, cycles, rms, error, ALPHA, REDUCTION, ROUNDING, what);
    int status = app_verified(what, passed);

    free(what);
    free(norm);
    free(table);
    free(mg.row);
    free(buffers);
    for (int l = 0; l < mg.levels; l++)
        free(mg.L[l].memory);
    free(mg.L);
    MPI_Comm_free(&mg.grid);
    MPI_Finalize();
    return status;
}
