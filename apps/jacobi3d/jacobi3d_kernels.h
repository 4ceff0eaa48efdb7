/* The computation of jacobi3d, shared by MPI-basic/Bamboo/nocomm (jacobi3d.c) and MPI-olap
 * (jacobi3d_olap.c) so that every variant updates every point with the same arithmetic.
 * No MPI in here.
 *
 * The problem: lap(u) = f on the unit cube, u = exact() on its boundary, N interior points
 * per axis, h = 1/(N+1). exact() is a polynomial of degree <= 3 in each variable, for which
 * the 7-point scheme is exact, so the discrete solution is exact() itself. The initial guess
 * is exact() plus A*s(x)s(y)s(z), s(t) = sin(pi t), an eigenvector of the Jacobi iteration
 * with eigenvalue cos(pi h): after k sweeps every point holds
 *
 *     exact(x,y,z) + A * cos(pi h)^k * s(x) s(y) s(z)
 *
 * up to rounding, which is what the programs check, point by point, at any N.
 *
 * A rank's block: nx x ny x nz points with one ghost layer on each side, x contiguous:
 * point (k, j, i), 0 <= k <= nz+1 etc., is at ((k*(ny+2) + j)*(nx+2) + i). */
#ifndef JACOBI3D_KERNELS_H
#define JACOBI3D_KERNELS_H

#include <math.h>
#include <stddef.h>
#include <stdio.h>

#include "compute_model.h"

#define JACOBI3D_AMPLITUDE 1.0
/* Pointwise distance from the closed form above that still passes. Rounding in a sweep is a
 * few ulps of |u| <= 3; the iteration contracts, so after any number of sweeps it adds up to
 * at most ~1e-15 / (1 - cos(pi h)), below 1e-10 up to N = 1000. A stale or misplaced ghost
 * cell is off by the order of a sweep's update, A*cos(pi h)^k*(1 - cos(pi h)) ~ 5/N^2 while
 * k << N^2, far above. */
#define JACOBI3D_TOLERANCE 1e-9

struct block {
    int nx, ny, nz;       /* owned points per axis */
    int x0, y0, z0;       /* global index of the first owned point (1-based: 0 is the boundary) */
    int n;                /* global interior points per axis */
    int by, bz;           /* cache block: rows (y) x planes (z) */
};

static inline ptrdiff_t stride_y(const struct block *g) { return g->nx + 2; }
static inline ptrdiff_t stride_z(const struct block *g) { return (ptrdiff_t)(g->nx + 2) * (g->ny + 2); }
static inline size_t block_cells(const struct block *g) { return (size_t)stride_z(g) * (g->nz + 2); }
static inline ptrdiff_t at(const struct block *g, int k, int j, int i)
{
    return k * stride_z(g) + j * stride_y(g) + i;
}

static inline double exact(double x, double y, double z)
{
    return x * x * x + y * y * z - 2.0 * x * z * z * z;
}

static inline double rhs(double x, double y, double z)  /* lap(exact) */
{
    (void)y;
    return 6.0 * x + 2.0 * z - 12.0 * x * z;
}

/* Fills u and v (ghost layers included: the boundary of the cube stays fixed in both, the
 * ghost layers facing other ranks are overwritten before they are read) and b = h^2 f. */
static inline void block_init(const struct block *g, double *u, double *v, double *b)
{
    const double h = 1.0 / (g->n + 1);
    double sx[g->nx + 2];  /* the mode along x, zero on the boundary of the cube */
    for (int i = 0; i <= g->nx + 1; i++) {
        const int gi = g->x0 - 1 + i;
        sx[i] = gi == 0 || gi == g->n + 1 ? 0.0 : sin(M_PI * gi * h);
    }
    for (int k = 0; k <= g->nz + 1; k++) {
        const int gk = g->z0 - 1 + k;
        const double z = gk * h;
        for (int j = 0; j <= g->ny + 1; j++) {
            const int gj = g->y0 - 1 + j;
            const double y = gj * h;
            const int boundary = gj == 0 || gk == 0 || gj == g->n + 1 || gk == g->n + 1;
            const double syz = boundary ? 0.0 : JACOBI3D_AMPLITUDE * sin(M_PI * y) * sin(M_PI * z);
            for (int i = 0; i <= g->nx + 1; i++) {
                const double x = (g->x0 - 1 + i) * h;
                const ptrdiff_t p = at(g, k, j, i);
                u[p] = v[p] = exact(x, y, z) + sx[i] * syz;
                b[p] = h * h * rhs(x, y, z);
            }
        }
    }
}

/* One Jacobi sweep over the box [k0,k1) x [j0,j1) x [i0,i1) of owned points, in tiles of bz
 * planes x by rows: the (bz+2) x (by+2) rows of u a tile reads stay in cache while it is
 * swept, and the next tile along y finds most of them there. x, the contiguous axis, is
 * never cut, so the inner loop streams and vectorizes. The sum has one fixed order and no
 * multiply-add to contract: every variant, at every decomposition, gets the same bits at
 * every point. */
