/* lu_kernels.h: the computation shared by lu.c (MPI-basic, Bamboo, nocomm) and lu_olap.c
 * (MPI-olap). No MPI here: only the block-cyclic index arithmetic, the matrix, and the local
 * pieces of the panel factorization, the row interchanges, the update and the check. */
#ifndef LU_KERNELS_H
#define LU_KERNELS_H

#include <cblas.h>
#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

/* Below this width the panel is factorized column by column (rank-1 updates); above it,
 * recursively in halves so that most of the panel's flops are dgemm. */
enum { LU_NBMIN = 16 };

/* The widest panel: it bounds the arrays of the row interchanges. */
enum { LU_MAX_NB = 512 };

static inline int imin(int a, int b) { return a < b ? a : b; }
static inline int imax(int a, int b) { return a > b ? a : b; }

/* ---- 2D block-cyclic layout -------------------------------------------------------- */

/* How many of the indices 0..n-1, dealt in blocks of nb round `nprocs` processes, process
 * `p` holds; also the local index of the first of its indices >= n. */
static inline int lu_numroc(int n, int nb, int p, int nprocs)
{
    int blocks = n / nb, count = (blocks / nprocs) * nb, extra = blocks % nprocs;
    if (p < extra)
        count += nb;
    else if (p == extra)
        count += n % nb;
    return count;
}

static inline int lu_owner(int g, int nb, int nprocs) { return (g / nb) % nprocs; }
static inline int lu_local(int g, int nb, int nprocs) { return (g / (nb * nprocs)) * nb + g % nb; }
static inline int lu_global(int l, int nb, int p, int nprocs) { return ((l / nb) * nprocs + p) * nb + l % nb; }

/* My part of [A | b], the n x (n+1) augmented matrix: mp x nq, column-major. Carrying b as
 * column n (as HPL does) makes the factorization apply L^-1 and the row interchanges to it
 * for free, so that only U x = y is left to solve. */
typedef struct lu_dist {
    int n, nb;
    int p, q, myrow, mycol;
    int mp, nq;
    size_t lda;
    double *a;
} lu_dist;

#define LU_A(d, i, jl) ((d)->a[(size_t)(jl) * (d)->lda + (size_t)(i)])

/* Entry (i, j) of [A | b]: uniform in [-0.5, 0.5), a pure function of the global indices
 * (splitmix64 of the position), so that every layout and every rank generates the same
 * matrix without shared generator state, and the check can regenerate it. */
static inline double lu_entry(int i, int j)
{
    uint64_t z = ((uint64_t)(uint32_t)i << 32 | (uint32_t)j) + 0x9e3779b97f4a7c15ull * 0x5bd1e995ull;
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    z ^= z >> 31;
    return (double)(z >> 11) * 0x1.0p-53 - 0.5;
}

static void lu_generate(lu_dist *d)
{
    for (int jl = 0; jl < d->nq; jl++) {
        int j = lu_global(jl, d->nb, d->mycol, d->q);
        for (int i = 0; i < d->mp; i++)
            LU_A(d, i, jl) = lu_entry(lu_global(i, d->nb, d->myrow, d->p), j);
    }
}

/* ---- Panel factorization: the pivot record ---------------------------------------- */

/* What the processes of the panel's column exchange for one pivot (HPL's combined pivot
 * search and row swap): each offers its best candidate row, the diagonal row's owner also
 * the current diagonal row; the reduction keeps the largest |candidate| (the lower global
 * row on ties, so the winner does not depend on the order of combination) and the diagonal
 * row. Everyone learns both rows in one collective. The record is nb wide whatever the
 * panel's width, so one datatype serves every panel. */
enum { LU_REC_ABS, LU_REC_ROW, LU_REC_NB, LU_REC_HAS_DIAG, LU_REC_HEAD };

static inline int lu_record_len(int nb) { return LU_REC_HEAD + 2 * nb; }

