/* plan.c: groups, strips and the choice of their number (plan.h). */
#include "plan.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bamboo_loopcomm.h"

static void ref_region(const lc_ref *r, long first, long last, lc_region *out)
{
    lc_region_from_lmad(out, r->offset, r->dims, r->stride, r->count, first, last);
}

int lc_groups_build(lc_ref *refs, int nrefs, long trip, lc_group **out)
{
    lc_group *g = NULL;
    int n = 0;
    for (int i = 0; i < nrefs; i++) {
        lc_ref *r = &refs[i];
        int k = 0;
        while (k < n && !(g[k].direction == r->direction && g[k].remote == r->remote &&
                          g[k].elem_size == r->elem_size && g[k].pe == r->pe && !g[k].source &&
                          !r->source && !g[k].inspection && !r->inspected))
            k++;
        if (k == n) {
            g = lc_xrealloc(g, (size_t)(n + 1) * sizeof *g);
            memset(&g[n], 0, sizeof g[n]);
            g[n].direction = r->direction;
            g[n].remote = r->remote;
            g[n].elem_size = r->elem_size;
            g[n].pe = r->pe;
            g[n].source = r->source;
            g[n].source_shift = r->source_shift;
            g[n].inspection = r->inspection;
            g[n].all_arrived_at = -1;
            g[n].spanned_lo = 1;
            g[n].spanned_hi = 0;
            g[n].lo = 1;
            g[n].hi = 0;  /* empty until a reference covers something */
            n++;
        }
        lc_group *grp = &g[k];
        if (grp->nrefs == grp->cap) {
            grp->cap = grp->cap ? 2 * grp->cap : 4;
            grp->refs = lc_xrealloc(grp->refs, (size_t)grp->cap * sizeof *grp->refs);
        }
        grp->refs[grp->nrefs++] = i;
        r->group = k;
        if (r->inspected) {
            if (r->inspection->len > 0) {
                grp->lo = r->inspection->lo;
                grp->hi = r->inspection->lo + r->inspection->len - 1;
            }
            continue;
        }
        int walk = r->dims == 0 || r->stride[0] == 0 ? 0 : (r->stride[0] > 0 ? 1 : -1);
        grp->monotone = grp->nrefs == 1 ? walk : (grp->monotone == walk ? walk : 0);
        lc_region whole;
        ref_region(r, 0, trip, &whole);
        if (!lc_region_empty(&whole)) {
            long lo = lc_region_lo(&whole), hi = lc_region_hi(&whole);
            if (grp->lo > grp->hi) {
                grp->lo = lo;
                grp->hi = hi;
            } else {
                if (lo < grp->lo) grp->lo = lo;
                if (hi > grp->hi) grp->hi = hi;
            }
        }
        lc_region_free(&whole);
    }
    *out = g;
    return n;
}

void lc_strip_set_free(lc_strip_set *s)
{
    for (int i = 0; i < s->n; i++)
        lc_region_free(&s->r[i]);
    free(s->r);
    memset(s, 0, sizeof *s);
}

void lc_group_forget(lc_group *g)
{
    for (long i = 0; i < g->nhist; i++)
        lc_strip_set_free(&g->hist[i]);
    g->nhist = 0;
}

void lc_groups_free(lc_group *g, int n)
{
    for (int i = 0; i < n; i++) {
        lc_group_forget(&g[i]);
        free(g[i].hist);
        free(g[i].refs);
    }
    free(g);
}

long lc_strip_first(long trip, long strips, long k)
{
    if (strips <= 0)
        return 0;
    if (k >= strips)
        return trip;
    long base = trip / strips, extra = trip % strips;
    return k * base + (k < extra ? k : extra);
}

