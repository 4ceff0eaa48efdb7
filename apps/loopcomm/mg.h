/* MG: the smoother of NAS MG's multigrid cycle on one level: Jacobi sweeps of the 7-point
 * Laplacian, -Δu = f, on an nx × ny × nz grid with zero (Dirichlet) boundaries, and the
 * exchange of ghost planes between neighbours before every sweep.
 *
 * Distribution: along y, the middle dimension: PE q owns planes y = q*nyl .. (q+1)*nyl - 1
 * (ny a multiple of the PE count). Its array u holds nz × (nyl + 2) × nx doubles,
 *     u[(k*(nyl+2) + j)*nx + i],   j = 0 and j = nyl+1 the ghost planes,
 * so a y-face is nz rows of nx contiguous doubles, (nyl+2)*nx apart. The ghost planes of the
 * first and last PE's outer side stay 0 (the boundary). The KERNEL_*.c file has the exchange
 * (mg_exchange); everything else is here.
 *
 * Timed: `iterations` sweeps from u = 0, each an exchange and a sweep. Verified: PE 0 runs the
 * same sweeps serially on the whole grid, gathers every PE's planes and compares (relative to
 * max |u|, tolerance 1e-12). Elements per iteration: nx*ny*nz. */
#ifndef LC_MG_H
#define LC_MG_H

#include "lc_common.h"

#define MG_USAGE "[nx (default 128)] [ny (default 64, a multiple of the PEs)] [nz (default 128)] " \
                 "[iterations (default 50)]"

typedef struct mg_problem {
    long nx, ny, nz, iterations;
    lc_world *world;   /* lc_init's */
    int me, npes;
    long nyl;      /* planes per PE */
    double *f;     /* this PE's right-hand side, nz × nyl × nx */
    double *next;  /* the sweep's result, nz × nyl × nx */
} mg_problem;

/* u's element count on every PE. */
static inline long mg_local_size(const mg_problem *pr)
{
    return pr->nz * (pr->nyl + 2) * pr->nx;
}

static inline double mg_f(const mg_problem *pr, long k, long y, long i)
{
    return lc_uniform(7, (uint64_t)((k * pr->ny + y) * pr->nx + i));
}

static void mg_setup(mg_problem *pr, lc_world *world, int argc, char **argv)
{
    pr->world = world;
    pr->nx = lc_arg(argc, argv, 1, 128, MG_USAGE);
    pr->ny = lc_arg(argc, argv, 2, 64, MG_USAGE);
    pr->nz = lc_arg(argc, argv, 3, 128, MG_USAGE);
    pr->iterations = lc_arg(argc, argv, 4, 50, MG_USAGE);
    pr->me = shmem_my_pe();
    pr->npes = shmem_n_pes();
    if (pr->ny % pr->npes != 0)
        lc_refuse("MG needs ny a multiple of the number of PEs");
    if (pr->nx * pr->ny * pr->nz > (1L << 28))
        lc_refuse("MG grid too large");
    pr->nyl = pr->ny / pr->npes;
    long interior = pr->nz * pr->nyl * pr->nx;
    pr->f = lc_malloc(interior * sizeof(double));
    pr->next = lc_malloc(interior * sizeof(double));
    for (long k = 0; k < pr->nz; k++)
        for (long j = 0; j < pr->nyl; j++)
            for (long i = 0; i < pr->nx; i++)
                pr->f[(k * pr->nyl + j) * pr->nx + i] = mg_f(pr, k, pr->me * pr->nyl + j, i);
}

/* One Jacobi sweep on a block of `planes` y-planes between two ghost planes (the layout of u
 * above, with nyl = planes): next = (the 6 neighbours + h^2 f) / 6, h = 1; then u = next. The
 * serial reference calls it on the whole grid (planes = ny, both ghost planes 0). */
