/* CG: conjugate-gradient iterations on a sparse symmetric positive definite matrix (NAS CG's
 * kernel: the sparse matrix-vector product with a distributed vector).
 *
 * Problem (n, nzr): B has, in each row i, nzr entries at random columns with values in
 * [-1, 1); A = B + B^T + D, with D_ii one more than the absolute row sum of B + B^T, so A is
 * symmetric and strictly diagonally dominant. Right-hand side: random in [0, 1).
 *
 * Distribution: PE q owns the rows and the vector entries of block q (lc_block_first). It keeps
 * its rows' nonzeros column by column (compressed sparse columns over all n columns), so that
 * the product q = A p is, for each source PE b and each column j of b's block, one remote
 * element p[j] of b times that column's nonzeros in the local rows. The KERNEL_*.c file has
 * that loop (cg_matvec); everything else is here. cgi.h keeps the same rows by row instead
 * (the same problem, its product indexed through the column numbers, as NAS writes it).
 *
 * Timed: `iterations` CG iterations from x = 0. Verified: every PE runs the same iterations
 * serially on the whole matrix (CSR) and compares its part of x (relative to max |x|) and the
 * residual norm (relative to the first one), tolerance 1e-9. Elements per iteration: n. */
#ifndef LC_CG_H
#define LC_CG_H

#include "lc_common.h"

#define CG_USAGE "[n (rows, default 131072)] [iterations (default 25)] [nonzeros per row of B (default 8)]"

typedef struct cg_problem {
    long n, nzr, iterations;
    lc_world *world;   /* lc_init's */
    int me, npes;
    long first, rows;   /* this PE's block */
    long max_block;     /* the largest block: the size of the symmetric vector */
    /* this PE's rows, by column (cg_setup; NULL after cgi_setup): the nonzeros of column c are
     * row[colstart[c]..colstart[c+1]) (local row numbers) and val[...] */
    long *colstart;
    int *row;
    double *val;
    /* this PE's rows, by row for each source PE b (cgi_setup in cgi.h; NULL after cg_setup): the
     * nonzeros of local row i in b's block of columns are colidx[b][rowstr[b][i]..rowstr[b][i+1])
     * (column numbers within b's block) and a[b][...] */
    long **rowstr;
    int **colidx;
    double **a;
    double *rhs;        /* this PE's block of the right-hand side */
} cg_problem;

/* The entry k of B's row i: its column (a diagonal hit counts for nothing) and value. */
static inline long cg_b_col(const cg_problem *pr, long i, long k)
{
    return (long)(lc_hash(1, (uint64_t)(i * pr->nzr + k)) % (uint64_t)pr->n);
}

static inline double cg_b_val(const cg_problem *pr, long i, long k)
{
    return 2.0 * lc_uniform(2, (uint64_t)(i * pr->nzr + k)) - 1.0;
}

/* D: 1 + the sum of |entries| that land in row i (from B's row i and from B^T). */
static double *cg_diagonal(const cg_problem *pr)
{
    double *d = lc_malloc(pr->n * sizeof(double));
    for (long i = 0; i < pr->n; i++)
        d[i] = 1.0;
    for (long i = 0; i < pr->n; i++)
        for (long k = 0; k < pr->nzr; k++) {
            long j = cg_b_col(pr, i, k);
            if (j == i)
                continue;
            double v = fabs(cg_b_val(pr, i, k));
            d[i] += v;
            d[j] += v;
        }
    return d;
}

/* Calls visit(ctx, i, j, v) for every nonzero (i, j, v) of A whose row i is in [lo, hi)
 * (duplicates are separate entries; they add). */
static void cg_entries(const cg_problem *pr, long lo, long hi, const double *d,
                       void (*visit)(void *, long, long, double), void *ctx)
{
    for (long i = lo; i < hi; i++)
        visit(ctx, i, i, d[i]);
    for (long i = 0; i < pr->n; i++)
        for (long k = 0; k < pr->nzr; k++) {
            long j = cg_b_col(pr, i, k);
            if (j == i)
                continue;
            double v = cg_b_val(pr, i, k);
            if (i >= lo && i < hi)
                visit(ctx, i, j, v);
            if (j >= lo && j < hi)
                visit(ctx, j, i, v);
        }
}

