/* cannon25d: the compute code that MPI-basic (cannon25d.c) and MPI-olap (cannon25d_olap.c)
 * share, so that both compute identically. No MPI here.
 *
 * Test data: A and B are integer-valued, entries in -4..4, generated from their global
 * indices. Every product and every partial sum of C = A*B is then an integer far below
 * 2^53, so C is exact whatever the order of the additions (dgemm's blocking, the order of
 * the reduction along Z) and can be compared for equality with a reference computed in
 * integer arithmetic. */
#ifndef CANNON25D_KERNELS_H
#define CANNON25D_KERNELS_H

#include <cblas.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* Entries of A and B by global row and column. The (r*s) mod p terms keep the matrices
 * from having low rank, so a block in the wrong place gives wrong entries. */
static inline int gen_a(int64_t r, int64_t s)
{
    return (int)((r * 31 + s * 17 + (r * s) % 11) % 9) - 4;
}

static inline int gen_b(int64_t r, int64_t s)
{
    return (int)((r * 5 + s * 23 + (r * s + 2 * s) % 13) % 9) - 4;
}

/* Weights of the checksum sum_ij u_i C_ij v_j: not constant, so that a permutation of C's
 * rows or columns changes the sum. */
static inline int64_t weight_u(int64_t i)
{
    return i % 7 + 1;
}

static inline int64_t weight_v(int64_t j)
{
    return j % 5 + 1;
}

static inline double *alloc_block(size_t count)
{
    void *p = NULL;
    if (posix_memalign(&p, 64, count * sizeof(double)) != 0)
        abort();
    return p;
}

/* The nb x nb block of a matrix (gen_a or gen_b) whose top left entry is (row0, col0). */
static inline void fill_block(double *m, int nb, int64_t row0, int64_t col0, int (*gen)(int64_t, int64_t))
{
    for (int r = 0; r < nb; r++)
        for (int s = 0; s < nb; s++)
            m[(size_t)r * nb + s] = gen(row0 + r, col0 + s);
}

/* c[rows x nb] = a[rows x nb] * b[nb x nb] + beta*c, all row-major with leading dimension nb. */
static inline void block_multiply(int rows, int nb, const double *a, const double *b, double beta, double *c)
{
    cblas_dgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, rows, nb, nb, 1.0, a, nb, b, nb, beta, c, nb);
}

/* c[i] += x[i] */
static inline void add_to(double *restrict c, const double *restrict x, size_t count)
{
    for (size_t i = 0; i < count; i++)
        c[i] += x[i];
}

/* What a block of the computed C says about itself. */
struct block_check {
    int64_t checksum;   /* sum_ij u_i C_ij v_j over the block, C rounded to integers */
    int64_t checked;    /* entries compared with a direct dot product */
    int64_t mismatches; /* of those, the ones that differ, plus entries that are not integers */
};

/* Checks the nb x nb block of C with top left entry (row0, col0), of an n x n product:
 * every entry enters the checksum, and min(4, nb) entries of every row, spread over the
 * block, are compared with the dot product of A's row and B's column, computed in integers
 * from the generating functions (independent of dgemm and of the data distribution). */
static inline struct block_check check_block(const double *cblk, int nb, int n, int64_t row0, int64_t col0)
{
    struct block_check out = {0, 0, 0};
    const int samples = nb < 4 ? nb : 4;
    for (int r = 0; r < nb; r++) {
        const double *row = &cblk[(size_t)r * nb];
        const int64_t gi = row0 + r;
        int64_t weighted = 0;
        for (int s = 0; s < nb; s++) {
            const double rounded = nearbyint(row[s]);
            if (!(rounded == row[s] && fabs(rounded) < 1e15)) { /* also NaN */
                out.mismatches++;
                continue;
            }
            weighted += (int64_t)rounded * weight_v(col0 + s);
        }
        out.checksum += weight_u(gi) * weighted;
        for (int m = 0; m < samples; m++) {
            const int s = (int)(((int64_t)r * 3 + (int64_t)m * nb / samples) % nb);
            const int64_t gj = col0 + s;
            int64_t dot = 0;
            for (int k = 0; k < n; k++)
                dot += gen_a(gi, k) * gen_b(k, gj);
            out.checked++;
            out.mismatches += row[s] != (double)dot;
        }
    }
    return out;
}

/* The checksum sum_ij u_i C_ij v_j of the whole product in O(n^2):
 * sum_k (sum_i u_i A_ik) (sum_j B_kj v_j). */
static inline int64_t expected_checksum(int n)
{
    int64_t *ua = calloc((size_t)n, sizeof *ua);
    for (int i = 0; i < n; i++)
        for (int k = 0; k < n; k++)
            ua[k] += weight_u(i) * gen_a(i, k);
    int64_t total = 0;
    for (int k = 0; k < n; k++) {
        int64_t bv = 0;
        for (int j = 0; j < n; j++)
            bv += gen_b(k, j) * weight_v(j);
        total += ua[k] * bv;
    }
    free(ua);
    return total;
}

/* q with ranks = c*q^2, or 0 when there is none. */
static inline int layer_side(int ranks, int c)
{
    if (c <= 0 || ranks % c)
        return 0;
    const int layer = ranks / c;
    int q = 0;
    while ((q + 1) * (q + 1) <= layer)
        q++;
    return q * q == layer ? q : 0;
}

/* The replication factor when none is given: the largest c with ranks = c*q^2 and q a
 * multiple of c (1 when ranks is a square), 0 when there is none. */
static inline int default_replication(int ranks)
{
    int best = 0;
    for (int c = 1; c * c * c <= ranks; c++) {
        const int q = layer_side(ranks, c);
        if (q && q % c == 0)
            best = c;
    }
    return best;
}

#endif