static void lu_record_combine(const double *in, double *inout, int count)
{
    for (int e = 0; e < count; e++) {
        int nb = (int)in[LU_REC_NB], len = lu_record_len(nb);
        if (in[LU_REC_ROW] >= 0 &&
            (inout[LU_REC_ROW] < 0 || in[LU_REC_ABS] > inout[LU_REC_ABS] ||
             (in[LU_REC_ABS] == inout[LU_REC_ABS] && in[LU_REC_ROW] < inout[LU_REC_ROW]))) {
            inout[LU_REC_ABS] = in[LU_REC_ABS];
            inout[LU_REC_ROW] = in[LU_REC_ROW];
            memcpy(inout + LU_REC_HEAD, in + LU_REC_HEAD, (size_t)nb * sizeof *in);
        }
        if (in[LU_REC_HAS_DIAG] != 0 && inout[LU_REC_HAS_DIAG] == 0) {
            inout[LU_REC_HAS_DIAG] = 1;
            memcpy(inout + LU_REC_HEAD + nb, in + LU_REC_HEAD + nb, (size_t)nb * sizeof *in);
        }
        in += len;
        inout += len;
    }
}

/* My offer for the pivot of panel column c (global column/row gc = j + c): my row of
 * largest |a| among my rows >= gc, and the diagonal row if it is mine. */
static void lu_record_offer(const lu_dist *d, int jl, int jb, int gc, double *rec)
{
    int nb = d->nb, r0 = lu_numroc(gc, nb, d->myrow, d->p), c = gc % nb;
    rec[LU_REC_NB] = nb;
    rec[LU_REC_ABS] = 0.0;
    rec[LU_REC_ROW] = -1;  /* no candidate: any candidate beats it, even a NaN */
    rec[LU_REC_HAS_DIAG] = 0;
    if (r0 < d->mp) {
        int best = r0 + (int)cblas_idamax(d->mp - r0, &LU_A(d, r0, jl + c), 1);
        rec[LU_REC_ABS] = fabs(LU_A(d, best, jl + c));
        rec[LU_REC_ROW] = lu_global(best, nb, d->myrow, d->p);
        cblas_dcopy(jb, &LU_A(d, best, jl), (int)d->lda, rec + LU_REC_HEAD, 1);
    }
    if (lu_owner(gc, nb, d->p) == d->myrow) {
        rec[LU_REC_HAS_DIAG] = 1;
        cblas_dcopy(jb, &LU_A(d, lu_local(gc, nb, d->p), jl), (int)d->lda, rec + LU_REC_HEAD + nb, 1);
    }
}

/* Applies the pivot the reduction chose for panel column c: the pivot row into the
 * diagonal row's place and the old diagonal row into the pivot row's place (whole panel
 * rows, L part included), keeps the pivot row in row c of w (jb x jb, row-major, ld nb:
 * every process of the column ends up holding the panel's L11\U11 there), then scales
 * column c below the diagonal and updates columns c+1..c1-1 of my rows below it (rank 1). */
static int lu_record_apply(lu_dist *d, int jl, int jb, int gc, int c1, const double *rec, double *w)
{
    int nb = d->nb, c = gc % nb, gp = (int)rec[LU_REC_ROW];
    const double *pivot_row = rec + LU_REC_HEAD, *diag_row = rec + LU_REC_HEAD + nb;
    if (gp != gc) {
        if (lu_owner(gc, nb, d->p) == d->myrow)
            cblas_dcopy(jb, pivot_row, 1, &LU_A(d, lu_local(gc, nb, d->p), jl), (int)d->lda);
        if (lu_owner(gp, nb, d->p) == d->myrow)
            cblas_dcopy(jb, diag_row, 1, &LU_A(d, lu_local(gp, nb, d->p), jl), (int)d->lda);
    }
    memcpy(w + (size_t)c * nb, pivot_row, (size_t)jb * sizeof *w);
    int r1 = lu_numroc(gc + 1, nb, d->myrow, d->p), rows = d->mp - r1;
    double pivot = pivot_row[c];
    if (rows > 0 && pivot != 0.0) {
        cblas_dscal(rows, 1.0 / pivot, &LU_A(d, r1, jl + c), 1);
        if (c1 - c - 1 > 0)
            cblas_dger(CblasColMajor, rows, c1 - c - 1, -1.0, &LU_A(d, r1, jl + c), 1,
                       w + (size_t)c * nb + c + 1, 1, &LU_A(d, r1, jl + c + 1), (int)d->lda);
    }
    return gp;
}