typedef struct cg_builder {
    long lo;        /* first row */
    long clo, chi;  /* the columns kept: [clo, chi) */
    int by_column;  /* 1: count/fill by column (local CSC); 0: by row (CSR) */
    long *start;    /* counts, then fill positions */
    int *index;
    double *val;
    int filling;
} cg_builder;

static void cg_visit(void *ctx, long i, long j, double v)
{
    cg_builder *b = ctx;
    if (j < b->clo || j >= b->chi)
        return;
    long key = b->by_column ? j - b->clo : i - b->lo;
    if (!b->filling) {
        b->start[key + 1]++;
        return;
    }
    long at = b->start[key]++;
    b->index[at] = (int)(b->by_column ? i - b->lo : j - b->clo);
    b->val[at] = v;
}

/* Compressed rows [lo, hi) of A, their nonzeros in columns [clo, chi) only, by column
 * (by_column: local row numbers) or by row (column numbers from clo). */
static void cg_compress(const cg_problem *pr, long lo, long hi, long clo, long chi, const double *d,
                        int by_column, long **start, int **index, double **val)
{
    long keys = by_column ? chi - clo : hi - lo;
    cg_builder b = {lo, clo, chi, by_column, calloc(keys + 1, sizeof(long)), NULL, NULL, 0};
    cg_entries(pr, lo, hi, d, cg_visit, &b);
    for (long c = 0; c < keys; c++)
        b.start[c + 1] += b.start[c];
    long nnz = b.start[keys];
    b.index = lc_malloc(nnz * sizeof(int));
    b.val = lc_malloc(nnz * sizeof(double));
    long *fill = lc_malloc((keys + 1) * sizeof(long));
    memcpy(fill, b.start, (keys + 1) * sizeof(long));
    b.filling = 1;
    long *positions = b.start;
    b.start = fill;
    cg_entries(pr, lo, hi, d, cg_visit, &b);
    free(fill);
    *start = positions;
    *index = b.index;
    *val = b.val;
}

/* The problem from the arguments, this PE's block and right-hand side: all but the matrix,
 * whose layout is the kernel's (cg_setup, cgi_setup). */
static void cg_define(cg_problem *pr, lc_world *world, int argc, char **argv)
{
    *pr = (cg_problem){.world = world};
    pr->n = lc_arg(argc, argv, 1, 131072, CG_USAGE);
    pr->iterations = lc_arg(argc, argv, 2, 25, CG_USAGE);
    pr->nzr = lc_arg(argc, argv, 3, 8, CG_USAGE);
    pr->me = shmem_my_pe();
    pr->npes = shmem_n_pes();
    if (pr->n < pr->npes || pr->n > (1L << 26))
        lc_refuse("CG needs npes <= n <= 2^26");
    pr->first = lc_block_first(pr->n, pr->npes, pr->me);
    pr->rows = lc_block_size(pr->n, pr->npes, pr->me);
    pr->max_block = 0;
    for (int b = 0; b < pr->npes; b++)
        if (lc_block_size(pr->n, pr->npes, b) > pr->max_block)
            pr->max_block = lc_block_size(pr->n, pr->npes, b);
    pr->rhs = lc_malloc(pr->rows * sizeof(double));
    for (long i = 0; i < pr->rows; i++)
        pr->rhs[i] = lc_uniform(3, (uint64_t)(pr->first + i));
}

/* The problem, and this PE's rows by column over all n columns. (inline: cgi.h's programs,
 * which have their own setup, include it unused.) */
static inline void cg_setup(cg_problem *pr, lc_world *world, int argc, char **argv)
{
    cg_define(pr, world, argc, argv);
    double *d = cg_diagonal(pr);
    cg_compress(pr, pr->first, pr->first + pr->rows, 0, pr->n, d, 1, &pr->colstart, &pr->row,
                &pr->val);
    free(d);
}

static double cg_local_dot(const double *a, const double *b, long n)
{
    double s = 0.0;
    for (long i = 0; i < n; i++)
        s += a[i] * b[i];
    return s;
}

/* The serial reference: the same iterations on the whole matrix. Returns x (n) and the final
 * residual norm. */