void lc_group_strip(const lc_ref *refs, const lc_group *g, long first, long last,
                    const lc_strip_set *hist, long nhist, lc_strip_set *out)
{
    memset(out, 0, sizeof *out);
    out->cap = g->nrefs;
    out->r = lc_xrealloc(NULL, (size_t)out->cap * sizeof *out->r);
    for (int i = 0; i < g->nrefs; i++) {
        ref_region(&refs[g->refs[i]], first, last, &out->r[out->n]);
        if (lc_region_empty(&out->r[out->n]))
            continue;
        out->n++;
    }
    out->n = out->n ? lc_region_union(out->r, out->n) : 0;
    out->need_lo = 1;  /* empty span */
    out->need_hi = 0;
    for (int i = 0; i < out->n; i++) {
        long lo = lc_region_lo(&out->r[i]), hi = lc_region_hi(&out->r[i]);
        if (i == 0 || lo < out->need_lo) out->need_lo = lo;
        if (i == 0 || hi > out->need_hi) out->need_hi = hi;
    }
    if (g->direction != BAMBOO_LC_GET || out->n == 0)
        return;
    /* Elements an earlier strip fetched are in the buffer already.  Strips' spans move one
     * way when every reference walks dim 0 the same way: then the scan back stops at the
     * first earlier strip whose span lies wholly behind this one. */
    for (long j = nhist - 1; j >= 0; j--) {
        const lc_strip_set *h = &hist[j];
        if (h->need_lo > h->need_hi)
            continue;
        int behind = g->monotone > 0 ? h->need_hi < out->need_lo : g->monotone < 0 ? h->need_lo > out->need_hi : 0;
        if (behind)
            break;
        if (h->need_hi < out->need_lo || h->need_lo > out->need_hi)
            continue;
        for (int i = 0; i < out->n; i++)
            lc_region_subtract(&out->r[i], h->r, h->n);
    }
    int kept = 0;
    for (int i = 0; i < out->n; i++) {
        if (lc_region_empty(&out->r[i]))
            lc_region_free(&out->r[i]);
        else
            out->r[kept++] = out->r[i];
    }
    out->n = kept;
}

const lc_strip_set *lc_group_next_strip(const lc_ref *refs, lc_group *g, long first, long last,
                                        lc_strip_set *scratch)
{
    if (g->direction != BAMBOO_LC_GET) {
        lc_group_strip(refs, g, first, last, NULL, 0, scratch);
        return scratch;
    }
    if (g->nhist == g->hist_cap) {
        g->hist_cap = g->hist_cap ? 2 * g->hist_cap : 8;
        g->hist = lc_xrealloc(g->hist, (size_t)g->hist_cap * sizeof *g->hist);
    }
    lc_group_strip(refs, g, first, last, g->hist, g->nhist, &g->hist[g->nhist]);
    return &g->hist[g->nhist++];
}

int lc_put_may_overlap(const lc_ref *r, long trip)
{
    if (r->direction != BAMBOO_LC_PUT || r->dims == 0 || trip <= 1)
        return 0;
    if (r->stride[0] == 0)
        return 1;
    long inner = 0;  /* max - min element of one iteration of dim 0 */
    for (int d = 1; d < r->dims; d++)
        if (r->count[d] > 1)
            inner += labs(r->stride[d]) * (r->count[d] - 1);
    return inner >= labs(r->stride[0]);
}

void lc_fallback_text(int fallback, char *buf, size_t size)
{
    if (!fallback) {
        snprintf(buf, size, "none");
        return;
    }
    static const char *const names[] = {"put-overlap", "kind-not-applicable", "indices-too-wide"};
    size_t used = 0;
    buf[0] = 0;
    for (int i = 0; i < 3; i++)
        if (fallback & (1 << i) && used < size)
            used += (size_t)snprintf(buf + used, size - used, "%s%s", used ? "," : "", names[i]);
}

/* The cost of moving a strip set of group g (sum over its regions: conservative, every
 * region pays its own latency). */
static double set_cost(const lc_params *p, const lc_group *g, const lc_strip_set *s,
                       enum lc_kind forced, double *cpu)
{
    double cost = 0, c, u;
    *cpu = 0;
    for (int i = 0; i < s->n; i++) {
        lc_choose_kind(p, &s->r[i], g->elem_size, g->direction == BAMBOO_LC_PUT, forced, &c, &u);
        cost += c;
        *cpu += u;
    }
    return cost;
}

/* What moving an inspected group's elements first needed in [first, last) costs, the cheaper
 * of one span over the group and pieces; `after_span`: an earlier strip's span moved them
 * already.  Approximate: the pieces' runs are estimated from the strip's density in the span
 * (for independent elements, a run ends where the next element is not needed), as counting
 * them exactly for every strip count tried took milliseconds per plan on CG. */
