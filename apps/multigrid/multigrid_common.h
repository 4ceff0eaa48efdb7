/* The MPI code of multigrid that MPI-basic/Bamboo/nocomm (multigrid.c) and MPI-olap
 * (multigrid_olap.c) share unchanged: the solver's parameters and state, the set-up (process
 * grid, neighbours, levels, halo buffers, the manufactured problem), the check, and the run
 * of both programs (multigrid_run). What sets them apart, how an exchange overlaps (or not)
 * with the smoothing, the residual and the interpolation, stays in each program. */
#ifndef MULTIGRID_COMMON_H
#define MULTIGRID_COMMON_H

#include <math.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "app.h"
#include "multigrid_kernels.h"

#define MULTIGRID_USAGE                                                                       \
    "[N: cells per rank and side, a power of two >= 2 BOTTOM] [CYCLES] [BOTTOM: the box side " \
    "where the V-cycle stops, a power of two >= 2, default 4]"

enum { PRE_SWEEPS = 2, POST_SWEEPS = 2 };
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

/* The problem beside the solver's state: its size, where this rank's box lies in the global
 * grid, and what the check needs besides the solution. */
typedef struct {
    int n, cycles;
    long cells[3], origin[3];  /* the global grid's cells per axis, this box's first cell */
    double *table;             /* manufacture()'s, read again by solution_error() */
    double *norm;              /* the residual max-norm before the first cycle and after each */
    double *buffers;           /* the halo buffers mg->send and mg->recv point into */
} problem;

/* Reads N and CYCLES, makes the periodic process grid and every level of the solver, and
 * manufactures f for the known solution; u starts at 0. */