static double *cg_serial(const cg_problem *pr, double *rnorm)
{
    long n = pr->n, *start;
    int *col;
    double *val, *d = cg_diagonal(pr);
    cg_compress(pr, 0, n, 0, n, d, 0, &start, &col, &val);
    free(d);
    double *x = calloc(n, sizeof(double)), *r = lc_malloc(n * sizeof(double));
    double *p = lc_malloc(n * sizeof(double)), *q = lc_malloc(n * sizeof(double));
    for (long i = 0; i < n; i++)
        r[i] = p[i] = lc_uniform(3, (uint64_t)i);
    double rho = cg_local_dot(r, r, n);
    for (long it = 0; it < pr->iterations; it++) {
        for (long i = 0; i < n; i++) {
            double s = 0.0;
            for (long k = start[i]; k < start[i + 1]; k++)
                s += val[k] * p[col[k]];
            q[i] = s;
        }
        double alpha = rho / cg_local_dot(p, q, n);
        for (long i = 0; i < n; i++) {
            x[i] += alpha * p[i];
            r[i] -= alpha * q[i];
        }
        double rho_new = cg_local_dot(r, r, n);
        double beta = rho_new / rho;
        rho = rho_new;
        for (long i = 0; i < n; i++)
            p[i] = r[i] + beta * p[i];
    }
    *rnorm = sqrt(rho);
    free(start), free(col), free(val), free(r), free(p), free(q);
    return x;
}

/* The kernel: `iterations` CG iterations. `p` is the symmetric vector block (max_block
 * elements) that matvec reads from every PE; matvec(pr, q) sets q (rows) to A p. */
static int cg_main(cg_problem *pr, double *p, void (*matvec)(const cg_problem *, double *))
{
    long rows = pr->rows;
    double *x = calloc(rows ? rows : 1, sizeof(double)), *r = lc_malloc(rows * sizeof(double));
    double *q = lc_malloc(rows * sizeof(double));
    for (long i = 0; i < rows; i++)
        r[i] = p[i] = pr->rhs[i];
    double rho = lc_sum(pr->world, cg_local_dot(r, r, rows));   /* ends in a barrier: p is everywhere */
    double rnorm0 = sqrt(rho);

    double start = lc_now();
    for (long it = 0; it < pr->iterations; it++) {
        matvec(pr, q);
        /* the reduction's barriers: every PE has read p before anyone changes it */
        double alpha = rho / lc_sum(pr->world, cg_local_dot(p, q, rows));
        for (long i = 0; i < rows; i++) {
            x[i] += alpha * p[i];
            r[i] -= alpha * q[i];
        }
        double rho_new = lc_sum(pr->world, cg_local_dot(r, r, rows));
        double beta = rho_new / rho;
        rho = rho_new;
        for (long i = 0; i < rows; i++)
            p[i] = r[i] + beta * p[i];
        shmem_barrier_all();   /* p complete on every PE before the next product reads it */
    }
    double seconds = lc_now() - start;

    double serial_rnorm, *xs = cg_serial(pr, &serial_rnorm);
    double xmax = 0.0, err = 0.0;
    for (long i = 0; i < pr->n; i++)
        xmax = fmax(xmax, fabs(xs[i]));
    for (long i = 0; i < rows; i++)
        err = fmax(err, fabs(x[i] - xs[pr->first + i]));
    err = lc_max(pr->world, err) / xmax;
    /* the residual falls by orders of magnitude: compared relative to the first one */
    double rnorm = sqrt(rho), rerr = fabs(rnorm - serial_rnorm) / rnorm0;
    int ok = err <= 1e-9 && rerr <= 1e-9 && isfinite(rnorm);
    char problem[96], check[160];
    snprintf(problem, sizeof problem, "n=%ld nonzeros_per_row_of_B=%ld", pr->n, pr->nzr);
    snprintf(check, sizeof check, "max|x-x_serial|/max|x|=%.2e residual=%.6e serial_residual=%.6e",
             err, rnorm, serial_rnorm);
    free(x), free(r), free(q), free(xs);
    return lc_finish("CG", problem, pr->iterations, pr->n, ok, check, seconds);
}

#endif
