#include <stdlib.h>
#include <string.h>

#include "calibrate.h"
#include "multigrid_kernels.h"

/* multigrid_*: a level of side n (and a coarse one of n / 2, for interpolation; a fine one
 * of 2 n, for restriction), and the extents of the box of cells the kernel works on, from
 * the level's first cell (multigrid_kernels.h). */
enum multigrid_kernel { MG_ZERO, MG_PACK, MG_UNPACK, MG_GSRB, MG_RESIDUAL, MG_RESTRICT, MG_INTERPOLATE };

struct multigrid_case {
    enum multigrid_kernel kernel;
    level L, other;
    range b;
    double *buffer, *row;
};

static void run_multigrid(void *data)
{
    struct multigrid_case *c = data;
    switch (c->kernel) {
    case MG_ZERO: level_zero_u(&c->L); break;
    case MG_PACK: pack(&c->L, c->L.u, c->b, c->buffer); break;
    case MG_UNPACK: unpack(&c->L, c->L.u, c->b, c->buffer); break;
    case MG_GSRB: gsrb_plane(&c->L, RED, c->b, 0); break;
    case MG_RESIDUAL: residual(&c->L, c->b); break;
    case MG_RESTRICT: restrict_residual(&c->other, &c->L); break;
    case MG_INTERPOLATE: interpolate_add(&c->L, &c->other, c->b, c->row); break;
    }
}

static double *new_level(level *L, int n)
{
    size_t cells = 3 * level_cells(n);
    double *memory = malloc(cells * sizeof *memory);
    if (!memory)
        abort();
    for (size_t i = 0; i < cells; i++)
        memory[i] = 1.0 + 1e-3 * (double)(i % 101);
    level_init(L, n, 1.0 / n, 1.0, memory);
    return memory;
}

/* The work units as the kernel's APP_COMPUTE counts them. */
static double multigrid_cost(enum multigrid_kernel kernel, const int *shape, int count)
{
    const int wanted[] = {[MG_ZERO] = 1, [MG_PACK] = 4, [MG_UNPACK] = 4, [MG_GSRB] = 3, [MG_RESIDUAL] = 4,
                          [MG_RESTRICT] = 1, [MG_INTERPOLATE] = 4};
    if (count != wanted[kernel] || shape[0] < 1)
        return -1;
    struct multigrid_case c = {.kernel = kernel};
    int n = shape[0];
    double *memory = new_level(&c.L, n), *other = NULL;
    if (kernel == MG_RESTRICT)
        other = new_level(&c.other, 2 * n);
    if (kernel == MG_INTERPOLATE)
        other = new_level(&c.other, n / 2 > 0 ? n / 2 : 1);
    c.b = (range){{0, 0, 0}, {count > 1 ? shape[1] : n, count > 2 ? shape[2] : n, count > 3 ? shape[3] : 1}};
    c.buffer = malloc(level_cells(n) * sizeof *c.buffer);
    c.row = malloc(((size_t)n + 4) * sizeof *c.row);
    if (!c.buffer || !c.row)
        abort();
    memset(c.buffer, 0, level_cells(n) * sizeof *c.buffer);
    double work = kernel == MG_ZERO ? (double)level_cells(n)
                  : kernel == MG_RESTRICT ? (double)n * n * n
                  : kernel == MG_GSRB ? (double)(shape[1] * shape[2] / 2)
                  : (double)range_cells(c.b);
    double seconds = work > 0 ? median_run(run_multigrid, &c) / work : -1;
    free(memory);
    free(other);
    free(c.buffer);
    free(c.row);
    return seconds;
}

double multigrid_zero_cost(const int *s, int n) { return multigrid_cost(MG_ZERO, s, n); }
double multigrid_pack_cost(const int *s, int n) { return multigrid_cost(MG_PACK, s, n); }
double multigrid_unpack_cost(const int *s, int n) { return multigrid_cost(MG_UNPACK, s, n); }
double multigrid_gsrb_cost(const int *s, int n) { return multigrid_cost(MG_GSRB, s, n); }
double multigrid_residual_cost(const int *s, int n) { return multigrid_cost(MG_RESIDUAL, s, n); }
double multigrid_restrict_cost(const int *s, int n) { return multigrid_cost(MG_RESTRICT, s, n); }
double multigrid_interpolate_cost(const int *s, int n) { return multigrid_cost(MG_INTERPOLATE, s, n); }

