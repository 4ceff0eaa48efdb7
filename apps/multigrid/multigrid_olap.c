/*
 * multigrid, MPI-olap: multigrid.c (which describes the problem, the solver and its output)
 * restructured by hand to overlap every exchange with computation. Each exchange is split:
 * post the 26 receives and sends, compute the cells that need no ghost value, unpack the
 * messages as they arrive (MPI_Waitany), compute the layer of cells next to the ghosts.
 * Same kernels, and within each colour class the order of updates does not matter, so the
 * results are MPI-basic's, bit for bit.
 *
 *   multigrid_olap [N [CYCLES]]    as multigrid
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

/* The split-phase exchange: start() posts the 26 receives and sends (pack, Isend) of
 * `depth` ghost layers of array `a`; finish() unpacks each message as it arrives; the caller
 * computes what needs no ghost value in between and completes the sends (requests[26..51])
 * once the rest is done, before the buffers are packed again. */
static void exchange_start(const multigrid *mg, const level *L, const double *a, int depth, MPI_Request requests[])
{
    for (int d = 0; d < DIRECTIONS; d++)
        MPI_Irecv(mg->recv[d], mg->capacity[d], MPI_DOUBLE, mg->neighbour[d], DIRECTIONS - 1 - d, mg->grid, &requests[d]);
    for (int d = 0; d < DIRECTIONS; d++) {
        int count = pack(L, a, halo(L->n, d, depth, 0), mg->send[d]);
        MPI_Isend(mg->send[d], count, MPI_DOUBLE, mg->neighbour[d], d, mg->grid, &requests[DIRECTIONS + d]);
    }
}

static void exchange_finish(const multigrid *mg, const level *L, double *a, int depth, MPI_Request requests[])
{
    for (int i = 0; i < DIRECTIONS; i++) {
        int d;
        MPI_Waitany(DIRECTIONS, requests, &d, MPI_STATUS_IGNORE);
        unpack(L, a, halo(L->n, d, depth, 1), mg->recv[d]);
    }
}

/* The cells of the cube [lo, hi)^3 outside the cube [in_lo, in_hi)^3, as at most 6 boxes:
 * two z slabs, two y slabs and two x slabs. */
static int shell(int lo, int hi, int in_lo, int in_hi, range boxes[6])
{
    if (in_hi <= in_lo) {
        boxes[0] = cube(lo, hi);
        return 1;
    }
    boxes[0] = (range){{lo, lo, lo}, {hi, hi, in_lo}};
    boxes[1] = (range){{lo, lo, in_hi}, {hi, hi, hi}};
    boxes[2] = (range){{lo, lo, in_lo}, {hi, in_lo, in_hi}};
    boxes[3] = (range){{lo, in_hi, in_lo}, {hi, hi, in_hi}};
    boxes[4] = (range){{lo, in_lo, in_lo}, {in_lo, in_hi, in_hi}};
    boxes[5] = (range){{in_hi, in_lo, in_lo}, {hi, in_hi, in_hi}};
    return 6;
}

/* MPI-basic's smooth() with each exchange overlapped: the red cells of [1, n-1)^3 read no
 * ghost, the black cells of [2, n-2)^3 read only those red cells, so both go while the
 * messages travel; the red and black cells around them follow the exchange. A red update
 * reads only black cells and the other way round, so this order gives MPI-basic's bits. */
static void smooth(const multigrid *mg, int l, int sweeps, int from_zero)
{
    const level *L = &mg->L[l];
    const int n = L->n;
    range red[6], black[6];
    const int reds = shell(-1, n + 1, 1, n - 1, red), blacks = shell(0, n, 2, n - 2, black);
    MPI_Request requests[2 * DIRECTIONS];
    for (int s = 0; s < sweeps; s++) {
        double *a = s == 0 && from_zero ? L->f : L->u;
        const int depth = s == 0 && from_zero ? 1 : GHOST;
        exchange_start(mg, L, a, depth, requests);
        gsrb_sweep(L, 1, n - 1);
        exchange_finish(mg, L, a, depth, requests);
        for (int b = 0; b < reds; b++)
            gsrb_pass(L, RED, red[b]);
        for (int b = 0; b < blacks; b++)
            gsrb_pass(L, BLACK, black[b]);
        MPI_Waitall(DIRECTIONS, requests + DIRECTIONS, MPI_STATUSES_IGNORE);
    }
}

/* r = f - A u on level l (largest |r| returned), the cells of [1, n-1)^3 during the exchange. */
static double update_residual(const multigrid *mg, int l)
{
    const level *L = &mg->L[l];
    range rest[6];
    const int boxes = shell(0, L->n, 1, L->n - 1, rest);
    MPI_Request requests[2 * DIRECTIONS];
    exchange_start(mg, L, L->u, 1, requests);
    double largest = residual(L, cube(1, L->n - 1));
    exchange_finish(mg, L, L->u, 1, requests);
    for (int b = 0; b < boxes; b++)
        largest = fmax(largest, residual(L, rest[b]));
    MPI_Waitall(DIRECTIONS, requests + DIRECTIONS, MPI_STATUSES_IGNORE);
    return largest;
}

/* u_l += interpolated u_(l+1): the fine cells of [2, n-2)^3 read no coarse ghost, so they go
 * during the exchange of the coarse correction. */
static void correct(const multigrid *mg, int l)
{
    const level *L = &mg->L[l], *coarse = &mg->L[l + 1];
    range rest[6];
    const int boxes = shell(0, L->n, 2, L->n - 2, rest);
    MPI_Request requests[2 * DIRECTIONS];
    exchange_start(mg, coarse, coarse->u, 1, requests);
    interpolate_add(L, coarse, cube(2, L->n - 2), mg->row);
    exchange_finish(mg, coarse, coarse->u, 1, requests);
    for (int b = 0; b < boxes; b++)
        interpolate_add(L, coarse, rest[b], mg->row);
    MPI_Waitall(DIRECTIONS, requests + DIRECTIONS, MPI_STATUSES_IGNORE);
}

static void vcycle(const multigrid *mg)
{
    const int bottom = mg->levels - 1;
    for (int l = 0; l < bottom; l++) {
        smooth(mg, l, PRE_SWEEPS, l > 0);
        update_residual(mg, l);
        restrict_residual(&mg->L[l], &mg->L[l + 1]);
        level_zero_u(&mg->L[l + 1]);
    }
    smooth(mg, bottom, mg->bottom_sweeps, 1);
    for (int l = bottom - 1; l >= 0; l--) {
        correct(mg, l);
        smooth(mg, l, POST_SWEEPS, 0);
    }
}

static double residual_norm(const multigrid *mg)
{
    double mine = update_residual(mg, 0), norm;
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
