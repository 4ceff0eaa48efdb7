/* The compute kernels of multigrid, shared by MPI-basic/Bamboo (multigrid.c) and MPI-olap
 * (multigrid_olap.c) so that every variant does the same arithmetic on every cell. No MPI.
 *
 * The operator is the 7-point discretisation of  A u = alpha u - lap(u)  on cubic cells of
 * width h. A level is one rank's box of n^3 cells with GHOST layers of ghost cells around
 * it; kernels work on a sub-box (a `range`), so that MPI-olap can do the cells that need no
 * ghost values while the exchange is in flight and the rest afterwards.
 *
 * Red/black: a cell (i,j,k) is red when i+j+k is even. Boxes start at multiples of their
 * (even) size, so local parity is global parity and the colouring does not depend on the
 * decomposition. A red update reads only black cells and vice versa, so the cells of one
 * colour may be updated in any order with the same bits.
 *
 * Every product that meets a sum is an explicit fma(): left to the compiler, contraction
 * differs between a loop's vector body and its scalar remainder (GCC avoids FMA chains on
 * some targets), and MPI-olap, which runs the kernels on other sub-boxes, would round
 * differently from MPI-basic. */
#ifndef MULTIGRID_KERNELS_H
#define MULTIGRID_KERNELS_H

#include <math.h>
#include <stdio.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "compute_model.h"

/* Two ghost layers: one exchange serves a red pass that also updates the first ghost layer
 * and the black pass over the box after it (the communication-avoiding GSRB of miniGMG,
 * which is what makes edge and corner neighbours necessary). */
enum { GHOST = 2, RED = 0, BLACK = 1, DIRECTIONS = 26 };

typedef struct {
    int n;              /* cells per side of the box */
    ptrdiff_t sy, sz;   /* strides of j and k */
    double h2;          /* h^2 */
    double diag;        /* the diagonal of h^2 A: 6 + alpha h^2 */
    double *u, *f, *r;  /* cell (0,0,0) of each array; indices run from -GHOST to n+GHOST-1 */
    double *memory;     /* the three arrays, one allocation */
} level;

typedef struct {
    int lo[3], hi[3];   /* the cells lo <= (i,j,k) < hi */
} range;

static inline range cube(int lo, int hi)
{
    return (range){{lo, lo, lo}, {hi, hi, hi}};
}

static inline size_t level_cells(int n)
{
    size_t side = (size_t)n + 2 * GHOST;
    return side * side * side;
}

/* Sets up level `L` of side n and cell width h in `memory` (3 * level_cells(n) doubles). */
static inline void level_init(level *L, int n, double h, double alpha, double *memory)
{
    const ptrdiff_t side = n + 2 * GHOST, origin = GHOST * (1 + side + side * side);
    const size_t cells = level_cells(n);
    L->n = n;
    L->sy = side;
    L->sz = side * side;
    L->h2 = h * h;
    L->diag = 6.0 + alpha * h * h;
    L->memory = memory;
    L->u = memory + origin;
    L->f = memory + cells + origin;
    L->r = memory + 2 * cells + origin;
    memset(memory, 0, 3 * cells * sizeof *memory);
}

/* u = 0, ghost layers included: the initial guess of a coarse-grid correction. */
static inline void level_zero_u(const level *L)
{
    APP_COMPUTE(level_cells(L->n), "multigrid_zero", L->n)
    memset(L->u - GHOST * (1 + L->sy + L->sz), 0, level_cells(L->n) * sizeof *L->u);
}

/* Direction d (0..25) as a vector of -1/0/+1: the 27 neighbours of a 3x3x3 block in
 * lexicographic order, the centre left out, so that 25 - d is the opposite direction. */
static inline void direction(int d, int v[3])
{
    int full = d < 13 ? d : d + 1;
    v[0] = full / 9 - 1;
    v[1] = full / 3 % 3 - 1;
    v[2] = full % 3 - 1;
}

/* The cells a box sends towards direction d (`ghost` 0), or the ghost cells it receives from
 * there (`ghost` 1), `depth` layers deep. */
static inline range halo(int n, int d, int depth, int ghost)
{
    int v[3];
    direction(d, v);
    range b;
    for (int a = 0; a < 3; a++) {
        if (v[a] == 0) {
            b.lo[a] = 0;
            b.hi[a] = n;
        } else if (v[a] < 0) {
            b.lo[a] = ghost ? -depth : 0;
            b.hi[a] = b.lo[a] + depth;
        } else {
            b.lo[a] = ghost ? n : n - depth;
            b.hi[a] = b.lo[a] + depth;
        }
    }
    return b;
}

