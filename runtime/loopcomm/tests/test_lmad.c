/* Unit tests of lmad.c and of plan.c's strips of a group: normalisation, strips, unions,
 * dedupe across strips, negative and zero strides, run patterns; and, on random LMADs, that
 * a region is exactly the set of elements its LMAD touches. */
#include <stdlib.h>
#include <string.h>

#include "bamboo_loopcomm.h"
#include "check.h"
#include "lmad.h"
#include "plan.h"

static lc_region lmad(long off, int dims, const long *s, const long *c, long first, long last)
{
    lc_region r;
    lc_region_from_lmad(&r, off, dims, s, c, first, last);
    return r;
}

/* Elements of a region as a membership array over [base, base + size). */
static void mark(long start, long len, void *ctx)
{
    long *m = ctx;  /* m[0] = base, m[1] = size, then flags */
    for (long e = start; e < start + len; e++)
        if (e - m[0] >= 0 && e - m[0] < m[1])
            m[2 + e - m[0]]++;
}

static void test_normalisation(void)
{
    long s1[] = {-1}, c1[] = {5};
    lc_region r = lmad(10, 1, s1, c1, 0, 5);  /* 10, 9, 8, 7, 6 */
    CHECK(lc_region_regular(&r) && r.offset == 6 && r.run == 5 && r.dims == 0);
    CHECK(lc_region_lo(&r) == 6 && lc_region_hi(&r) == 10 && lc_region_runs(&r) == 1);

    long s2[] = {0, 3, 1}, c2[] = {7, 1, 1};  /* zero stride and counts of 1: one element */
    r = lmad(4, 3, s2, c2, 0, 7);
    CHECK(r.offset == 4 && r.run == 1 && r.dims == 0 && lc_region_elements(&r) == 1);

    long s3[] = {8, 1}, c3[] = {4, 8};  /* rows of a dense 4x8: one run */
    r = lmad(0, 2, s3, c3, 0, 4);
    CHECK(r.run == 32 && r.dims == 0);

    long s4[] = {1, 8}, c4[] = {8, 4};  /* the same, dims the other way round */
    r = lmad(0, 2, s4, c4, 0, 8);
    CHECK(r.run == 32 && r.dims == 0);

    long s5[] = {3}, c5[] = {4};  /* a run of 1 every 3 */
    r = lmad(2, 1, s5, c5, 0, 4);
    CHECK(r.run == 1 && r.dims == 1 && r.stride[0] == 3 && r.count[0] == 4);
    CHECK(lc_region_run_stride(&r) == 3 && lc_region_runs(&r) == 4 && lc_region_hi(&r) == 11);

    long s6[] = {10, 1}, c6[] = {5, 3};  /* 5 runs of 3 every 10 */
    r = lmad(0, 2, s6, c6, 0, 5);
    CHECK(r.run == 3 && r.dims == 1 && r.stride[0] == 10 && r.count[0] == 5);

    long s7[] = {2, 4}, c7[] = {10, 3};  /* 2t + 4u: the even numbers 0..26, coalesced */
    r = lmad(0, 2, s7, c7, 0, 10);
    CHECK(r.run == 1 && r.dims == 1 && r.stride[0] == 2 && r.count[0] == 14);

    long s8[] = {1}, c8[] = {0};
    r = lmad(0, 1, s8, c8, 0, 0);
    CHECK(lc_region_empty(&r) && lc_region_runs(&r) == 0);
}

static void test_strips(void)
{
    long s[] = {10, 1}, c[] = {5, 3};
    lc_region r = lmad(0, 2, s, c, 2, 4);  /* rows 2 and 3 */
    CHECK(r.offset == 20 && r.run == 3 && r.dims == 1 && r.stride[0] == 10 && r.count[0] == 2);
    r = lmad(0, 2, s, c, 4, 99);           /* clipped to the trip count */
    CHECK(r.offset == 40 && r.run == 3 && r.dims == 0);
    r = lmad(0, 2, s, c, 5, 9);
    CHECK(lc_region_empty(&r));

    long n[] = {-2}, cn[] = {10};          /* 100, 98, ... */
    r = lmad(100, 1, n, cn, 0, 3);         /* 100, 98, 96 */
    CHECK(r.offset == 96 && r.run == 1 && r.dims == 1 && r.stride[0] == 2 && r.count[0] == 3);
    r = lmad(100, 1, n, cn, 3, 10);        /* 94 .. 82 */
    CHECK(r.offset == 82 && lc_region_hi(&r) == 94 && r.count[0] == 7);

    CHECK(lc_strip_first(10, 3, 0) == 0 && lc_strip_first(10, 3, 1) == 4 && lc_strip_first(10, 3, 2) == 7 &&
          lc_strip_first(10, 3, 3) == 10);
    CHECK(lc_strip_first(3, 3, 2) == 2 && lc_strip_first(0, 0, 0) == 0);
}