static inline void sweep_box(const struct block *g, double *restrict v, const double *restrict u,
                             const double *restrict b, int k0, int k1, int j0, int j1, int i0, int i1)
{
    const ptrdiff_t sy = stride_y(g), sz = stride_z(g);
    const double sixth = 1.0 / 6.0;
    if (i0 >= i1 || j0 >= j1 || k0 >= k1)
        return;
    APP_COMPUTE((double)(k1 - k0) * (j1 - j0) * (i1 - i0), "jacobi3d_sweep")
    for (int kb = k0; kb < k1; kb += g->bz) {
        const int ke = kb + g->bz < k1 ? kb + g->bz : k1;
        for (int jb = j0; jb < j1; jb += g->by) {
            const int je = jb + g->by < j1 ? jb + g->by : j1;
            for (int k = kb; k < ke; k++)
                for (int j = jb; j < je; j++) {
                    const ptrdiff_t row = at(g, k, j, 0);
                    const double *restrict c = u + row;
                    const double *restrict r = b + row;
                    double *restrict w = v + row;
                    for (int i = i0; i < i1; i++)
                        w[i] = (((c[i - 1] + c[i + 1]) + (c[i - sy] + c[i + sy])) + (c[i - sz] + c[i + sz]) - r[i]) * sixth;
                }
        }
    }
}

/* A whole sweep of the owned points. */
static inline void sweep(const struct block *g, double *v, const double *u, const double *b)
{
    sweep_box(g, v, u, b, 1, g->nz + 1, 1, g->ny + 1, 1, g->nx + 1);
}

/* What rank-local part of the check the programs reduce with MPI_MAX (exact, so every
 * decomposition and every reduction order gives the same bits). */
struct measures {
    double deviation;   /* max |u - closed form|: rounding only */
    double error;       /* max |u - exact|: the mode that is left */
    double update;      /* max |u - previous|: the last sweep's change */
};

/* u after `sweeps` sweeps, `previous` the one before. */
static inline struct measures block_measure(const struct block *g, const double *u, const double *previous,
                                            int sweeps)
{
    const double h = 1.0 / (g->n + 1);
    const double mode = JACOBI3D_AMPLITUDE * pow(cos(M_PI * h), sweeps);
    struct measures m = {0.0, 0.0, 0.0};
    double sx[g->nx + 1];
    for (int i = 1; i <= g->nx; i++)
        sx[i] = sin(M_PI * (g->x0 - 1 + i) * h);
    for (int k = 1; k <= g->nz; k++) {
        const double z = (g->z0 - 1 + k) * h;
        for (int j = 1; j <= g->ny; j++) {
            const double y = (g->y0 - 1 + j) * h;
            const double syz = mode * sin(M_PI * y) * sin(M_PI * z);
            for (int i = 1; i <= g->nx; i++) {
                const double x = (g->x0 - 1 + i) * h;
                const ptrdiff_t p = at(g, k, j, i);
                const double e = u[p] - exact(x, y, z);
                m.deviation = fmax(m.deviation, fabs(e - sx[i] * syz));
                m.error = fmax(m.error, fabs(e));
                m.update = fmax(m.update, fabs(u[p] - previous[p]));
            }
        }
    }
    return m;
}

/* The closed form of error and update: A cos(pi h)^k max s(x)s(y)s(z), and the same for
 * k-1 times 1 - cos(pi h) (written 2 sin^2(pi h/2), which does not cancel); s peaks at the
 * grid point nearest to 1/2 on each axis. */
static inline void closed_form(int n, int sweeps, double *error, double *update)
{
    const double h = 1.0 / (n + 1), lambda = cos(M_PI * h), half = sin(0.5 * M_PI * h);
    const double peak = sin(M_PI * ((n + 1) / 2) * h);
    const double s3 = peak * peak * peak;
    *error = JACOBI3D_AMPLITUDE * pow(lambda, sweeps) * s3;
    *update = JACOBI3D_AMPLITUDE * pow(lambda, sweeps - 1) * 2.0 * half * half * s3;
}

/* The verification line's parameters and values in `what`, and whether they pass: every
 * point within JACOBI3D_TOLERANCE of the closed form (the maximum over all ranks in
 * m->deviation), and the last update as the closed form says. */
static inline int verdict(int n, int sweeps, const struct measures *m, char *what, size_t size)
{
    double error, update;
    closed_form(n, sweeps, &error, &update);
    snprintf(what, size, "jacobi3d N=%d iterations=%d error=%.6e (closed form %.6e) update=%.6e",
             n, sweeps, m->error, error, m->update);
    return m->deviation <= JACOBI3D_TOLERANCE && fabs(m->update - update) <= 1e-6 * update + 2 * JACOBI3D_TOLERANCE;
}

/* First index (1-based) and length of part `p` of `n` points split into `parts` nearly
 * equal parts: the first n % parts parts get one point more. */
static inline void split(int n, int parts, int p, int *first, int *len)
{
    *len = n / parts + (p < n % parts);
    *first = 1 + p * (n / parts) + (p < n % parts ? p : n % parts);
}

#endif