/* The recursive step's right half, after its left half [c0, cm) is factorized:
 * U12 = L11^-1 (pivot rows' right part), computed by every process of the column from the
 * pivot rows in w (no communication), stored by the diagonal's owner into its rows; then
 * A22 -= L21 U12 on my rows below. */
static void lu_panel_right(lu_dist *d, int j, int jl, int c0, int cm, int c1, double *w)
{
    int nb = d->nb, h = cm - c0, rest = c1 - cm;
    double *l11 = w + (size_t)c0 * nb + c0, *u12 = w + (size_t)c0 * nb + cm;
    cblas_dtrsm(CblasRowMajor, CblasLeft, CblasLower, CblasNoTrans, CblasUnit, h, rest, 1.0, l11, nb, u12, nb);
    if (lu_owner(j, nb, d->p) == d->myrow) {
        int i0 = lu_local(j + c0, nb, d->p);
        for (int r = 0; r < h; r++)
            cblas_dcopy(rest, u12 + (size_t)r * nb, 1, &LU_A(d, i0 + r, jl + cm), (int)d->lda);
    }
    int r1 = lu_numroc(j + cm, nb, d->myrow, d->p);
    if (d->mp > r1)
        cblas_dgemm(CblasColMajor, CblasNoTrans, CblasTrans, d->mp - r1, rest, h, -1.0, &LU_A(d, r1, jl + c0),
                    (int)d->lda, u12, nb, 1.0, &LU_A(d, r1, jl + cm), (int)d->lda);
}

/* ---- The panel as broadcast -------------------------------------------------------- */

/* The factorized panel travels as my process row's rows >= j of its jb columns
 * (column-major, ld = rows), followed by the jb pivot rows as doubles. */
static inline int lu_panel_rows(const lu_dist *d, int j) { return d->mp - lu_numroc(j, d->nb, d->myrow, d->p); }
static inline size_t lu_panel_len(const lu_dist *d, int j, int jb) { return (size_t)(lu_panel_rows(d, j) + 1) * jb; }

static void lu_panel_pack(const lu_dist *d, int j, int jb, const int *ipiv, double *panel)
{
    int rows = lu_panel_rows(d, j), i0 = d->mp - rows, jl = lu_local(j, d->nb, d->q);
    for (int c = 0; c < jb; c++)
        memcpy(panel + (size_t)c * rows, &LU_A(d, i0, jl + c), (size_t)rows * sizeof *panel);
    for (int c = 0; c < jb; c++)
        panel[(size_t)rows * jb + c] = ipiv[c];
}

/* A pivot outside rows j+c..n-1 cannot come out of a factorization; it is read as no
 * interchange, which keeps the nocomm variant, whose panels never arrive, in bounds (the
 * check would catch it anywhere else). */
static void lu_panel_pivots(const lu_dist *d, int j, int jb, const double *panel, int *ipiv)
{
    size_t off = (size_t)lu_panel_rows(d, j) * jb;
    for (int c = 0; c < jb; c++) {
        double g = panel[off + c];
        ipiv[c] = g >= j + c && g < d->n ? (int)g : j + c;
    }
}

/* ---- Row interchanges of the trailing matrix --------------------------------------- */

/* The panel's interchanges (row j+c with ipiv[c], in order) as moves: U row c (global row
 * j+c afterwards) is the row that was at src[c]; and each of the *ndisp rows pushed out of
 * the panel's rows goes from disp_src[e] (in j..j+jb-1) to disp_dst[e] (>= j+jb). */
static void lu_row_moves(int j, int jb, const int *ipiv, int *src, int *disp_src, int *disp_dst, int *ndisp)
{
    int pos[2 * LU_MAX_NB], orig[2 * LU_MAX_NB], npos = 0;
    *ndisp = 0;
    if (jb < 1 || jb > LU_MAX_NB)
        return;
    for (int c = 0; c < jb; c++) {
        pos[npos] = orig[npos] = j + c;
        npos++;
    }
    for (int c = 0; c < jb; c++) {
        int a = c, b = -1;
        for (int e = 0; e < npos; e++)
            if (pos[e] == ipiv[c])
                b = e;
        if (b < 0) {
            pos[npos] = orig[npos] = ipiv[c];
            b = npos++;
        }
        int t = orig[a];
        orig[a] = orig[b];
        orig[b] = t;
    }
    for (int c = 0; c < jb; c++)
        src[c] = orig[c];
    *ndisp = npos - jb;
    for (int e = 0; e < npos - jb; e++) {
        disp_dst[e] = pos[jb + e];
        disp_src[e] = orig[jb + e];
    }
}

