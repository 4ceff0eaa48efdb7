/* e2e_loopcomm.c: the loop communication runtime against fine-grained SHMEM, end to end.
 *
 * Every case calls the API by hand, as bamboocc's generated code would, on references to the
 * next PE's symmetric arrays, and checks every value the nest reads (GET) or leaves in the
 * remote array (PUT) against what shmem_double_g / shmem_double_p (shmem_getmem / putmem for
 * other element sizes), issued element by element in the same program, gave.  The expected
 * values are fetched before the nest runs, so a fine-grained call cannot complete a transfer
 * the runtime forgot to wait for.  Forced kinds and strip counts come from the environment
 * (BAMBOO_LC_KIND, BAMBOO_LC_STRIPS): the test runs this program under each.
 * Exit 0 and "pe P: N cases ok" when all agree; on a mismatch, what differed, and exit 1. */
#include <shmem.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bamboo_loopcomm.h"

#define NX 8192
static double X[NX];          /* read by GET cases */
static double D1[NX], D2[NX]; /* PUT cases: fine-grained, runtime */
static int Y[NX];             /* 4-byte elements */
static char Z[NX * 12];       /* 12-byte elements (no shmem_iget for those) */
static char Z1[NX * 12], Z2[NX * 12];

static int me, npes, target, cases;

typedef struct lm {
    long off;
    int dims;
    long stride[4], count[4];
} lm;

static void die(const char *what, long a, long b, long c)
{
    fprintf(stderr, "pe %d: MISMATCH %s (%ld %ld %ld)\n", me, what, a, b, c);
    fflush(stderr);
    _exit(1);  /* exit() would wait in shmem_finalize for the others; the launcher ends them */
}

static long inner_count(const lm *r)
{
    long n = 1;
    for (int d = 1; d < r->dims; d++)
        n *= r->count[d];
    return n;
}

/* element of reference r at outer iteration t0 and inner flat index q */
static long element(const lm *r, long t0, long q)
{
    long e = r->off + (r->dims > 0 ? r->stride[0] * t0 : 0);
    for (int d = 1; d < r->dims; d++) {
        e += r->stride[d] * (q % r->count[d]);
        q /= r->count[d];
    }
    return e;
}

static void fine_get(void *out, const char *array, size_t es, long e)
{
    if (es == 8 && array == (const char *)X)
        *(double *)out = shmem_double_g(&X[e], target);
    else
        shmem_getmem(out, array + e * (long)es, es, target);
}

/* A nest reading refs[0..n) of `array` (element size es) on the next PE; trip from count[0]. */
static void get_case(bamboo_lc_site *site, const char *array, size_t es, int n, lm *refs, long trip)
{
    long per = 0;
    for (int r = 0; r < n; r++) {
        refs[r].count[0] = trip;
        per += inner_count(&refs[r]);
    }
    char *expect = malloc((size_t)(trip * per + 1) * es);
    long at = 0;
    for (long t0 = 0; t0 < trip; t0++)
        for (int r = 0; r < n; r++)
            for (long q = 0; q < inner_count(&refs[r]); q++, at++)
                fine_get(expect + at * (long)es, array, es, element(&refs[r], t0, q));
    bamboo_lc_nest *nest = bamboo_lc_begin(site, trip);
    int id[8];
    for (int r = 0; r < n; r++)
        id[r] = bamboo_lc_ref(nest, BAMBOO_LC_GET, array, es, target, refs[r].off, refs[r].dims,
                              refs[r].stride, refs[r].count);
    long strips = bamboo_lc_plan(nest);
    if ((trip == 0) != (strips == 0) || strips > (trip > 0 ? trip : 0))
        die("strips", strips, trip, 0);
    const char *buf[8];
    long origin[8];
    for (int r = 0; r < n; r++)
        buf[r] = bamboo_lc_buffer(nest, id[r], &origin[r]);
    if (bamboo_lc_strip_first(nest, 0) != 0 || bamboo_lc_strip_first(nest, strips) != trip)
        die("strip bounds", bamboo_lc_strip_first(nest, strips), trip, strips);
    for (long k = 0; k < strips; k++) {
        bamboo_lc_advance(nest, k);
        for (long t0 = bamboo_lc_strip_first(nest, k); t0 < bamboo_lc_strip_first(nest, k + 1); t0++) {
            at = t0 * per;
            for (int r = 0; r < n; r++)
                for (long q = 0; q < inner_count(&refs[r]); q++, at++) {
                    long e = element(&refs[r], t0, q);
                    if (memcmp(buf[r] + (e - origin[r]) * (long)es, expect + at * (long)es, es) != 0)
                        die(site->file, site->line, t0, e);
                }
        }
    }
    bamboo_lc_end(nest);
    free(expect);
    cases++;
}