static void mg_sweep(long nx, long planes, long nz, double *u, const double *f, double *next)
{
    const long sy = nx, sz = (planes + 2) * nx;
    for (long k = 0; k < nz; k++)
        for (long j = 1; j <= planes; j++) {
            const double *c = u + (k * (planes + 2) + j) * nx;
            const double *fr = f + (k * planes + j - 1) * nx;
            double *out = next + (k * planes + j - 1) * nx;
            for (long i = 0; i < nx; i++) {
                double s = c[i - sy] + c[i + sy];
                s += i > 0 ? c[i - 1] : 0.0;
                s += i < nx - 1 ? c[i + 1] : 0.0;
                s += k > 0 ? c[i - sz] : 0.0;
                s += k < nz - 1 ? c[i + sz] : 0.0;
                out[i] = (s + fr[i]) * (1.0 / 6.0);
            }
        }
    for (long k = 0; k < nz; k++)
        memcpy(u + (k * (planes + 2) + 1) * nx, next + k * planes * nx, planes * nx * sizeof(double));
}

/* The kernel: `iterations` times exchange(pr) (puts this PE's outer planes into the
 * neighbours' ghost planes), a barrier, and a sweep. `u` is symmetric. */
static int mg_main(mg_problem *pr, double *u, void (*exchange)(const mg_problem *))
{
    long nx = pr->nx, ny = pr->ny, nz = pr->nz, nyl = pr->nyl;
    memset(u, 0, mg_local_size(pr) * sizeof(double));
    shmem_barrier_all();

    double start = lc_now();
    for (long it = 0; it < pr->iterations; it++) {
        exchange(pr);
        shmem_barrier_all();   /* the ghost planes complete (a barrier completes the puts) */
        mg_sweep(nx, nyl, nz, u, pr->f, pr->next);
        shmem_barrier_all();   /* no neighbour overwrites a ghost plane this sweep still reads */
    }
    double seconds = lc_now() - start;

    /* PE 0: the serial sweeps, and every PE's planes gathered (in bulk) to compare */
    double err = 0.0, umax = 0.0;
    if (pr->me == 0) {
        double *us = calloc(nz * (ny + 2) * nx, sizeof(double));
        double *fs = lc_malloc(nz * ny * nx * sizeof(double)), *ns = lc_malloc(nz * ny * nx * sizeof(double));
        double *got = lc_malloc(nyl * nx * sizeof(double));
        for (long k = 0; k < nz; k++)
            for (long y = 0; y < ny; y++)
                for (long i = 0; i < nx; i++)
                    fs[(k * ny + y) * nx + i] = mg_f(pr, k, y, i);
        for (long it = 0; it < pr->iterations; it++)
            mg_sweep(nx, ny, nz, us, fs, ns);
        for (long e = 0; e < nz * (ny + 2) * nx; e++)
            umax = fmax(umax, fabs(us[e]));
        for (int b = 0; b < pr->npes; b++)
            for (long k = 0; k < nz; k++) {
                shmem_double_get(got, u + (k * (nyl + 2) + 1) * nx, nyl * nx, b);
                const double *want = us + (k * (ny + 2) + 1 + b * nyl) * nx;
                for (long e = 0; e < nyl * nx; e++)
                    err = fmax(err, fabs(got[e] - want[e]));
            }
        err = umax > 0.0 ? err / umax : (err > 0.0 ? 1.0 : 0.0);
        free(us), free(fs), free(ns), free(got);
    }
    err = lc_max(pr->world, err);   /* PE 0's, on every PE */
    umax = lc_max(pr->world, umax);
    int ok = err <= 1e-12 && umax > 0.0;
    char problem[96], check[128];
    snprintf(problem, sizeof problem, "nx=%ld ny=%ld nz=%ld", nx, ny, nz);
    snprintf(check, sizeof check, "max|u-u_serial|/max|u|=%.2e max|u|=%.6e", err, umax);
    return lc_finish("MG", problem, pr->iterations, nx * ny * nz, ok, check, seconds);
}

#endif