static inline int range_cells(range b)
{
    return (b.hi[0] - b.lo[0]) * (b.hi[1] - b.lo[1]) * (b.hi[2] - b.lo[2]);
}

/* Copies the cells of `b` of array `a` into `buffer` (pack) or back (unpack); returns the
 * number of values. */
static inline int pack(const level *L, const double *restrict a, range b, double *restrict buffer)
{
    const int len = b.hi[0] - b.lo[0];
    double *out = buffer;
    APP_COMPUTE(range_cells(b), "multigrid_pack", L->n, len, b.hi[1] - b.lo[1], b.hi[2] - b.lo[2])
    for (int k = b.lo[2]; k < b.hi[2]; k++)
        for (int j = b.lo[1]; j < b.hi[1]; j++, out += len)
            memcpy(out, a + b.lo[0] + j * L->sy + k * L->sz, len * sizeof *out);
    return (int)(out - buffer);
}

static inline void unpack(const level *L, double *restrict a, range b, const double *restrict buffer)
{
    const int len = b.hi[0] - b.lo[0];
    APP_COMPUTE(range_cells(b), "multigrid_unpack", L->n, len, b.hi[1] - b.lo[1], b.hi[2] - b.lo[2])
    for (int k = b.lo[2]; k < b.hi[2]; k++)
        for (int j = b.lo[1]; j < b.hi[1]; j++, buffer += len)
            memcpy(a + b.lo[0] + j * L->sy + k * L->sz, buffer, len * sizeof *buffer);
}

/* One colour of Gauss-Seidel on the cells of plane k of `b`: each solves its own row of
 * A u = f. */
static inline void gsrb_plane(const level *L, int colour, range b, int k)
{
    const ptrdiff_t sy = L->sy, sz = L->sz;
    const double h2 = L->h2, inv = 1.0 / L->diag;
    APP_COMPUTE((b.hi[0] - b.lo[0]) * (b.hi[1] - b.lo[1]) / 2, "multigrid_gsrb", L->n, b.hi[0] - b.lo[0], b.hi[1] - b.lo[1])
    for (int j = b.lo[1]; j < b.hi[1]; j++) {
        double *restrict u = L->u + j * sy + k * sz;
        const double *restrict f = L->f + j * sy + k * sz;
        /* i & 1 of a negative i is still its parity (two's complement) */
        for (int i = b.lo[0] + ((b.lo[0] + j + k + colour) & 1); i < b.hi[0]; i += 2)
            u[i] = fma(h2, f[i], u[i - 1] + u[i + 1] + u[i - sy] + u[i + sy] + u[i - sz] + u[i + sz]) * inv;
    }
}

static inline void gsrb_pass(const level *L, int colour, range b)
{
    for (int k = b.lo[2]; k < b.hi[2]; k++)
        gsrb_plane(L, colour, b, k);
}

/* A red pass over [lo, hi)^3, then a black pass over [lo+1, hi-1)^3, in one sweep through
 * memory: black plane k-1 follows red plane k, once the three red planes it reads are done
 * and while they are still in cache. Red plane k reads no black plane beyond k-2, the last
 * one updated, so the result is that of the two passes. */
static inline void gsrb_sweep(const level *L, int lo, int hi)
{
    const range red = cube(lo, hi), black = cube(lo + 1, hi - 1);
    for (int k = lo; k <= hi; k++) {
        if (k < hi)
            gsrb_plane(L, RED, red, k);
        if (k - 1 >= lo + 1 && k - 1 < hi - 1)
            gsrb_plane(L, BLACK, black, k - 1);
    }
}

/* r = f - A u on the cells of `b`; returns the largest |r| there. */
static inline double residual(const level *L, range b)
{
    const ptrdiff_t sy = L->sy, sz = L->sz;
    const double inv_h2 = 1.0 / L->h2, diag = L->diag;
    double largest = 0.0;
    APP_COMPUTE(range_cells(b), "multigrid_residual", L->n, b.hi[0] - b.lo[0], b.hi[1] - b.lo[1], b.hi[2] - b.lo[2])
    for (int k = b.lo[2]; k < b.hi[2]; k++)
        for (int j = b.lo[1]; j < b.hi[1]; j++) {
            const double *restrict u = L->u + j * sy + k * sz;
            const double *restrict f = L->f + j * sy + k * sz;
            double *restrict r = L->r + j * sy + k * sz;
            for (int i = b.lo[0]; i < b.hi[0]; i++) {
                double neighbours = u[i - 1] + u[i + 1] + u[i - sy] + u[i + sy] + u[i - sz] + u[i + sz];
                r[i] = fma(-inv_h2, fma(diag, u[i], -neighbours), f[i]);
                largest = fmax(largest, fabs(r[i]));
            }
        }
    return largest;
}