static char *value_of(char *tmp, size_t es, long t0, long q, int r)
{
    double v = me * 100000.0 + t0 * 101.0 + q * 3.0 + r + 0.25;
    memset(tmp, 0, es);
    memcpy(tmp, &v, es < sizeof v ? es : sizeof v);
    if (es > sizeof v)
        tmp[es - 1] = (char)(t0 + q);
    return tmp;
}

static double S[NX];  /* the local source of PUT cases that put from an array */

/* The value reference r puts at (t0, q): from S at the source's LMAD, or made up. */
static const char *put_value(char *tmp, size_t es, const lm *source, long t0, long q, int r)
{
    return source ? (const char *)&S[element(source, t0, q)] : value_of(tmp, es, t0, q, r);
}

/* A nest writing refs[0..n) of the next PE's array (d1: by shmem_*_p, d2: by the runtime),
 * in iteration order; afterwards every PE compares its own d1 and d2 whole.  With a source
 * (one reference of doubles), the values are S's elements at its LMAD, handed to the runtime
 * (bamboo_lc_ref_source), which puts straight from S where the strides are equal. */
static void put_case(bamboo_lc_site *site, char *d1, char *d2, size_t es, int n, lm *refs, long trip,
                     lm *source)
{
    for (long i = 0; i < NX * 8 / (long)es && i * (long)es < NX * 8; i++) {
        memset(d1 + i * (long)es, 0x5a, es);
        memset(d2 + i * (long)es, 0x5a, es);
    }
    shmem_barrier_all();
    char tmp[32];
    for (int r = 0; r < n; r++)
        refs[r].count[0] = trip;
    for (long t0 = 0; t0 < trip; t0++)
        for (int r = 0; r < n; r++)
            for (long q = 0; q < inner_count(&refs[r]); q++) {
                long e = element(&refs[r], t0, q);
                shmem_putmem(d1 + e * (long)es, put_value(tmp, es, source, t0, q, r), es, target);
            }
    shmem_quiet();
    bamboo_lc_nest *nest = bamboo_lc_begin(site, trip);
    int id[8];
    for (int r = 0; r < n; r++)
        id[r] = bamboo_lc_ref(nest, BAMBOO_LC_PUT, d2, es, target, refs[r].off, refs[r].dims, refs[r].stride,
                              refs[r].count);
    int taken = source && bamboo_lc_ref_source(nest, id[0], S, source->off, source->stride);
    int equal = source != NULL;
    for (int d = 0; source && d < source->dims; d++)
        equal &= source->stride[d] == refs[0].stride[d] || refs[0].count[d] <= 1;
    if (taken != equal)
        die("ref_source", taken, equal, 0);
    long strips = bamboo_lc_plan(nest);
    char *buf[8];
    long origin[8];
    for (int r = 0; r < n; r++)
        buf[r] = bamboo_lc_buffer(nest, id[r], &origin[r]);
    if ((buf[0] == NULL) != (taken && trip > 0))
        die("source buffer", taken, trip, 0);
    for (long k = 0; k < strips; k++) {
        bamboo_lc_advance(nest, k);
        for (long t0 = bamboo_lc_strip_first(nest, k); t0 < bamboo_lc_strip_first(nest, k + 1); t0++)
            for (int r = 0; r < n; r++)
                for (long q = 0; q < inner_count(&refs[r]) && buf[r]; q++) {
                    long e = element(&refs[r], t0, q);
                    memcpy(buf[r] + (e - origin[r]) * (long)es, put_value(tmp, es, source, t0, q, r), es);
                }
    }
    bamboo_lc_end(nest);
    shmem_barrier_all();
    long size = NX * 8 / (long)es;
    for (long i = 0; i < size; i++)
        if (memcmp(d1 + i * (long)es, d2 + i * (long)es, es) != 0) {
            long v1 = 0, v2 = 0;
            memcpy(&v1, d1 + i * (long)es, es < sizeof v1 ? es : sizeof v1);
            memcpy(&v2, d2 + i * (long)es, es < sizeof v2 ? es : sizeof v2);
            fprintf(stderr, "pe %d: %s element %ld: fine-grained %lx, runtime %lx (%lx: never written)\n", me,
                    site->file, i, v1, v2, 0x5a5a5a5a5a5a5a5aL);
            die(site->file, site->line, i, -1);
        }
    shmem_barrier_all();
    cases++;
}

