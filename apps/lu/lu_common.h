/* lu_common.h: the MPI code that lu.c (MPI-basic, Bamboo, nocomm) and lu_olap.c (MPI-olap)
 * share unchanged: the set-up (arguments, process grid, matrix, communicators, the pivot
 * operation), the panel factorization and the U broadcast, the back substitution and the
 * check. What sets the two apart, the panel loop and how the panel travels, stays in each
 * program. lu.c calls factor_columns() and swap_and_broadcast_u() in receive blocks:
 * Bamboo's translator reads them here and announces their receives in the firing rules,
 * through companions it writes into lu.c (docs/directives.md, helpers defined in headers). */
#ifndef LU_COMMON_H
#define LU_COMMON_H

#include "app.h"
#include "lu_kernels.h"

#include <float.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { TAG_PANEL = 1, TAG_U_ROWS, TAG_DISPLACED };

#define LU_USAGE                                                                                   \
    "[N [NB [P [MAP]]]]  (N x N system, NB x NB blocks, P process rows or -Q for Q process columns; " \
    "NB <= 512; MAP: ranks " \
    "over the grid by row (the default) or by column)"

typedef struct lu_comms {
    MPI_Comm row, col;    /* my process row (rank = my column), my process column (rank = my row) */
    MPI_Datatype record;  /* one pivot record (lu_kernels.h) */
    MPI_Op pick;          /* keeps the best pivot candidate and the diagonal row */
} lu_comms;

static void pick_pivot(void *in, void *inout, int *len, MPI_Datatype *type)
{
    (void)type;
    lu_record_combine(in, inout, *len);
}

static void lu_comms_create(const lu_dist *d, lu_comms *cm)
{
    MPI_Comm_split(MPI_COMM_WORLD, d->myrow, d->mycol, &cm->row);
    MPI_Comm_split(MPI_COMM_WORLD, d->mycol, d->myrow, &cm->col);
    MPI_Type_contiguous(lu_record_len(d->nb), MPI_DOUBLE, &cm->record);
    MPI_Type_commit(&cm->record);
    MPI_Op_create(pick_pivot, 1, &cm->pick);
}

/* The most doubles a packed panel of mine takes (lu_panel_len). */
static inline size_t lu_panel_max(const lu_dist *d) { return (size_t)(d->mp + 1) * d->nb; }

/* The work arrays of the factorization (u and swapbuf: a U block row over my columns; w,
 * offer, best and ipiv: the panel factorization's) and of the solve (xl: x at my columns). */
static void lu_buffers(const lu_dist *d, double **u, double **swapbuf, double **w, double **offer, double **best,
                       int **ipiv, double **xl)
{
    const int nb = d->nb;
    const size_t u_max = (size_t)nb * imax(d->nq, 1);
    *u = calloc(u_max, sizeof **u);
    *swapbuf = calloc(u_max, sizeof **swapbuf);
    *w = calloc((size_t)nb * nb, sizeof **w);
    *offer = calloc(lu_record_len(nb), sizeof **offer);
    *best = calloc(lu_record_len(nb), sizeof **best);
    *ipiv = calloc(nb, sizeof **ipiv);
    *xl = calloc((size_t)imax(d->nq, 1), sizeof **xl);
}

/* What both programs factorize with: the distributed [A | b], the communicators and the work
 * arrays (lu_buffers). */
typedef struct lu_run {
    lu_dist d;
    lu_comms cm;
    double *u, *swapbuf, *w, *offer, *best, *xl;
    int *ipiv;
} lu_run;

/* The argument P: the process rows, or -Q for Q process columns and as many rows as the
 * ranks fill (0 where Q does not divide them). Bamboo under --bamboo-vf auto picks the VF
 * after the arguments are written: -Q with MAP column gives each process whole process
 * columns at any VF (bench/run). */
static int lu_process_rows(int argc, char **argv, int size, int fallback)
{
    if (argc <= 3 || argv[3][0] != '-')
        return app_int_arg(argc, argv, 3, fallback, LU_USAGE);
    char *end;
    const long q = strtol(argv[3] + 1, &end, 10);
    if (*end != '\0' || q <= 0 || q > 1000000000) {
        fprintf(stderr, "usage: %s %s\n", argv[0], LU_USAGE);
        exit(2);
    }
    return size % q == 0 ? size / (int)q : 0;
}

