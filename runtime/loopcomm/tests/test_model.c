/* Unit tests of model.c and of plan.c's choice of strips: kinds by pattern, strips by
 * computation, the PUT fallback. */
#include <string.h>

#include "bamboo_loopcomm.h"
#include "check.h"
#include "model.h"
#include "plan.h"

/* An InfiniBand-like machine: cheap nonblocking issue, a few µs of latency, GB/s. */
static lc_params machine(void)
{
    lc_params p;
    lc_params_defaults(&p);
    p.prim[LC_GET_NBI] = (lc_loggp){0.2, 0.3, 0.0004, 3.0};
    p.prim[LC_PUT_NBI] = (lc_loggp){0.2, 0.3, 0.0004, 3.0};
    p.prim[LC_IGET] = (lc_loggp){4.0, 4.0, 0.001, 0.0};
    p.prim[LC_IPUT] = (lc_loggp){1.0, 1.0, 0.001, 3.0};
    p.t_op_ns = 1.0;
    return p;
}

static lc_region region(long off, long run, long stride, long count)
{
    lc_region r;
    memset(&r, 0, sizeof r);
    r.offset = off;
    r.run = run;
    if (count > 1) {
        r.dims = 1;
        r.stride[0] = stride;
        r.count[0] = count;
    }
    return r;
}

static void test_kinds(void)
{
    lc_params p = machine();
    double cost, span, pieces;
    lc_region contiguous = region(0, 4096, 0, 1);
    span = lc_region_cost(&p, &contiguous, 8, 0, LC_KIND_SPAN, NULL);
    pieces = lc_region_cost(&p, &contiguous, 8, 0, LC_KIND_PIECES, NULL);
    CHECK(span == pieces);
    CHECK(lc_choose_kind(&p, &contiguous, 8, 0, LC_KIND_MODEL, &cost, NULL) == LC_KIND_PIECES && cost == pieces);

    lc_region singles = region(0, 1, 100, 1000);  /* one double every 100 */
    CHECK(lc_choose_kind(&p, &singles, 8, 0, LC_KIND_MODEL, NULL, NULL) == LC_KIND_STRIDED);
    CHECK(lc_choose_kind(&p, &singles, 8, 1, LC_KIND_MODEL, NULL, NULL) == LC_KIND_STRIDED);
    long per;
    CHECK(lc_strided_calls(&singles, &per) == 1 && per == 1000);

    lc_region long_runs = region(0, 2048, 1 << 20, 8);  /* 16 KB runs, 8 MB apart */
    CHECK(lc_choose_kind(&p, &long_runs, 8, 0, LC_KIND_MODEL, NULL, NULL) == LC_KIND_PIECES);
    CHECK(lc_strided_calls(&long_runs, &per) == 2048 && per == 8);

    lc_region dense_holes = region(0, 6, 8, 500);  /* 6 of every 8: the span is cheaper */
    CHECK(lc_choose_kind(&p, &dense_holes, 8, 0, LC_KIND_MODEL, NULL, NULL) == LC_KIND_SPAN);
    CHECK(lc_choose_kind(&p, &dense_holes, 8, 1, LC_KIND_MODEL, NULL, NULL) != LC_KIND_SPAN);

    /* forcing: honoured where it applies, ignored where not */
    CHECK(lc_choose_kind(&p, &singles, 8, 0, LC_KIND_PIECES, NULL, NULL) == LC_KIND_PIECES);
    CHECK(lc_choose_kind(&p, &singles, 8, 1, LC_KIND_SPAN, NULL, NULL) != LC_KIND_SPAN);
    CHECK(!lc_kind_applies(LC_KIND_STRIDED, &singles, 12, 0));
    CHECK(lc_choose_kind(&p, &singles, 12, 0, LC_KIND_STRIDED, NULL, NULL) != LC_KIND_STRIDED);
    CHECK(lc_kind_applies(LC_KIND_STRIDED, &singles, 16, 0) && lc_kind_applies(LC_KIND_STRIDED, &singles, 4, 1));

    double cpu;
    double t = lc_prim_cost(&p, LC_GET_NBI, 10, 1000, &cpu);
    CHECK(t == 3.0 + 0.2 + 9 * 0.3 + 0.4 && cpu == 10 * 0.2);
    t = lc_prim_cost(&p, LC_IGET, 3, 0, &cpu);
    CHECK(cpu == t);
    p.prim[LC_GET_NBI].Gcpu = 0.01;  /* issue costs more than the model says it all takes: capped */
    t = lc_prim_cost(&p, LC_GET_NBI, 10, 1000, &cpu);
    CHECK(cpu == t);
    p.prim[LC_GET_NBI].Gcpu = 0.0001;
    lc_prim_cost(&p, LC_GET_NBI, 10, 1000, &cpu);
    CHECK(cpu == 10 * 0.2 + 0.1);
}

