/*
 * multigrid, MPI-olap: multigrid.c (which describes the problem, the solver and its output)
 * restructured by hand to overlap every exchange with computation. Each exchange is split:
 * post the 26 receives and sends, compute the cells that need no ghost value, unpack the
 * messages as they arrive (MPI_Waitany), compute the layer of cells next to the ghosts.
 * Same kernels, set-up and check (multigrid_kernels.h, multigrid_common.h), and within each
 * colour class the order of updates does not matter, so the results are MPI-basic's, bit
 * for bit.
 *
 *   multigrid_olap [N [CYCLES [BOTTOM]]]    as multigrid
 */
#include <math.h>
#include <mpi.h>

#include "app.h"
#include "multigrid_common.h"
#include "multigrid_kernels.h"

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

/* This rank's largest |f - A u| on the finest level, computed during the exchange. */
static double largest_residual(const multigrid *mg)
{
    return update_residual(mg, 0);
}

int main(int argc, char **argv)
{
    return multigrid_run(&argc, &argv, vcycle, largest_residual);
}