/* MPI_Init, N, NB and P from the arguments, this rank's part of the generated [A | b] dealt
 * over the P x Q grid (ranks row- or column-major), the communicators and the work arrays; ends the
 * program (rank 0 says why) when the arguments do not fit the ranks. */
static lu_run lu_start(int *argc, char ***argv)
{
    int rank, size;
    app_start(argc, argv, &rank, &size);
    const int n = app_int_arg(*argc, *argv, 1, 1000, LU_USAGE);
    const int nb = imin(app_int_arg(*argc, *argv, 2, 64, LU_USAGE), n);
    int dims[2] = {0, 0};
    MPI_Dims_create(size, 2, dims);
    const int p = lu_process_rows(*argc, *argv, size, dims[1]);
    const int q = p ? size / p : 0;
    /* As HPL's PMAP. Column-major keeps a process column on consecutive ranks: Bamboo's VF
     * tasks of a process then form one column of a VF x Q grid, and the pivot searches and
     * U broadcasts stay inside the process (bench/run). */
    const char *map = *argc > 4 ? (*argv)[4] : "row";
    const int column_major = strcmp(map, "column") == 0;
    if (nb > LU_MAX_NB || p == 0 || size % p != 0 || (!column_major && strcmp(map, "row") != 0)) {
        if (rank == 0)
            fprintf(stderr, "usage: %s %s; P (or Q) must divide the %d ranks\n", (*argv)[0], LU_USAGE, size);
        app_refuse();
    }

    lu_run r;
    lu_dist *d = &r.d;
    *d = (lu_dist){.n = n, .nb = nb, .p = p, .q = q, .myrow = column_major ? rank % p : rank / q,
                     .mycol = column_major ? rank / p : rank % q};
    d->mp = lu_numroc(n, nb, d->myrow, p);
    d->nq = lu_numroc(n + 1, nb, d->mycol, q);
    d->lda = (size_t)imax(d->mp, 1);
    d->a = malloc(d->lda * imax(d->nq, 1) * sizeof *d->a);
    lu_generate(d);
    lu_comms_create(d, &r.cm);
    lu_buffers(d, &r.u, &r.swapbuf, &r.w, &r.offer, &r.best, &r.ipiv, &r.xl);
    return r;
}

/* pFact for panel columns [c0, c1) of the panel at global column j (width jb): halves down
 * to LU_NBMIN columns, which go column by column, one reduction per pivot. */
static void factor_columns(lu_dist *d, const lu_comms *cm, int j, int jb, int c0, int c1, int *ipiv, double *w,
                           double *offer, double *best)
{
    int jl = lu_local(j, d->nb, d->q);
    if (c1 - c0 > LU_NBMIN) {
        int cmid = c0 + (c1 - c0) / 2;
        factor_columns(d, cm, j, jb, c0, cmid, ipiv, w, offer, best);
        lu_panel_right(d, j, jl, c0, cmid, c1, w);
        factor_columns(d, cm, j, jb, cmid, c1, ipiv, w, offer, best);
        return;
    }
    for (int c = c0; c < c1; c++) {
        lu_record_offer(d, jl, jb, j + c, offer);
        MPI_Allreduce(offer, best, 1, cm->record, cm->pick, cm->col);
        ipiv[c] = lu_record_apply(d, jl, jb, j + c, c1, best, w);
    }
}

/* pUpdate's communication, on my trailing local columns [c0, c0+nt): the panel's row
 * interchanges, and the U block row. The rows that become U travel to the panel's process
 * row, which also sends the rows they displace to where the pivots were, solves
 * U = L11^-1 U and broadcasts U down the process column. */
