/* FT: NAS FT's pattern: a 2-D array distributed by rows is transposed (all-to-all), then every
 * row is transformed locally. The transform is a real one: a normalized Walsh-Hadamard
 * transform (the butterflies of a radix-2 FFT without twiddles), followed by an element-wise
 * damping factor in (0.5, 1] (in place of FT's evolution of the spectrum), so iterations do not
 * repeat.
 *
 * Distribution: N × N doubles (N a power of two, a multiple of the PE count), row-major; PE q
 * owns rows q*m .. (q+1)*m - 1, m = N / npes, in the symmetric array a (m × N). The transpose
 * writes t (private, m × N): t[r][b*m + j] = a[j][q*m + r] of PE b, for every source PE b, j
 * and r < m: from each PE, a block of m rows of m contiguous elements, N apart. The KERNEL_*.c
 * file has the transpose (ft_transpose); everything else is here.
 *
 * Timed: `iterations` of a = damp(WHT_rows(transpose(a))). Verified: PE 0 runs the same
 * iterations serially on the whole array, gathers a and compares (relative to max |a|,
 * tolerance 1e-12). Elements per iteration: N*N. */
#ifndef LC_FT_H
#define LC_FT_H

#include "lc_common.h"

#define FT_USAGE "[N (a power of two, default 1024)] [iterations (default 10)]"

typedef struct ft_problem {
    long n, iterations;
    lc_world *world;   /* lc_init's */
    int me, npes;
    long m;          /* rows per PE */
    double *t;       /* the transposed rows, m × N */
    double *damp;    /* this PE's rows of the damping factors, m × N */
} ft_problem;

static inline double ft_initial(long row, long col, long n)
{
    return 2.0 * lc_uniform(11, (uint64_t)(row * n + col)) - 1.0;
}

static inline double ft_damp(long row, long col, long n)
{
    return 1.0 - 0.5 * lc_uniform(12, (uint64_t)(row * n + col));
}

static void ft_setup(ft_problem *pr, lc_world *world, int argc, char **argv)
{
    pr->world = world;
    pr->n = lc_arg(argc, argv, 1, 1024, FT_USAGE);
    pr->iterations = lc_arg(argc, argv, 2, 10, FT_USAGE);
    pr->me = shmem_my_pe();
    pr->npes = shmem_n_pes();
    if (!lc_is_power_of_two(pr->n) || pr->n % pr->npes != 0 || pr->n > (1L << 14))
        lc_refuse("FT needs N a power of two, a multiple of the PEs, at most 16384");
    pr->m = pr->n / pr->npes;
    pr->t = lc_malloc(pr->m * pr->n * sizeof(double));
    pr->damp = lc_malloc(pr->m * pr->n * sizeof(double));
    for (long r = 0; r < pr->m; r++)
        for (long c = 0; c < pr->n; c++)
            pr->damp[r * pr->n + c] = ft_damp(pr->me * pr->m + r, c, pr->n);
}

/* out = damp * WHT(in) / sqrt(n): one row. */
static void ft_row(long n, const double *in, const double *damp, double *out)
{
    memcpy(out, in, n * sizeof(double));
    for (long len = 1; len < n; len <<= 1)
        for (long i = 0; i < n; i += 2 * len)
            for (long j = i; j < i + len; j++) {
                double x = out[j], y = out[j + len];
                out[j] = x + y;
                out[j + len] = x - y;
            }
    const double scale = 1.0 / sqrt((double)n);
    for (long c = 0; c < n; c++)
        out[c] *= scale * damp[c];
}

/* The kernel: `iterations` times transpose(pr) (fills t from every PE's a), a barrier, and the
 * rows of t transformed into a. `a` is symmetric (m × N). */
static int ft_main(ft_problem *pr, double *a, void (*transpose)(const ft_problem *))
{
    long n = pr->n, m = pr->m;
    for (long r = 0; r < m; r++)
        for (long c = 0; c < n; c++)
            a[r * n + c] = ft_initial(pr->me * m + r, c, n);
    shmem_barrier_all();

    double start = lc_now();
    for (long it = 0; it < pr->iterations; it++) {
        transpose(pr);
        shmem_barrier_all();   /* every PE has read a before anyone overwrites it */
        for (long r = 0; r < m; r++)
            ft_row(n, pr->t + r * n, pr->damp + r * n, a + r * n);
        shmem_barrier_all();   /* a complete everywhere before the next transpose reads it */
    }
    double seconds = lc_now() - start;

    double err = 0.0, amax = 0.0;
    if (pr->me == 0) {   /* the serial iterations, and a gathered in bulk */
        double *as = lc_malloc(n * n * sizeof(double)), *ts = lc_malloc(n * n * sizeof(double));
        double *ds = lc_malloc(n * n * sizeof(double)), *got = lc_malloc(m * n * sizeof(double));
        for (long r = 0; r < n; r++)
            for (long c = 0; c < n; c++) {
                as[r * n + c] = ft_initial(r, c, n);
                ds[r * n + c] = ft_damp(r, c, n);
            }
        for (long it = 0; it < pr->iterations; it++) {
            for (long r = 0; r < n; r++)
                for (long c = 0; c < n; c++)
                    ts[r * n + c] = as[c * n + r];
            for (long r = 0; r < n; r++)
                ft_row(n, ts + r * n, ds + r * n, as + r * n);
        }
        for (long e = 0; e < n * n; e++)
            amax = fmax(amax, fabs(as[e]));
        for (int b = 0; b < pr->npes; b++) {
            shmem_double_get(got, a, m * n, b);
            for (long e = 0; e < m * n; e++)
                err = fmax(err, fabs(got[e] - as[b * m * n + e]));
        }
        err = amax > 0.0 ? err / amax : (err > 0.0 ? 1.0 : 0.0);
        free(as), free(ts), free(ds), free(got);
    }
    err = lc_max(pr->world, err);
    amax = lc_max(pr->world, amax);
    int ok = err <= 1e-12 && amax > 0.0;
    char problem[64], check[128];
    snprintf(problem, sizeof problem, "N=%ld", n);
    snprintf(check, sizeof check, "max|a-a_serial|/max|a|=%.2e max|a|=%.6e", err, amax);
    return lc_finish("FT", problem, pr->iterations, n * n, ok, check, seconds);
}

#endif