/* GET x[i-1], x[i+1] and PUT y[i] = their sum, in one nest. */
static void mixed_case(bamboo_lc_site *site, long trip)
{
    for (long i = 0; i < NX; i++)
        D1[i] = D2[i] = -1;
    shmem_barrier_all();
    for (long i = 1; i <= trip; i++)
        shmem_double_p(&D1[i], shmem_double_g(&X[i - 1], target) + shmem_double_g(&X[i + 1], target), target);
    shmem_quiet();
    long one[] = {1}, counts[] = {trip};
    bamboo_lc_nest *nest = bamboo_lc_begin(site, trip);
    int a = bamboo_lc_ref(nest, BAMBOO_LC_GET, X, 8, target, 0, 1, one, counts);
    int b = bamboo_lc_ref(nest, BAMBOO_LC_GET, X, 8, target, 2, 1, one, counts);
    int c = bamboo_lc_ref(nest, BAMBOO_LC_PUT, D2, 8, target, 1, 1, one, counts);
    long strips = bamboo_lc_plan(nest), oa, ob, oc;
    const double *xa = bamboo_lc_buffer(nest, a, &oa), *xb = bamboo_lc_buffer(nest, b, &ob);
    double *y = bamboo_lc_buffer(nest, c, &oc);
    if (xa != xb || oa != ob)
        die("GETs of one array and PE share a buffer", oa, ob, 0);
    for (long k = 0; k < strips; k++) {
        bamboo_lc_advance(nest, k);
        for (long t = bamboo_lc_strip_first(nest, k); t < bamboo_lc_strip_first(nest, k + 1); t++) {
            long i = t + 1;
            y[i - oc] = xa[i - 1 - oa] + xb[i + 1 - ob];
        }
    }
    bamboo_lc_end(nest);
    shmem_barrier_all();
    for (long i = 0; i < NX; i++)
        if (D1[i] != D2[i])
            die("mixed", i, (long)D1[i], (long)D2[i]);
    shmem_barrier_all();
    cases++;
}

/* The same site entered again inside one of its own strips (recursion). */
static void recursive_case(bamboo_lc_site *site, int depth)
{
    long trip = 40 + depth * 7, one[] = {1}, counts[] = {trip};
    long base = 100 * depth;
    bamboo_lc_nest *nest = bamboo_lc_begin(site, trip);
    int r = bamboo_lc_ref(nest, BAMBOO_LC_GET, X, 8, target, base, 1, one, counts);
    long strips = bamboo_lc_plan(nest), o;
    const double *x = bamboo_lc_buffer(nest, r, &o);
    for (long k = 0; k < strips; k++) {
        bamboo_lc_advance(nest, k);
        if (k == strips / 2 && depth < 2)
            recursive_case(site, depth + 1);
        for (long t = bamboo_lc_strip_first(nest, k); t < bamboo_lc_strip_first(nest, k + 1); t++)
            if (x[base + t - o] != target * 1e6 + base + t + 0.5)
                die("recursion", depth, t, (long)x[base + t - o]);
    }
    bamboo_lc_end(nest);
    cases++;
}