static void swap_and_broadcast_u(lu_dist *d, MPI_Comm col, int j, int jb, const double *panel, int c0, int nt,
                                 double *u, double *buf)
{
    if (nt == 0)
        return;
    int ipiv[LU_MAX_NB], src[LU_MAX_NB], disp_src[LU_MAX_NB], disp_dst[LU_MAX_NB], ndisp;
    lu_panel_pivots(d, j, jb, panel, ipiv);
    lu_row_moves(j, jb, ipiv, src, disp_src, disp_dst, &ndisp);
    const int nb = d->nb, p = d->p, me = d->myrow, rd = lu_owner(j, nb, p);
    const size_t lda = d->lda;
    double *a = &LU_A(d, 0, c0);
    int rows[LU_MAX_NB], slots[LU_MAX_NB], from[LU_MAX_NB], count;

    if (me != rd) {
        if ((count = lu_select(nb, p, me, jb, src, rows, NULL)) > 0) {
            lu_copy_rows(count, nt, a, lda, rows, buf, count, NULL);
            MPI_Send(buf, count * nt, MPI_DOUBLE, rd, TAG_U_ROWS, col);
        }
        if ((count = lu_select(nb, p, me, ndisp, disp_dst, rows, NULL)) > 0) {
            MPI_Recv(buf, count * nt, MPI_DOUBLE, rd, TAG_DISPLACED, col, MPI_STATUS_IGNORE);
            lu_copy_rows(count, nt, buf, count, NULL, a, lda, rows);
        }
    } else {
        /* My U rows first: the displaced rows overwrite some of them. */
        count = lu_select(nb, p, me, jb, src, rows, slots);
        lu_copy_rows(count, nt, a, lda, rows, u, jb, slots);
        for (int r = 0; r < p; r++)
            if (r != me && (count = lu_select(nb, p, r, jb, src, rows, slots)) > 0) {
                MPI_Recv(buf, count * nt, MPI_DOUBLE, r, TAG_U_ROWS, col, MPI_STATUS_IGNORE);
                lu_copy_rows(count, nt, buf, count, NULL, u, jb, slots);
            }
        for (int r = 0; r < p; r++) {
            if ((count = lu_select(nb, p, r, ndisp, disp_dst, rows, slots)) == 0)
                continue;
            for (int e = 0; e < count; e++)
                from[e] = lu_local(disp_src[slots[e]], nb, p);
            if (r == me) {
                lu_copy_rows(count, nt, a, lda, from, a, lda, rows);
            } else {
                lu_copy_rows(count, nt, a, lda, from, buf, count, NULL);
                MPI_Send(buf, count * nt, MPI_DOUBLE, r, TAG_DISPLACED, col);
            }
        }
        /* The panel's first jb rows here are L11. */
        cblas_dtrsm(CblasColMajor, CblasLeft, CblasLower, CblasNoTrans, CblasUnit, jb, nt, 1.0, panel,
                    lu_panel_rows(d, j), u, jb);
        lu_copy_rows(jb, nt, u, jb, NULL, a + lu_local(j, nb, p), lda, NULL);
    }
    MPI_Bcast(u, jb * nt, MPI_DOUBLE, rd, col);
}

/* Solves U x = y, y being column N of the factorized [A | b], block by block from the
 * bottom. Each process column keeps in s the partial sums U(i, its solved blocks) x of my
 * rows; the owner of diagonal block k gathers y_k - s from its process row and adds them up
 * in column order (a fixed order: x has the same bits under any MPI), solves with U_kk and
 * broadcasts x_k down its process column. On return xl holds x at my local columns. */
static void back_solve(lu_dist *d, const lu_comms *cm, double *xl)
{
    const int n = d->n, nb = d->nb, p = d->p, q = d->q;
    const int bcol = lu_owner(n, nb, q), bl = lu_local(n, nb, q);
    double *s = calloc((size_t)d->mp + 1, sizeof *s), *v = calloc(nb, sizeof *v);
    double *all = calloc((size_t)q * nb, sizeof *all), *xk = calloc(nb, sizeof *xk);
    for (int k = (n - 1) / nb; k >= 0; k--) {
        const int j = k * nb, jb = imin(nb, n - j), rd = k % p, cd = k % q;
        const int jl = lu_local(j, nb, q);
        if (d->myrow == rd) {
            const int i0 = lu_local(j, nb, p);
            for (int c = 0; c < jb; c++)
                v[c] = (d->mycol == bcol ? LU_A(d, i0 + c, bl) : 0.0) - s[i0 + c];
            MPI_Gather(v, jb, MPI_DOUBLE, all, jb, MPI_DOUBLE, cd, cm->row);
            if (d->mycol == cd) {
                for (int c = 0; c < jb; c++) {
                    double y = 0.0;
                    for (int r = 0; r < q; r++)
                        y += all[(size_t)r * jb + c];
                    xk[c] = y;
                }
                cblas_dtrsv(CblasColMajor, CblasUpper, CblasNoTrans, CblasNonUnit, jb, &LU_A(d, i0, jl), (int)d->lda,
                            xk, 1);
            }
        }
        if (d->mycol == cd) {
            MPI_Bcast(xk, jb, MPI_DOUBLE, rd, cm->col);
            memcpy(xl + jl, xk, (size_t)jb * sizeof *xk);
            const int above = lu_numroc(j, nb, d->myrow, p);
            if (above > 0)
                cblas_dgemv(CblasColMajor, CblasNoTrans, above, jb, 1.0, &LU_A(d, 0, jl), (int)d->lda, xk, 1, 1.0, s,
                            1);
        }
    }
    free(s);
    free(v);
    free(all);
    free(xk);
}

