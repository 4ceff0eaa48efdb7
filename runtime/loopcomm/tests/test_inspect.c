/* Unit tests of inspect.c (each element in the strip of its first need, every element once)
 * and of an inspected group in plan.c (its own group over the touched span, the model's cost). */
#include <stdlib.h>

#include "check.h"
#include "inspect.h"
#include "plan.h"

/* The elements strip k moves, flattened: out[i], returns how many. */
static long strip_elements(lc_inspection *x, long trip, long strips, long k, long *out)
{
    const lc_runs *runs = lc_inspection_strip(x, trip, strips, k);
    long n = 0;
    for (long i = 0; i < runs->n; i++)
        for (long e = runs->r[i].start; e < runs->r[i].start + runs->r[i].len; e++)
            out[n++] = e;
    return n;
}

int main(void)
{
    /* CSR-like: iteration t reads elements col[start[t]..start[t+1]) (repeats included) */
    const long start[] = {0, 3, 5, 9, 10};
    const long col[] = {7, 3, 7, 4, 12, 3, 20, 21, 5, 12};
    lc_inspection x = {0};
    for (long t = 0; t < 4; t++)
        for (long k = start[t]; k < start[t + 1]; k++)
            bamboo_lc_see(&x.seen, t, col[k]);
    lc_inspection_finish(&x, 4);
    CHECK(x.lo == 3 && x.len == 19);      /* 3 .. 21 */
    CHECK(x.touched == 7 && x.accesses == 10);
    CHECK(x.first[7 - 3] == 0 && x.first[3 - 3] == 0 && x.first[4 - 3] == 1);
    CHECK(x.first[12 - 3] == 1 && x.first[20 - 3] == 2 && x.first[5 - 3] == 2);
    CHECK(x.first[6 - 3] == LC_UNTOUCHED && x.last_first == 2);

    long e[32], n;
    /* one strip: everything touched, sorted, once */
    n = strip_elements(&x, 4, 1, 0, e);
    CHECK(n == 7 && e[0] == 3 && e[1] == 4 && e[2] == 5 && e[3] == 7 && e[6] == 21);
    CHECK(lc_inspection_strip(&x, 4, 1, 0)->n == 4);   /* runs 3-5, 7, 12, 20-21 */
    /* two strips of 2 iterations: strip 1 moves only what strip 0 did not */
    n = strip_elements(&x, 4, 2, 0, e);
    CHECK(n == 4 && e[0] == 3 && e[1] == 4 && e[2] == 7 && e[3] == 12);
    n = strip_elements(&x, 4, 2, 1, e);
    CHECK(n == 3 && e[0] == 5 && e[1] == 20 && e[2] == 21);
    /* three strips of 4 iterations: 2, 1, 1 (as lc_strip_first splits them) */
    n = strip_elements(&x, 4, 3, 0, e);
    CHECK(n == 4);
    n = strip_elements(&x, 4, 3, 1, e);
    CHECK(n == 3 && e[0] == 5);
    n = strip_elements(&x, 4, 3, 2, e);
    CHECK(n == 0);
    /* the model counts them without a scan */
    CHECK(lc_inspection_needed(&x, 0, 4) == 7 && lc_inspection_needed(&x, 2, 4) == 3);
    CHECK(lc_inspection_needed(&x, 1, 2) == 2 && lc_inspection_needed(&x, 3, 4) == 0);
    CHECK(lc_inspection_needed(&x, 0, 99) == 7 && lc_inspection_needed(&x, 2, 2) == 0);

    /* as a group: its own, spanning the touched elements; strips as the inspection splits them */
    lc_ref refs[2] = {{0}};
    refs[0].direction = refs[1].direction = 0;
    refs[0].remote = refs[1].remote = (const void *)0x1000;
    refs[0].elem_size = refs[1].elem_size = 8;
    refs[0].inspected = 1;
    refs[0].inspection = &x;
    refs[1].dims = 1;                      /* an affine x[t] beside it: another group */
    refs[1].stride[0] = 1;
    refs[1].count[0] = 4;
    lc_group *g;
    int ng = lc_groups_build(refs, 2, 4, &g);
    CHECK(ng == 2 && refs[0].group != refs[1].group);
    const lc_group *ig = &g[refs[0].group];
    CHECK(ig->inspection == &x && ig->lo == 3 && ig->hi == 21 && ig->all_arrived_at == -1);
    CHECK(ig->spanned_lo > ig->spanned_hi);
    /* the model: with pieces forced, strip 1 of 2 moves its 3 elements in 2 runs' worth; a
     * span at strip 0 leaves strip 1 nothing */
    lc_params p;
    lc_params_defaults(&p);
    p.quiet_reads_back = 0;
    lc_group alone = *ig;
    double one = lc_plan_time(&p, refs, &alone, 1, 4, 0.0, 1, LC_KIND_PIECES);
    double pieces = lc_plan_time(&p, refs, &alone, 1, 4, 0.0, 2, LC_KIND_PIECES);
    double span = lc_plan_time(&p, refs, &alone, 1, 4, 0.0, 2, LC_KIND_SPAN);
    const lc_loggp *nbi = &p.prim[LC_GET_NBI];
    CHECK(one > 0 && pieces > one);   /* nothing to overlap: the second strip only costs */
    CHECK(span == nbi->L + nbi->o + nbi->G * 19 * 8);   /* strip 0's span, strip 1 nothing */
    lc_groups_free(g, ng);

    /* nothing seen: an empty span, no strip moves anything */
    lc_inspection none = {0};
    lc_inspection_finish(&none, 5);
    CHECK(none.len == 0 && none.touched == 0 && lc_inspection_strip(&none, 5, 2, 1)->n == 0);
    lc_inspection_free(&none);
    /* iterations past the table's range share its last value, still below untouched */
    lc_inspection far = {0};
    bamboo_lc_see(&far.seen, 1L << 40, -5);
    bamboo_lc_see(&far.seen, 2, 5000);      /* above the window: widened */
    bamboo_lc_see(&far.seen, 3, -3000);     /* below it */
    lc_inspection_finish(&far, 4);
    CHECK(far.lo == -3000 && far.len == 8001 && far.touched == 3 && far.accesses == 3);
    CHECK(far.first[0] == 3 && far.first[2995] == LC_UNTOUCHED - 1 && far.first[8000] == 2);
    CHECK(!far.too_wide && far.last_first == LC_UNTOUCHED - 1);
    lc_inspection_free(&far);
    /* wider than the runtime buffers: nothing kept, said */
    lc_inspection wide = {0};
    bamboo_lc_see(&wide.seen, 0, 0);
    bamboo_lc_see(&wide.seen, 1, LC_MAX_INSPECTED_SPAN);
    bamboo_lc_see(&wide.seen, 2, 7);
    lc_inspection_finish(&wide, 3);
    CHECK(wide.too_wide && wide.len == 0 && wide.touched == 0 && wide.accesses == 3);
    lc_inspection_free(&wide);
    lc_inspection_free(&x);
    return CHECK_DONE("test_inspect");
}