static void test_union(void)
{
    long s[] = {1}, c[] = {100};
    lc_region rs[3] = {lmad(-1, 1, s, c, 0, 100), lmad(0, 1, s, c, 0, 100), lmad(1, 1, s, c, 0, 100)};
    int n = lc_region_union(rs, 3);  /* x[i-1], x[i], x[i+1] */
    CHECK(n == 1 && rs[0].offset == -1 && rs[0].run == 102 && rs[0].dims == 0);

    long s2[] = {64, 1}, c2[] = {10, 32};  /* rows i and i+1 of a 2-D array */
    lc_region rows[2] = {lmad(0, 2, s2, c2, 0, 10), lmad(64, 2, s2, c2, 0, 10)};
    n = lc_region_union(rows, 2);
    CHECK(n == 1 && rows[0].run == 32 && rows[0].dims == 1 && rows[0].count[0] == 11);

    long s3[] = {2}, c3[] = {50};  /* x[2i], x[2i+1]: one run */
    lc_region pair[2] = {lmad(0, 1, s3, c3, 0, 50), lmad(1, 1, s3, c3, 0, 50)};
    n = lc_region_union(pair, 2);
    CHECK(n == 1 && pair[0].run == 100 && pair[0].dims == 0);

    long a[] = {1}, ca[] = {10}, cb[] = {15};  /* [0,10) and [5,20): once */
    lc_region ov[2] = {lmad(0, 1, a, ca, 0, 10), lmad(5, 1, a, cb, 0, 15)};
    n = lc_region_union(ov, 2);
    CHECK(n == 1 && lc_region_elements(&ov[0]) == 20 && lc_region_runs(&ov[0]) == 1);

    long d[] = {1}, cd[] = {3};  /* far apart: two regions, untouched */
    lc_region far[2] = {lmad(0, 1, d, cd, 0, 3), lmad(1000, 1, d, cd, 0, 3)};
    n = lc_region_union(far, 2);
    CHECK(n == 2 && lc_region_regular(&far[0]) && lc_region_regular(&far[1]));

    /* a 5-point stencil over rows 1..8 of a 10x10 array: a cross, no regular form; every
     * element once */
    long s5[] = {10, 1}, c5[] = {8, 8};
    long offs[] = {11 - 10, 11 - 1, 11, 11 + 1, 11 + 10};
    lc_region st[5];
    for (int i = 0; i < 5; i++)
        st[i] = lmad(offs[i], 2, s5, c5, 0, 8);
    n = lc_region_union(st, 5);
    long m[2 + 100] = {0, 100};
    long total = 0;
    for (int i = 0; i < n; i++) {
        lc_region_each_run(&st[i], 0, 99, mark, m);
        total += lc_region_elements(&st[i]);
    }
    int once = 1;
    long expect = 0;
    for (long e = 0; e < 100; e++) {
        long row = e / 10, col = e % 10;
        int in = (row >= 1 && row <= 8 && col >= 1 && col <= 8) || (row == 0 && col >= 1 && col <= 8) ||
                 (row == 9 && col >= 1 && col <= 8) || (col == 0 && row >= 1 && row <= 8) ||
                 (col == 9 && row >= 1 && row <= 8);
        expect += in;
        once &= m[2 + e] == in;
    }
    CHECK(once && total == expect);
    for (int i = 0; i < n; i++)
        lc_region_free(&st[i]);
}

static lc_ref ref1(int dir, long off, long stride, long count)
{
    lc_ref r;
    memset(&r, 0, sizeof r);
    r.direction = dir;
    r.remote = (void *)0x1000;
    r.elem_size = 8;
    r.offset = off;
    r.dims = 1;
    r.stride[0] = stride;
    r.count[0] = count;
    return r;
}