/* The coarse right-hand side: the average of the 8 fine residuals of each coarse cell. */
static inline void restrict_residual(const level *fine, const level *coarse)
{
    const ptrdiff_t sy = fine->sy, sz = fine->sz;
    const int n = coarse->n;
    APP_COMPUTE(n * n * n, "multigrid_restrict", n)
    for (int k = 0; k < n; k++)
        for (int j = 0; j < n; j++) {
            const double *restrict r0 = fine->r + 2 * j * sy + 2 * k * sz, *restrict r1 = r0 + sy;
            const double *restrict r2 = r0 + sz, *restrict r3 = r0 + sy + sz;
            double *restrict f = coarse->f + j * coarse->sy + k * coarse->sz;
            for (int i = 0; i < n; i++)
                f[i] = 0.125 * ((r0[2 * i] + r0[2 * i + 1]) + (r1[2 * i] + r1[2 * i + 1]) +
                                (r2[2 * i] + r2[2 * i + 1]) + (r3[2 * i] + r3[2 * i + 1]));
        }
}

/* u_fine += trilinear interpolation of u_coarse on the fine cells of `b`. A fine cell lies a
 * quarter of a coarse cell from its parent's centre along each axis, so it takes 3/4 of the
 * parent and 1/4 of the parent's neighbour on its side, per axis: the y-z weights are
 * applied first into `row` (a coarse row with one ghost cell each side, n_coarse+2 doubles),
 * then x. Reads the first ghost layer of u_coarse, edges and corners included. */
static inline void interpolate_add(const level *fine, const level *coarse, range b, double *restrict row)
{
    const ptrdiff_t csy = coarse->sy, csz = coarse->sz;
    const int ilo = (b.lo[0] >> 1) - 1, ihi = ((b.hi[0] - 1) >> 1) + 2;
    double *restrict a = row + 1;   /* a[I] for I from -1 */
    APP_COMPUTE(range_cells(b), "multigrid_interpolate", fine->n, b.hi[0] - b.lo[0], b.hi[1] - b.lo[1], b.hi[2] - b.lo[2])
    for (int k = b.lo[2]; k < b.hi[2]; k++)
        for (int j = b.lo[1]; j < b.hi[1]; j++) {
            const double *restrict c0 = coarse->u + (j >> 1) * csy + (k >> 1) * csz;
            const ptrdiff_t dy = (j & 1) ? csy : -csy, dz = (k & 1) ? csz : -csz;
            for (int I = ilo; I < ihi; I++)
                a[I] = fma(0.0625, c0[I + dy + dz], fma(0.1875, c0[I + dy] + c0[I + dz], 0.5625 * c0[I]));
            double *restrict u = fine->u + j * fine->sy + k * fine->sz;
            for (int i = b.lo[0]; i < b.hi[0]; i++)
                u[i] += fma(0.25, a[(i >> 1) + ((i & 1) ? 1 : -1)], 0.75 * a[i >> 1]);
        }
}

/* The manufactured solution u*: three separable smooth modes plus a little deterministic
 * noise (for the high frequencies), a function of the global cell index only, so that every
 * rank computes the same bits for a cell. Per axis sin(k t) or cos(k t), t = 2 pi (g + 1/2) / N. */
enum { MODES = 3 };

static inline double noise(uint64_t z)
{
    z += 0x9e3779b97f4a7c15ull; /* splitmix64 */
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    z ^= z >> 31;
    return (double)(z >> 11) * 0x1.0p-53 - 0.5;
}

/* u* on the cells of `b` of a box whose cell (0,0,0) is global cell `origin`, in a periodic
 * domain of `cells` cells per axis, written to `out` (an array shaped like L's).
 * `table` is scratch of 3 * MODES * (n + 2 GHOST) doubles. */