static void multigrid_setup(int argc, char **argv, multigrid *mg, problem *pb)
{
    const int n = app_int_arg(argc, argv, 1, 32, MULTIGRID_USAGE);
    const int cycles = app_int_arg(argc, argv, 2, 8, MULTIGRID_USAGE);
    /* Where the V-cycle stops is a box side, so it depends on how the problem is split:
     * with each box split into 8 (twice the ranks along each axis), BOTTOM / 2 gives the
     * same levels, bottom grid and bottom sweeps, hence the same results. */
    const int bottom = app_int_arg(argc, argv, 3, 4, MULTIGRID_USAGE);
    if (bottom < 2 || (bottom & (bottom - 1)) != 0 || n < 2 * bottom || (n & (n - 1)) != 0 || cycles > 100) {
        fprintf(stderr, "usage: %s %s\n", argv[0], MULTIGRID_USAGE);
        exit(2);
    }
    *pb = (problem){.n = n, .cycles = cycles};

    *mg = (multigrid){.dims = {0, 0, 0}};
    int size, rank, periods[3] = {1, 1, 1};
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Dims_create(size, 3, mg->dims);
    MPI_Cart_create(MPI_COMM_WORLD, 3, mg->dims, periods, 1, &mg->grid);
    MPI_Comm_rank(mg->grid, &rank);
    MPI_Cart_coords(mg->grid, rank, 3, mg->coords);
    for (int d = 0; d < DIRECTIONS; d++) {
        int v[3], c[3];
        direction(d, v);
        for (int a = 0; a < 3; a++)
            c[a] = (mg->coords[a] + v[a] + mg->dims[a]) % mg->dims[a];
        MPI_Cart_rank(mg->grid, c, &mg->neighbour[d]);
    }

    long widest = 0;
    for (int a = 0; a < 3; a++) {
        pb->cells[a] = (long)mg->dims[a] * n;
        pb->origin[a] = (long)mg->coords[a] * n;
        widest = pb->cells[a] > widest ? pb->cells[a] : widest;
    }
    /* A red/black sweep on the bottom grid (m cells along its widest axis) reduces its
     * smoothest periodic error by about e^(-4 pi^2 / 3 m^2) and the constant error by about
     * e^(-alpha h^2 / 3) = e^(-alpha / 3 m^2): with alpha ~ 4 pi^2, m^2 / 2 sweeps reduce
     * both ~1000x, enough for the V-cycle to converge as if the bottom solve were exact. */
    const long bottom_widest = widest / n * bottom;
    mg->bottom_sweeps = (int)(bottom_widest * bottom_widest / 2 > 20 ? bottom_widest * bottom_widest / 2 : 20);
    for (int m = n; m >= bottom; m /= 2)
        mg->levels++;
    mg->L = malloc(mg->levels * sizeof *mg->L);
    for (int l = 0; l < mg->levels; l++) {
        int m = n >> l;
        level_init(&mg->L[l], m, (double)(1 << l) / (double)widest, ALPHA, malloc(3 * level_cells(m) * sizeof(double)));
    }
    size_t halo_values = 0, offset[DIRECTIONS];
    for (int d = 0; d < DIRECTIONS; d++) {
        offset[d] = halo_values;
        mg->capacity[d] = range_cells(halo(n, d, GHOST, 0));
        halo_values += mg->capacity[d];
    }
    pb->buffers = malloc(2 * halo_values * sizeof *pb->buffers);
    for (int d = 0; d < DIRECTIONS; d++) {
        mg->send[d] = pb->buffers + offset[d];
        mg->recv[d] = pb->buffers + halo_values + offset[d];
    }
    mg->row = malloc((n + 2) * sizeof *mg->row);
    pb->table = malloc(3 * MODES * (n + 2 * GHOST) * sizeof *pb->table);
    manufacture(&mg->L[0], pb->origin, pb->cells, pb->table);
    pb->norm = malloc((cycles + 1) * sizeof *pb->norm);
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

/* Checks the solution and the residual norms and prints the verification line; returns the
 * program's exit status (app_verified). */
static int multigrid_verify(const multigrid *mg, const problem *pb)
{
    const long *cells = pb->cells;
    /* L[0].r is the last residual; solution_error() overwrites it */
    const double rms = sqrt(ordered_sum(mg, residual_squares(&mg->L[0])) / ((double)cells[0] * cells[1] * cells[2]));
    double error, mine = solution_error(&mg->L[0], pb->origin, cells, pb->table);
    MPI_Allreduce(&mine, &error, 1, MPI_DOUBLE, MPI_MAX, mg->grid);
    char *what = malloc(256 + 24 * (pb->cycles + 1));
    sprintf(what, "multigrid n=%d cycles=%d grid=%dx%dx%d levels=%d bottom_sweeps=%d", pb->n, pb->cycles, mg->dims[0],
            mg->dims[1], mg->dims[2], mg->levels, mg->bottom_sweeps);
    int passed = verdict(pb->norm, pb->cycles, rms, error, ALPHA, REDUCTION, ROUNDING, what);
    int status = app_verified(what, passed);
    free(what);
    return status;
}

static void multigrid_free(multigrid *mg, problem *pb)
{
    free(pb->norm);
    free(pb->table);
    free(mg->row);
    free(pb->buffers);
    for (int l = 0; l < mg->levels; l++)
        free(mg->L[l].memory);
    free(mg->L);
    MPI_Comm_free(&mg->grid);
}

/* The whole of both programs: MPI_Init, the set-up, CYCLES V-cycles (timed) with the
 * residual's max-norm before the first and after each, the check, the frees, MPI_Finalize.
 * `vcycle` does one V-cycle and `largest_residual` returns this rank's largest |f - A u| on
 * the finest level: each program has its own, which is what sets the two apart. Returns the
 * program's exit status. */
static int multigrid_run(int *argc, char ***argv, void (*vcycle)(const multigrid *),
                         double (*largest_residual)(const multigrid *))
{
    MPI_Init(argc, argv);
    multigrid mg;
    problem pb;
    multigrid_setup(*argc, *argv, &mg, &pb);
    double mine = largest_residual(&mg);
    MPI_Allreduce(&mine, &pb.norm[0], 1, MPI_DOUBLE, MPI_MAX, mg.grid);
    MPI_Barrier(MPI_COMM_WORLD);
    double start = MPI_Wtime();
    for (int c = 1; c <= pb.cycles; c++) {
        vcycle(&mg);
        mine = largest_residual(&mg);
        MPI_Allreduce(&mine, &pb.norm[c], 1, MPI_DOUBLE, MPI_MAX, mg.grid);
    }
    app_report_time(start);

    const int status = multigrid_verify(&mg, &pb);
    multigrid_free(&mg, &pb);
    MPI_Finalize();
    return status;
}

#endif