static lm L1(long off, long s0)
{
    lm r = {off, 1, {s0}, {0}};
    return r;
}

static lm L2(long off, long s0, long s1, long c1)
{
    lm r = {off, 2, {s0, s1}, {0, c1}};
    return r;
}

int main(int argc, char **argv)
{
    /* repetitions of every case (default 3): more let the strip search (tune.h) move */
    int reps = argc > 1 ? atoi(argv[1]) : 3;
    shmem_init();
    me = shmem_my_pe();
    npes = shmem_n_pes();
    target = (me + 1) % npes;
    for (long i = 0; i < NX; i++) {
        X[i] = me * 1e6 + i + 0.5;
        Y[i] = me * 1000000 + (int)i;
    }
    for (long i = 0; i < NX * 12; i++)
        Z[i] = (char)(me * 31 + i * 7);
    for (long i = 0; i < NX; i++)
        S[i] = me * 1e6 + i + 0.375;
    shmem_barrier_all();

    static bamboo_lc_site s_contig = BAMBOO_LC_SITE("contiguous", 1, 2.0), s_strided = BAMBOO_LC_SITE("strided", 2, 2.0),
                          s_rows = BAMBOO_LC_SITE("rows", 3, 2.0), s_stencil = BAMBOO_LC_SITE("stencil", 4, 4.0),
                          s_neg = BAMBOO_LC_SITE("negative", 5, 1.0), s_trip0 = BAMBOO_LC_SITE("trip0", 6, 1.0),
                          s_cols = BAMBOO_LC_SITE("column", 7, 1.0), s_int = BAMBOO_LC_SITE("int32", 8, 1.0),
                          s_z = BAMBOO_LC_SITE("elem12", 9, 1.0), s_cross = BAMBOO_LC_SITE("cross", 10, 5.0),
                          s_zero = BAMBOO_LC_SITE("zero-stride", 11, 1.0), s_heavy = BAMBOO_LC_SITE("heavy", 12, 1e5),
                          p_contig = BAMBOO_LC_SITE("put-contiguous", 21, 1.0), p_strided = BAMBOO_LC_SITE("put-strided", 22, 1.0),
                          p_rows = BAMBOO_LC_SITE("put-rows", 23, 1.0), p_neg = BAMBOO_LC_SITE("put-negative", 24, 1.0),
                          p_pair = BAMBOO_LC_SITE("put-pair", 25, 1.0), p_zero = BAMBOO_LC_SITE("put-zero-stride", 26, 1.0),
                          p_int = BAMBOO_LC_SITE("put-int32", 27, 1.0), p_z = BAMBOO_LC_SITE("put-elem12", 28, 1.0),
                          m_site = BAMBOO_LC_SITE("mixed", 31, 2.0), r_site = BAMBOO_LC_SITE("recursive", 32, 1.0),
                          s_empty = BAMBOO_LC_SITE("put-trip0", 33, 1.0),
                          p_source = BAMBOO_LC_SITE("put-source", 34, 1.0),
                          p_source_strided = BAMBOO_LC_SITE("put-source-strided", 35, 1.0);
    for (int rep = 0; rep < reps; rep++) {  /* again: the cached plan, the measured one, the search's */
        long shift = rep * 3;
        lm c[] = {L1(5 + shift, 1)};
        get_case(&s_contig, (char *)X, 8, 1, c, 1000);
        get_case(&s_contig, (char *)X, 8, 1, c, 5);
        lm st[] = {L1(1 + shift, 3)};
        get_case(&s_strided, (char *)X, 8, 1, st, 700);
        get_case(&s_strided, (char *)X, 8, 1, st, 5);
        lm rows[] = {L2(shift, 64, 1, 48)};  /* 48 of every 64 */
        get_case(&s_rows, (char *)X, 8, 1, rows, 100);
        get_case(&s_rows, (char *)X, 8, 1, rows, 5);
        lm sten[] = {L1(shift, 1), L1(shift + 1, 1), L1(shift + 2, 1)};
        get_case(&s_stencil, (char *)X, 8, 3, sten, 2000);
        get_case(&s_stencil, (char *)X, 8, 3, sten, 5);
        lm neg[] = {L1(3000 - shift, -1), L1(3001 - shift, -1)};
        get_case(&s_neg, (char *)X, 8, 2, neg, 999);
        lm neg2[] = {L1(300, -7)};
        get_case(&s_neg, (char *)X, 8, 1, neg2, 5);
        get_case(&s_trip0, (char *)X, 8, 1, c, 0);
        lm col[] = {L2(7 + shift, 100, 1, 1)};
        get_case(&s_cols, (char *)X, 8, 1, col, 80);
        lm ys[] = {L1(2 + shift, 5), L1(4 + shift, 5)};
        get_case(&s_int, (char *)Y, 4, 2, ys, 300);
        lm zs[] = {L1(1 + shift, 3)};
        get_case(&s_z, Z, 12, 1, zs, 500);
        get_case(&s_z, Z, 12, 1, zs, 5);
        lm cross[] = {L2(1 + 64, 64, 1, 30), L2(64 + 64, 64, 1, 30), L2(64 + 65, 64, 1, 30), L2(64 + 66, 64, 1, 30),
                      L2(65 + 128, 64, 1, 30)};  /* 5-point stencil over rows of 64 */
        get_case(&s_cross, (char *)X, 8, 5, cross, 40);
        lm zero[] = {L2(10, 0, 1, 33)};
        get_case(&s_zero, (char *)X, 8, 1, zero, 9);
        lm heavy[] = {L1(0, 1)};
        get_case(&s_heavy, (char *)X, 8, 1, heavy, 8000);

        lm pc[] = {L1(4 + shift, 1)};
        put_case(&p_contig, (char *)D1, (char *)D2, 8, 1, pc, 1500, NULL);
        put_case(&p_contig, (char *)D1, (char *)D2, 8, 1, pc, 5, NULL);
        lm ps[] = {L1(2, 4)};
        put_case(&p_strided, (char *)D1, (char *)D2, 8, 1, ps, 600, NULL);
        lm pr[] = {L2(1, 50, 1, 30)};
        put_case(&p_rows, (char *)D1, (char *)D2, 8, 1, pr, 100, NULL);
        put_case(&p_rows, (char *)D1, (char *)D2, 8, 1, pr, 5, NULL);
        lm pn[] = {L1(4000, -3)};
        put_case(&p_neg, (char *)D1, (char *)D2, 8, 1, pn, 1000, NULL);
        lm pp[] = {L1(10, 2), L1(11, 2)};
        put_case(&p_pair, (char *)D1, (char *)D2, 8, 2, pp, 777, NULL);
        lm pz[] = {L2(20, 0, 1, 16)};  /* every iteration writes the same 16: one strip */
        put_case(&p_zero, (char *)D1, (char *)D2, 8, 1, pz, 12, NULL);
        lm pi[] = {L1(3, 3)};
        put_case(&p_int, (char *)D1, (char *)D2, 4, 1, pi, 900, NULL);
        lm p12[] = {L1(1, 2)};
        put_case(&p_z, Z1, Z2, 12, 1, p12, 400, NULL);
        put_case(&s_empty, (char *)D1, (char *)D2, 8, 1, pc, 0, NULL);
        /* from a source: rows put from rows of S shifted (taken), and from every other element
         * of S (strides differ: the buffer) */
        lm prs[] = {L2(1, 50, 1, 30)}, rows_of_s = L2(7, 50, 1, 30), other = L2(3, 100, 2, 30);
        put_case(&p_source, (char *)D1, (char *)D2, 8, 1, prs, 100, &rows_of_s);
        put_case(&p_source_strided, (char *)D1, (char *)D2, 8, 1, prs, 60, &other);

        mixed_case(&m_site, 3000);
        mixed_case(&m_site, 5);
        recursive_case(&r_site, 0);
    }
    shmem_barrier_all();
    printf("pe %d: %d cases ok\n", me, cases);
    shmem_finalize();
    return 0;
}