/* The check: HPL's scaled residual ||A x - b||oo / (eps (||A||oo ||x||oo + ||b||oo) N), with
 * A and b regenerated and eps = 2^-53, and the largest |multiplier| of L. The row sums of
 * A x and |A| are split over the process columns: they are gathered to column 0 and added
 * there in column order, and the norms are maxima, so both values have the same bits under
 * any MPI. */
static void check(const lu_dist *d, const lu_comms *cm, const double *xl, double *resid, double *max_l)
{
    const size_t len = (size_t)d->mp * 2;
    double *parts = calloc(len + 1, sizeof *parts);
    double *all = calloc(d->mycol == 0 ? (size_t)d->q * len + 1 : 1, sizeof *all);
    lu_residual_parts(d, xl, parts);
    MPI_Gather(parts, (int)len, MPI_DOUBLE, all, (int)len, MPI_DOUBLE, 0, cm->row);
    double mine[5] = {0, 0, 0, 0, 0}, norms[5]; /* ||Ax - b||, ||A||, ||x||, ||b||, max |l| */
    if (d->mycol == 0)
        for (int i = 0; i < d->mp; i++) {
            double ax = 0.0, rowsum = 0.0, b = lu_entry(lu_global(i, d->nb, d->myrow, d->p), d->n);
            for (int c = 0; c < d->q; c++) {
                ax += all[c * len + 2 * i];
                rowsum += all[c * len + 2 * i + 1];
            }
            mine[0] = max_abs(mine[0], ax - b);
            mine[1] = max_abs(mine[1], rowsum);
            mine[3] = max_abs(mine[3], b);
        }
    for (int jl = 0; jl < d->nq; jl++)
        if (lu_global(jl, d->nb, d->mycol, d->q) < d->n)
            mine[2] = max_abs(mine[2], xl[jl]);
    mine[4] = lu_max_multiplier(d);
    MPI_Allreduce(mine, norms, 5, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
    free(parts);
    free(all);
    *resid = norms[0] / (0.5 * DBL_EPSILON * (norms[1] * norms[2] + norms[3]) * d->n);
    *max_l = norms[4];
}

/* Checks x and prints the verification line; returns the program's exit status
 * (app_verified). */
static int lu_verify(const lu_dist *d, const lu_comms *cm, const double *xl)
{
    double resid, max_l;
    check(d, cm, xl, &resid, &max_l);
    char what[160];
    snprintf(what, sizeof what, "lu N=%d NB=%d P=%d Q=%d resid=%.6f maxL=%.6f", d->n, d->nb, d->p, d->q, resid, max_l);
    return app_verified(what, resid < 16.0 && max_l <= 1.0 + 4 * DBL_EPSILON);
}

/* The end of both programs, once the factorization that began at `start` (MPI_Wtime) is
 * done: the back substitution (still timed), the time, the check, the frees, MPI_Finalize.
 * Returns the program's exit status. */
static int lu_finish(lu_run *r, double start)
{
    back_solve(&r->d, &r->cm, r->xl);
    app_report_time(start);
    const int status = lu_verify(&r->d, &r->cm, r->xl);
    free(r->u);
    free(r->swapbuf);
    free(r->w);
    free(r->offer);
    free(r->best);
    free(r->ipiv);
    free(r->xl);
    free(r->d.a);
    MPI_Op_free(&r->cm.pick);
    MPI_Type_free(&r->cm.record);
    MPI_Comm_free(&r->cm.row);
    MPI_Comm_free(&r->cm.col);
    MPI_Finalize();
    return status;
}

#endif