static inline void exact_solution(const level *L, range b, const long origin[3], const long cells[3],
                                  double *restrict out, double *restrict table)
{
    const double mode_weight[MODES] = {1.0, 0.5, 0.25};
    const int mode_frequency[MODES][3] = {{1, 1, 1}, {2, 3, 1}, {5, 4, 2}};
    const int mode_cosine[MODES][3] = {{0, 0, 0}, {1, 0, 1}, {0, 1, 0}};
    const int side = L->n + 2 * GHOST;
    double *factor[3][MODES];
    for (int a = 0; a < 3; a++)
        for (int m = 0; m < MODES; m++) {
            factor[a][m] = table + (a * MODES + m) * side + GHOST;
            for (int i = b.lo[a]; i < b.hi[a]; i++) {
                long g = ((origin[a] + i) % cells[a] + cells[a]) % cells[a];
                double t = 6.283185307179586 * ((double)g + 0.5) / (double)cells[a]; /* 2 pi */
                double x = mode_frequency[m][a] * t;
                factor[a][m][i] = mode_cosine[m][a] ? cos(x) : sin(x);
            }
        }
    for (int k = b.lo[2]; k < b.hi[2]; k++)
        for (int j = b.lo[1]; j < b.hi[1]; j++) {
            double *restrict row = out + j * L->sy + k * L->sz;
            long gk = ((origin[2] + k) % cells[2] + cells[2]) % cells[2];
            long gj = ((origin[1] + j) % cells[1] + cells[1]) % cells[1];
            for (int i = b.lo[0]; i < b.hi[0]; i++) {
                long gi = ((origin[0] + i) % cells[0] + cells[0]) % cells[0];
                double v = 0.0;
                for (int m = 0; m < MODES; m++)
                    v += mode_weight[m] * factor[0][m][i] * factor[1][m][j] * factor[2][m][k];
                row[i] = v + 0.0625 * noise(((uint64_t)gk * cells[1] + gj) * cells[0] + gi);
            }
        }
}

/* The right-hand side f = A u* on the box and its first ghost layer (the red pass reads it
 * there), computed from u* written to L->r. */
static inline void manufacture(const level *L, const long origin[3], const long cells[3], double *table)
{
    const ptrdiff_t sy = L->sy, sz = L->sz;
    const int n = L->n;
    exact_solution(L, cube(-GHOST, n + GHOST), origin, cells, L->r, table);
    for (int k = -1; k <= n; k++)
        for (int j = -1; j <= n; j++) {
            const double *restrict u = L->r + j * sy + k * sz;
            double *restrict f = L->f + j * sy + k * sz;
            for (int i = -1; i <= n; i++)
                f[i] = (L->diag * u[i] - (u[i - 1] + u[i + 1] + u[i - sy] + u[i + sy] + u[i - sz] + u[i + sz])) / L->h2;
        }
}

/* max |u - u*| over the box (overwrites L->r). */
static inline double solution_error(const level *L, const long origin[3], const long cells[3], double *table)
{
    const int n = L->n;
    exact_solution(L, cube(0, n), origin, cells, L->r, table);
    double largest = 0.0;
    for (int k = 0; k < n; k++)
        for (int j = 0; j < n; j++)
            for (int i = 0; i < n; i++) {
                ptrdiff_t c = i + j * L->sy + k * L->sz;
                largest = fmax(largest, fabs(L->u[c] - L->r[c]));
            }
    return largest;
}

/* The sum of r^2 over the box. */
static inline double residual_squares(const level *L)
{
    double sum = 0.0;
    for (int k = 0; k < L->n; k++)
        for (int j = 0; j < L->n; j++) {
            const double *restrict r = L->r + j * L->sy + k * L->sz;
            for (int i = 0; i < L->n; i++)
                sum = fma(r[i], r[i], sum);
        }
    return sum;
}

/* The check of a solve: the residual max-norms norm[0..cycles] (norm[0] that of the initial
 * guess) must fall by the factor `reduction` per cycle until they are below `rounding`
 * times norm[0], and max |u - u*| = `error` must be what the residual allows:
 * A is diagonally dominant with every row summing to alpha, so in max-norms
 * |u - u*| <= |A (u - u*)| / alpha = |residual| / alpha (plus rounding). NaNs fail every
 * comparison. Appends the values to `what` and returns whether they pass; `rms`, the final
 * residual's root mean square, is only printed: unlike a max-norm, it changes with any cell. */
static inline int verdict(const double *norm, int cycles, double rms, double error, double alpha, double reduction,
                          double rounding, char *what)
{
    char *end = what + strlen(what);
    double worst = 0.0, small = rounding * norm[0];
    int passed = error <= (norm[cycles] + small) / alpha;
    end += sprintf(end, " residual=");
    for (int c = 0; c <= cycles; c++) {
        end += sprintf(end, "%s%.12e", c ? "," : "", norm[c]);
        if (c == 0)
            continue;
        double ratio = norm[c] / norm[c - 1];
        if (norm[c - 1] > small)
            worst = ratio > worst ? ratio : worst;
        if (!(ratio <= reduction || norm[c] <= small))
            passed = 0;
    }
    sprintf(end, " factor=%.4f rms=%.12e error=%.6e", worst, rms, error);
    return passed;
}

#endif