static double inspected_cost(const lc_params *p, const lc_group *g, long first, long last,
                             enum lc_kind forced, int after_span, double *cpu, int *span)
{
    const lc_inspection *x = g->inspection;
    double elements = (double)lc_inspection_needed(x, first, last);
    *cpu = 0;
    *span = 0;
    if (elements == 0 || after_span)
        return 0;
    double density = elements / (double)x->len, runs = elements * (1 - density) + 1, span_cpu;
    double as_span = lc_prim_cost(p, LC_GET_NBI, 1, (double)x->len * (double)g->elem_size, &span_cpu);
    double as_pieces = lc_prim_cost(p, LC_GET_NBI, (long)runs, elements * (double)g->elem_size, cpu);
    if (forced == LC_KIND_SPAN || (forced != LC_KIND_PIECES && as_span < as_pieces)) {
        *cpu = span_cpu;
        *span = 1;
        return as_span;
    }
    return as_pieces;
}

double lc_plan_time(const lc_params *p, const lc_ref *refs, const lc_group *g, int ng, long trip,
                    double compute_us, long strips, enum lc_kind forced_kind)
{
    if (trip <= 0 || strips <= 0)
        return 0;
    /* where every quiet (one per strip, and the end's) is followed by a blocking one-byte get
     * from each PE moved with (bamboo_shmem_quiet), a round trip per strip, all of it CPU time */
    const double settle = p->quiet_reads_back ? lc_prim_cost(p, LC_GET, 1, 1.0, NULL) : 0;
    double c0 = 0, c1 = 0, cpu1 = 0, tail = 0;
    long f1 = lc_strip_first(trip, strips, 1), f2 = lc_strip_first(trip, strips, 2);
    long fl = lc_strip_first(trip, strips, strips - 1);
    for (int i = 0; i < ng; i++) {
        lc_strip_set s0, s1;
        double cpu;
        c0 += settle;
        tail += settle;
        if (strips > 1) {
            c1 += settle;
            cpu1 += settle;
        }
        if (g[i].inspection) {
            int span;
            c0 += inspected_cost(p, &g[i], 0, f1, forced_kind, 0, &cpu, &span);
            if (strips > 1) {
                c1 += inspected_cost(p, &g[i], f1, f2, forced_kind, span, &cpu, &span);
                cpu1 += cpu;
            }
            continue;
        }
        lc_group_strip(refs, &g[i], 0, f1, NULL, 0, &s0);
        if (g[i].direction == BAMBOO_LC_GET) {
            c0 += set_cost(p, &g[i], &s0, forced_kind, &cpu);
            if (strips > 1) {  /* strip 1 stands for every later strip */
                lc_group_strip(refs, &g[i], f1, f2, &s0, 1, &s1);
                c1 += set_cost(p, &g[i], &s1, forced_kind, &cpu);
                cpu1 += cpu;
                lc_strip_set_free(&s1);
            }
        } else {
            double put = set_cost(p, &g[i], &s0, forced_kind, &cpu);
            if (strips > 1) {
                c1 += put;
                cpu1 += cpu;
                lc_strip_set sl;
                lc_group_strip(refs, &g[i], fl, trip, NULL, 0, &sl);
                tail += set_cost(p, &g[i], &sl, forced_kind, &cpu);
                lc_strip_set_free(&sl);
            } else {
                tail += put;
            }
        }
        lc_strip_set_free(&s0);
    }
    return lc_schedule_time(strips, compute_us, c0, c1, cpu1, tail);
}

long lc_choose_strips(const lc_params *p, const lc_ref *refs, int nrefs, const lc_group *g, int ng,
                      long trip, double compute_us, long forced_strips, enum lc_kind forced_kind,
                      int *fallback)
{
    *fallback = 0;
    if (trip <= 0)
        return 0;
    for (int i = 0; i < nrefs; i++)
        if (lc_put_may_overlap(&refs[i], trip)) {
            *fallback |= LC_FB_PUT_OVERLAP;
            return 1;
        }
    if (forced_strips > 0)
        return forced_strips < trip ? forced_strips : trip;
    long limit = trip < LC_MAX_STRIPS ? trip : LC_MAX_STRIPS, best = 1;
    double best_time = lc_plan_time(p, refs, g, ng, trip, compute_us, 1, forced_kind);
    for (long s = 2; s <= limit; s *= 2) {
        double t = lc_plan_time(p, refs, g, ng, trip, compute_us, s, forced_kind);
        if (t < best_time) {
            best_time = t;
            best = s;
        }
    }
    return best;
}