static void test_dedupe_across_strips(void)
{
    lc_ref refs[3] = {ref1(BAMBOO_LC_GET, -1, 1, 8), ref1(BAMBOO_LC_GET, 0, 1, 8), ref1(BAMBOO_LC_GET, 1, 1, 8)};
    lc_group *g;
    int ng = lc_groups_build(refs, 3, 8, &g);
    CHECK(ng == 1 && g[0].lo == -1 && g[0].hi == 8 && g[0].monotone == 1);
    lc_strip_set scratch;
    const lc_strip_set *s0 = lc_group_next_strip(refs, &g[0], 0, 4, &scratch);  /* needs -1..4 */
    CHECK(s0->n == 1 && s0->r[0].offset == -1 && s0->r[0].run == 6);
    const lc_strip_set *s1 = lc_group_next_strip(refs, &g[0], 4, 8, &scratch);  /* needs 3..8 */
    CHECK(s1->n == 1 && s1->r[0].offset == 5 && s1->r[0].run == 4);
    lc_groups_free(g, ng);

    /* zero outer stride: every strip needs the same elements; only strip 0 moves them */
    lc_ref z = ref1(BAMBOO_LC_GET, 7, 0, 6);
    z.dims = 2;
    z.stride[1] = 1;
    z.count[1] = 4;
    ng = lc_groups_build(&z, 1, 6, &g);
    s0 = lc_group_next_strip(&z, &g[0], 0, 2, &scratch);
    CHECK(s0->n == 1 && s0->r[0].offset == 7 && s0->r[0].run == 4);
    s1 = lc_group_next_strip(&z, &g[0], 2, 4, &scratch);
    CHECK(s1->n == 0);
    lc_groups_free(g, ng);

    /* negative stride stencil: strips walk down */
    lc_ref down[2] = {ref1(BAMBOO_LC_GET, 100, -1, 10), ref1(BAMBOO_LC_GET, 101, -1, 10)};
    ng = lc_groups_build(down, 2, 10, &g);
    CHECK(g[0].monotone == -1 && g[0].lo == 91 && g[0].hi == 101);
    s0 = lc_group_next_strip(down, &g[0], 0, 5, &scratch);  /* 96..101 */
    s1 = lc_group_next_strip(down, &g[0], 5, 10, &scratch); /* 91..96 minus 96 */
    CHECK(s0->n == 1 && s0->r[0].offset == 96 && s0->r[0].run == 6);
    CHECK(s1->n == 1 && s1->r[0].offset == 91 && s1->r[0].run == 5);
    lc_groups_free(g, ng);

    /* a PUT group is never deduped across strips (the translator forbids overlap) */
    lc_ref p = ref1(BAMBOO_LC_PUT, 0, 1, 8);
    CHECK(!lc_put_may_overlap(&p, 8));
    lc_ref pz = ref1(BAMBOO_LC_PUT, 0, 0, 8);
    CHECK(lc_put_may_overlap(&pz, 8) && !lc_put_may_overlap(&pz, 1));
    lc_ref rows = ref1(BAMBOO_LC_PUT, 0, 10, 5);
    rows.dims = 2;
    rows.stride[1] = 1;
    rows.count[1] = 10;
    CHECK(!lc_put_may_overlap(&rows, 5));
    rows.count[1] = 11;
    CHECK(lc_put_may_overlap(&rows, 5));
}

/* Random LMADs (strides -9..9, including zero): the region of every strip holds exactly the
 * elements its LMAD touches, and a group's strips, deduped, move every needed element by the
 * strip that needs it and none twice. */
#define NM 400
static void test_random(void)
{
    srand(4);
    int exact = 1, covered = 1, twice = 0;
    for (int iter = 0; iter < 5000; iter++) {
        int nrefs = 1 + rand() % 3;
        lc_ref refs[3];
        long trip = 1 + rand() % 9;
        for (int i = 0; i < nrefs; i++) {
            memset(&refs[i], 0, sizeof refs[i]);
            refs[i].direction = BAMBOO_LC_GET;
            refs[i].remote = (void *)0x10;
            refs[i].elem_size = 8;
            refs[i].offset = 200 + rand() % 7 - 3;
            refs[i].dims = 1 + rand() % 3;
            refs[i].count[0] = trip;
            for (int d = 0; d < refs[i].dims; d++) {
                refs[i].stride[d] = rand() % 19 - 9;
                if (d > 0)
                    refs[i].count[d] = 1 + rand() % 4;
            }
        }
        long strips = 1 + rand() % (int)trip;
        lc_group *g;
        int ng = lc_groups_build(refs, nrefs, trip, &g);
        long fetched[2 + NM] = {0, NM};
        for (long k = 0; k < strips; k++) {
            long first = lc_strip_first(trip, strips, k), last = lc_strip_first(trip, strips, k + 1);
            long need[2 + NM] = {0, NM};
            for (int i = 0; i < nrefs; i++) {
                lc_region r = lmad(refs[i].offset, refs[i].dims, refs[i].stride, refs[i].count, first, last);
                long got[2 + NM] = {0, NM}, brute[NM] = {0};
                lc_region_each_run(&r, 0, NM - 1, mark, got);
                long t[4] = {0};
                for (t[0] = first; t[0] < last; t[0]++)
                    for (t[1] = 0; t[1] < (refs[i].dims > 1 ? refs[i].count[1] : 1); t[1]++)
                        for (t[2] = 0; t[2] < (refs[i].dims > 2 ? refs[i].count[2] : 1); t[2]++) {
                            long e = refs[i].offset;
                            for (int d = 0; d < refs[i].dims; d++)
                                e += refs[i].stride[d] * t[d];
                            brute[e] = 1;
                            need[2 + e] = 1;
                        }
                for (int e = 0; e < NM; e++)
                    exact &= (got[2 + e] > 0) == brute[e];
                lc_region_free(&r);
            }
            lc_strip_set scratch;
            const lc_strip_set *s = lc_group_next_strip(refs, &g[0], first, last, &scratch);
            long now[2 + NM] = {0, NM};
            for (int i = 0; i < s->n; i++)
                lc_region_each_run(&s->r[i], 0, NM - 1, mark, now);
            for (int e = 0; e < NM; e++) {
                if (now[2 + e] && fetched[2 + e])
                    twice++;
                fetched[2 + e] += now[2 + e] > 0;
                covered &= !need[2 + e] || fetched[2 + e];
            }
        }
        lc_groups_free(g, ng);
    }
    CHECK(exact);
    CHECK(covered);
    CHECK(twice == 0);
}

int main(void)
{
    test_normalisation();
    test_strips();
    test_union();
    test_dedupe_across_strips();
    test_random();
    return CHECK_DONE("test_lmad");
}