/* Which of the n global rows `global` process row r holds: their local indices (rows) and
 * their places in the list (index, may be NULL); returns how many. */
static int lu_select(int nb, int p, int r, int n, const int *global, int *rows, int *index)
{
    int count = 0;
    for (int e = 0; e < n; e++)
        if (lu_owner(global[e], nb, p) == r) {
            rows[count] = lu_local(global[e], nb, p);
            if (index)
                index[count] = e;
            count++;
        }
    return count;
}

/* out[slots[e], c] = in[rows[e], c] for e < count and the nt columns c of two column-major
 * arrays (a NULL list means e itself). Column by column, as LAPACK's dlaswp goes: a row of a
 * column-major matrix is one cache line per entry. */
static void lu_copy_rows(int count, int nt, const double *in, size_t ldi, const int *rows, double *out, size_t ldo,
                         const int *slots)
{
    for (int c = 0; c < nt; c++) {
        const double *from = in + c * ldi;
        double *to = out + c * ldo;
        for (int e = 0; e < count; e++)
            to[slots ? slots[e] : e] = from[rows ? rows[e] : e];
    }
}

/* ---- Update ------------------------------------------------------------------------ */

/* A22 -= L21 U on my rows below the panel and the local columns [c0, c0+nt): L21 from the
 * received panel, U (jb x nt, ld jb) from the broadcast. */
static void lu_update(lu_dist *d, int j, int jb, const double *panel, const double *u, int c0, int nt)
{
    int rows = lu_panel_rows(d, j), r1 = lu_numroc(j + jb, d->nb, d->myrow, d->p), m = d->mp - r1;
    if (m > 0 && nt > 0)
        cblas_dgemm(CblasColMajor, CblasNoTrans, CblasNoTrans, m, nt, jb, -1.0, panel + (rows - m), rows, u, jb,
                    1.0, &LU_A(d, r1, c0), (int)d->lda);
}

/* ---- Check ------------------------------------------------------------------------- */

/* max(m, |v|) that a NaN turns into infinity for good (fmax would drop it), so that a
 * broken solution cannot hide from the norms of the check. */
static inline double max_abs(double m, double v) { return isnan(v) ? INFINITY : fmax(m, fabs(v)); }

/* My rows' partial sums over my columns of A x and |A| (for ||A||oo), from the regenerated
 * A and my part of x (xl, indexed by local column): out[2i] and out[2i+1]. */
static void lu_residual_parts(const lu_dist *d, const double *xl, double *out)
{
    memset(out, 0, (size_t)d->mp * 2 * sizeof *out);
    for (int jl = 0; jl < d->nq; jl++) {
        int j = lu_global(jl, d->nb, d->mycol, d->q);
        if (j >= d->n)
            continue;
        for (int i = 0; i < d->mp; i++) {
            double a = lu_entry(lu_global(i, d->nb, d->myrow, d->p), j);
            out[2 * i] += a * xl[jl];
            out[2 * i + 1] += fabs(a);
        }
    }
}

/* The largest |multiplier| of my part of L (the strict lower triangle of the factorized A):
 * at most 1 under partial pivoting (up to the rounding of a * (1/pivot)), whatever the
 * matrix. A pivot that is not the column's largest shows here even where the solution
 * still passes the residual test. */
static double lu_max_multiplier(const lu_dist *d)
{
    double m = 0.0;
    for (int jl = 0; jl < d->nq; jl++) {
        int j = lu_global(jl, d->nb, d->mycol, d->q);
        if (j >= d->n)
            continue;
        for (int i = lu_numroc(j + 1, d->nb, d->myrow, d->p); i < d->mp; i++)
            m = max_abs(m, LU_A(d, i, jl));
    }
    return m;
}

#endif