static lc_ref get_ref(long count)
{
    lc_ref r;
    memset(&r, 0, sizeof r);
    r.direction = BAMBOO_LC_GET;
    r.remote = (void *)0x100;
    r.elem_size = 8;
    r.dims = 1;
    r.stride[0] = 1;
    r.count[0] = count;
    return r;
}

static long strips_for(const lc_params *p, lc_ref *refs, int n, long trip, double compute_us, int *fallback)
{
    lc_group *g;
    int ng = lc_groups_build(refs, n, trip, &g);
    long s = lc_choose_strips(p, refs, n, g, ng, trip, compute_us, 0, LC_KIND_MODEL, fallback);
    lc_groups_free(g, ng);
    return s;
}

static void test_strips(void)
{
    lc_params p = machine();
    int fb;
    lc_ref r = get_ref(1 << 20);  /* 8 MiB of doubles */
    CHECK(strips_for(&p, &r, 1, 1 << 20, 0, &fb) == 1 && fb == 0);
    long many = strips_for(&p, &r, 1, 1 << 20, 1e6, &fb);  /* a second of computation */
    CHECK(many > 1);
    long more = strips_for(&p, &r, 1, 1 << 20, 3400, &fb);  /* about as long as the transfer */
    CHECK(more > 1);
    CHECK(strips_for(&p, &r, 1, 1, 1e9, &fb) == 1);           /* trip 1: one strip */
    CHECK(strips_for(&p, &r, 1, 0, 1e9, &fb) == 0);           /* trip 0: none */
    CHECK(strips_for(&p, &r, 1, 100000, 1e9, &fb) <= LC_MAX_STRIPS);

    /* more strips never model slower than they are: the choice is the minimum */
    lc_group *g;
    int ng = lc_groups_build(&r, 1, 1 << 20, &g);
    double t1 = lc_plan_time(&p, &r, g, ng, 1 << 20, 1e6, 1, LC_KIND_MODEL);
    double tm = lc_plan_time(&p, &r, g, ng, 1 << 20, 1e6, many, LC_KIND_MODEL);
    CHECK(tm < t1);
    /* a quiet without the read-back get (no shared memory) costs every strip one round trip less */
    lc_params tcp = p;
    tcp.quiet_reads_back = 0;
    double per_strip = lc_prim_cost(&p, LC_GET, 1, 1.0, NULL);
    double tcp_m = lc_plan_time(&tcp, &r, g, ng, 1 << 20, 1e6, many, LC_KIND_MODEL);
    CHECK(tcp_m < tm && tcp_m > tm - (double)(many + 1) * per_strip - 1e-6);
    CHECK(lc_choose_strips(&p, &r, 1, g, ng, 1 << 20, 1e6, 7, LC_KIND_MODEL, &fb) == 7);
    CHECK(lc_choose_strips(&p, &r, 1, g, ng, 5, 1e6, 7, LC_KIND_MODEL, &fb) == 5);  /* clamped */
    lc_groups_free(g, ng);

    /* A PUT whose strips could write the same element: one strip, and why */
    lc_ref put = get_ref(1000);
    put.direction = BAMBOO_LC_PUT;
    put.stride[0] = 0;
    CHECK(strips_for(&p, &put, 1, 1000, 1e6, &fb) == 1 && (fb & LC_FB_PUT_OVERLAP));
    char text[64];
    lc_fallback_text(fb, text, sizeof text);
    CHECK(strcmp(text, "put-overlap") == 0);
    lc_fallback_text(0, text, sizeof text);
    CHECK(strcmp(text, "none") == 0);
    put.stride[0] = 1;
    CHECK(strips_for(&p, &put, 1, 1 << 20, 1e6, &fb) > 1 && fb == 0);

    /* schedule A */
    CHECK(lc_schedule_time(1, 100, 10, 0, 0, 0) == 110);
    CHECK(lc_schedule_time(4, 100, 10, 5, 1, 0) == 10 + 3 * (1 + 25) + 25);
    CHECK(lc_schedule_time(4, 0, 10, 5, 1, 2) == 10 + 3 * (1 + 4) + 0 + 2);
}

int main(void)
{
    test_kinds();
    test_strips();
    return CHECK_DONE("test_model");
}
