/* nest.c: the API of bamboo_loopcomm.h: an execution of a nest from begin to end.
 *
 * Schedules (seed 004 Fig. 3): GETs follow schedule A, strip k+1 on its way while strip k
 * computes; PUTs are pipelined behind the computation, strip k-1 put while strip k computes.
 * advance(k) therefore: quiet (strip k's GETs, strip k-2's PUTs), issue strip k+1's GETs,
 * issue strip k-1's PUTs, in that order so that the PUTs are not made synchronous by the
 * quiet of the same call. */
#define _POSIX_C_SOURCE 200809L
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "bamboo_commdir.h"
#include "profile.h"
#include "state.h"
#include "transfer.h"

lc_settings lc_config;
lc_site_state *lc_sites;
static lc_site_state **lc_sites_tail = &lc_sites;

static double now_us(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec * 1e6 + (double)t.tv_nsec * 1e-3;
}

/* A bad setting or profile: every PE says so and ends at once, without finalizing (the
 * launcher then ends the job).  Not exit(), which waits in shmem_finalize for PEs that may
 * never get there; not only PE 0 speaking, with the others waiting: a waiting PE does not
 * progress SHMEM, PE 0 could be stuck in a get from it, and its line was lost in 3 of 8 runs
 * that way. */
static void fail(const char *what)
{
    fprintf(stderr, "bamboo_lc: error: %s\n", what);
    fflush(stderr);
    _exit(1);
}

/* A 0-or-1 variable; unset or empty: `unset`. */
static int switch_setting(const char *name, int unset)
{
    const char *v = getenv(name);
    if (!v || !*v)
        return unset;
    if (strcmp(v, "0") != 0 && strcmp(v, "1") != 0) {
        char msg[300];
        snprintf(msg, sizeof msg, "%s=%.200s: expected 0 or 1", name, v);
        fail(msg);
    }
    return v[0] == '1';
}

/* Reads the environment and the profile, once: the same values on every PE, so every PE
 * fails alike on a bad one (PE 0 says why). */
static void configure(void)
{
    static int done;
    if (done)
        return;
    done = 1;
    lc_config.my_pe = lc_xfer_my_pe();
    char msg[1200];
    const char *v = getenv("BAMBOO_LC_STRIPS");
    if (v && *v) {
        char *end;
        long n = strtol(v, &end, 10);
        if (*end || n < 1) {
            snprintf(msg, sizeof msg, "BAMBOO_LC_STRIPS=%s: expected a whole number >= 1", v);
            fail(msg);
        }
        lc_config.forced_strips = n;
    }
    lc_config.forced_kind = LC_KIND_MODEL;
    v = getenv("BAMBOO_LC_KIND");
    if (v && *v) {
        for (int k = 0; k < LC_NKINDS; k++)
            if (strcmp(v, lc_kind_names[k]) == 0)
                lc_config.forced_kind = k;
        if (lc_config.forced_kind == LC_KIND_MODEL) {
            int used = snprintf(msg, sizeof msg, "BAMBOO_LC_KIND=%s: expected ", v);
            for (int k = 0; k < LC_NKINDS && used < (int)sizeof msg; k++)
                used += snprintf(msg + used, sizeof msg - (size_t)used, "%s%s",
                                 k == 0 ? "" : k == LC_NKINDS - 1 ? " or " : ", ", lc_kind_names[k]);
            fail(msg);
        }
    }
    lc_config.report = switch_setting("BAMBOO_LC_REPORT", 0);
    lc_config.tune = switch_setting("BAMBOO_LC_TUNE", 1);
    lc_params_defaults(&lc_config.params);
    lc_config.params.quiet_reads_back = bamboo_shmem_quiet_reads_back();
    char path[1024], err[1100];
    if (lc_profile_path(path, sizeof path) != 0)
        fail("the loop communication profile's path is too long");
    int status = lc_profile_read(path, &lc_config.params, err, sizeof err);
    if (status == LC_PROFILE_BAD) {
        snprintf(msg, sizeof msg, "loop communication profile: %s", err);
        fail(msg);
    }
    if (status == LC_PROFILE_MISSING && lc_config.my_pe == 0)
        fprintf(stderr, "bamboo_lc: no loop communication profile %s; using defaults "
                        "(run bench/loopcomm/train to measure this machine)\n", path);
    if (lc_config.report)
        lc_report_register();
}

static lc_site_state *site_state(bamboo_lc_site *site)
{
    if (!site->state) {
        lc_site_state *st = calloc(1, sizeof *st);
        if (!st)
            fail("out of memory");
        st->site = site;
        *lc_sites_tail = st;
        lc_sites_tail = &st->next;
        site->state = st;
    }
    return site->state;
}

bamboo_lc_nest *bamboo_lc_begin(bamboo_lc_site *site, long trip)
{
    double t0 = now_us();
    configure();
    lc_site_state *st = site_state(site);
    bamboo_lc_nest *n = st->free_nests;
    if (n) {
        st->free_nests = n->next_free;
    } else {
        n = calloc(1, sizeof *n);
        if (!n)
            fail("out of memory");
    }
    n->st = st;
    n->trip = trip > 0 ? trip : 0;
    n->nrefs = 0;
    n->groups = NULL;
    n->ngroups = 0;
    n->strips = 0;
    n->timed = 0;
    n->gets_issued = 0;
    n->outstanding = 0;
    n->kinds_recorded = 0;
    n->compute_us = 0;
    n->computing = 0;
    n->inspection = NULL;
    n->inspecting = 0;
    n->inspect_us = 0;
    n->misses = 0;
    n->began = t0;
    st->executions++;
    st->analysis_us += now_us() - t0;
    return n;
}

int bamboo_lc_ref(bamboo_lc_nest *n, int direction, const void *remote, size_t elem_size,
                  int pe, long offset, int dims, const long *stride, const long *count)
{
    double t0 = now_us();
    if (dims < 0 || dims > BAMBOO_LC_MAX_DIMS || (direction != BAMBOO_LC_GET && direction != BAMBOO_LC_PUT) ||
        elem_size == 0) {
        char msg[200];
        snprintf(msg, sizeof msg, "%s:%d: bamboo_lc_ref: bad reference (direction %d, %d dims, element size %zu)",
                 n->st->site->file, n->st->site->line, direction, dims, elem_size);
        fail(msg);
    }
    if (n->nrefs == n->ref_cap) {
        n->ref_cap = n->ref_cap ? 2 * n->ref_cap : 4;
        n->refs = lc_xrealloc(n->refs, (size_t)n->ref_cap * sizeof *n->refs);
    }
    lc_ref *r = &n->refs[n->nrefs];
    memset(r, 0, sizeof *r);
    r->direction = direction;
    r->remote = remote;
    r->elem_size = elem_size;
    r->pe = pe;
    r->offset = offset;
    r->dims = dims;
    for (int d = 0; d < dims; d++) {
        r->stride[d] = stride[d];
        r->count[d] = count[d];
    }
    n->st->analysis_us += now_us() - t0;
    return n->nrefs++;
}

int bamboo_lc_ref_inspected(bamboo_lc_nest *n, const void *remote, size_t elem_size, int pe)
{
    int ref = bamboo_lc_ref(n, BAMBOO_LC_GET, remote, elem_size, pe, 0, 0, NULL, NULL);
    n->refs[ref].inspected = 1;
    return ref;
}

static void forget_inspection(lc_inspected *c)
{
    for (int i = 0; i < c->nx; i++)
        lc_inspection_free(&c->x[i]);
    free(c->key);
    free(c->x);
    memset(c, 0, sizeof *c);
}

/* The inspection cached under key, or the slot to inspect into (a new one, or the least
 * recently used of those no execution is using, emptied); NULL when every slot is in use. */
static lc_inspected *inspection_for(lc_site_state *st, const long *key, size_t nkey, int *found)
{
    lc_inspected *oldest = NULL;
    for (int i = 0; i < st->ninspected; i++) {
        lc_inspected *c = &st->inspected[i];
        if (c->nkey == nkey && memcmp(c->key, key, nkey * sizeof *key) == 0) {
            *found = 1;
            return c;
        }
        if (!c->in_use && (!oldest || c->used < oldest->used))
            oldest = c;
    }
    *found = 0;
    lc_inspected *c = st->ninspected < LC_MAX_INSPECTIONS ? &st->inspected[st->ninspected++] : oldest;
    if (c)
        forget_inspection(c);
    return c;
}

int bamboo_lc_inspect(bamboo_lc_nest *n, int nkey, const long *key)
{
    double t0 = now_us();
    lc_site_state *st = n->st;
    size_t full = 2 + 4 * (size_t)n->nrefs + (size_t)(nkey > 0 ? nkey : 0), k = 0;
    long *whole = lc_xrealloc(NULL, full * sizeof *whole);
    whole[k++] = n->trip;
    whole[k++] = n->nrefs;
    for (int i = 0; i < n->nrefs; i++) {
        const lc_ref *r = &n->refs[i];
        long words[4] = {(long)(uintptr_t)r->remote, r->pe, (long)r->elem_size, r->inspected};
        for (int w = 0; w < 4; w++)
            whole[k++] = words[w];
    }
    for (int i = 0; i < nkey; i++)
        whole[k++] = key[i];
    int found;
    lc_inspected *c = inspection_for(st, whole, full, &found);
    int again = !c || !found || c->stale || st->inspect_always;
    if (!c || (again && c->in_use)) {   /* another execution (recursion) reads it: one of its own */
        c = &n->own;
        found = 0;
    }
    c->used = ++st->clock;
    c->in_use++;
    if (found) {
        free(whole);
    } else {
        c->key = whole;
        c->nkey = full;
        c->nx = n->nrefs;
        c->x = lc_xrealloc(NULL, (size_t)n->nrefs * sizeof *c->x);
        memset(c->x, 0, (size_t)n->nrefs * sizeof *c->x);
    }
    if (again) {
        for (int i = 0; i < c->nx; i++)
            lc_inspection_free(&c->x[i]);
        c->stale = 0;
        st->inspections++;
        n->inspecting = 1;
    }
    n->inspection = c;
    for (int i = 0; i < n->nrefs; i++)
        n->refs[i].inspection = n->refs[i].inspected ? &c->x[i] : NULL;
    n->inspect_from = now_us();
    st->analysis_us += n->inspect_from - t0;
    return again;
}

bamboo_lc_seen *bamboo_lc_seen_of(bamboo_lc_nest *n, int ref)
{
    return &n->refs[ref].inspection->seen;
}

int bamboo_lc_ref_source(bamboo_lc_nest *n, int ref, const void *source, long offset, const long *stride)
{
    if (ref < 0 || ref >= n->nrefs || n->refs[ref].direction != BAMBOO_LC_PUT || !source)
        return 0;
    lc_ref *r = &n->refs[ref];
    for (int d = 0; d < r->dims; d++)   /* an equal step in every loop: one shift for all */
        if (stride[d] != r->stride[d] && r->count[d] > 1)
            return 0;
    r->source = source;
    r->source_shift = offset - r->offset;
    return 1;
}

/* The shape a plan depends on: per reference its direction, element size, dims, strides
 * and counts, which group it is in, whether it puts from a source or is inspected (not its
 * elements: CG's nest, run for each source PE, keeps one plan) and its offset relative
 * to its group's first reference
 * (the union of x[i-1], x[i], x[i+1] depends on those), and the trip count.  Not the
 * absolute offsets, PEs or addresses. */
static size_t signature(const bamboo_lc_nest *n, long *out)
{
    size_t k = 0;
    if (out) out[k] = n->trip;
    k++;
    for (int i = 0; i < n->nrefs; i++) {
        const lc_ref *r = &n->refs[i];
        const lc_ref *first = &n->refs[n->groups[r->group].refs[0]];
        long words[5] = {r->direction, (long)r->elem_size, r->group, r->offset - first->offset,
                         (r->source != NULL) | r->inspected << 1};
        for (int w = 0; w < 5; w++, k++)
            if (out) out[k] = words[w];
        if (out) out[k] = r->dims;
        k++;
        for (int d = 0; d < r->dims; d++, k += 2)
            if (out) {
                out[k] = r->stride[d];
                out[k + 1] = r->count[d];
            }
    }
    return k;
}

static double compute_estimate(const bamboo_lc_nest *n)
{
    const lc_site_state *st = n->st;
    if (st->measured_executions > 0 && st->compute_iterations > 0)
        return st->compute_us / st->compute_iterations * (double)n->trip;
    double iterations = (double)n->trip;
    if (n->nrefs > 0) {
        double product = 1;
        for (int d = 0; d < n->refs[0].dims; d++)
            product *= (double)(n->refs[0].count[d] > 0 ? n->refs[0].count[d] : 0);
        if (n->refs[0].inspected)   /* the inner iterations the inspector saw */
            product = (double)n->refs[0].inspection->accesses;
        if (product > iterations)
            iterations = product;
    }
    return st->site->ops_per_iteration * iterations * lc_config.params.t_op_ns * 1e-3;
}

static void take_buffer(lc_site_state *st, lc_buffer *b, size_t size)
{
    int best = -1;  /* the smallest that fits, else the largest (grown) */
    for (int i = 0; i < st->nfree; i++) {
        size_t have = st->free_buffers[i].size;
        if (best < 0) {
            best = i;
            continue;
        }
        size_t was = st->free_buffers[best].size;
        if (was >= size ? (have >= size && have < was) : have > was)
            best = i;
    }
    lc_buffer got = {NULL, 0};
    if (best >= 0) {
        got = st->free_buffers[best];
        st->free_buffers[best] = st->free_buffers[--st->nfree];
    }
    if (got.size < size) {
        free(got.p);
        got.p = malloc(size ? size : 1);
        if (!got.p)
            fail("out of memory for a loop communication buffer");
        got.size = size;
    }
    *b = got;
}

static void give_buffer(lc_site_state *st, lc_buffer b)
{
    if (!b.p)
        return;
    if (st->nfree == st->free_cap) {
        st->free_cap = st->free_cap ? 2 * st->free_cap : 4;
        st->free_buffers = lc_xrealloc(st->free_buffers, (size_t)st->free_cap * sizeof *st->free_buffers);
    }
    st->free_buffers[st->nfree++] = b;
}

long bamboo_lc_plan(bamboo_lc_nest *n)
{
    double t0 = now_us();
    lc_site_state *st = n->st;
    for (int i = 0; i < n->nrefs; i++)
        if (n->refs[i].inspected && !n->refs[i].inspection) {
            char msg[200];
            snprintf(msg, sizeof msg, "%s:%d: an inspected reference planned without bamboo_lc_inspect",
                     st->site->file, st->site->line);
            fail(msg);
        }
    if (n->inspecting) {  /* the inspector ran since bamboo_lc_inspect: its time is analysis */
        for (int i = 0; i < n->nrefs; i++)
            if (n->refs[i].inspected)
                lc_inspection_finish(n->refs[i].inspection, n->trip);
        n->inspecting = 0;
        n->inspect_us = now_us() - n->inspect_from;
    }
    n->ngroups = lc_groups_build(n->refs, n->nrefs, n->trip, &n->groups);
    if (n->ngroups > n->buffer_cap) {
        n->buffers = lc_xrealloc(n->buffers, (size_t)n->ngroups * sizeof *n->buffers);
        n->buffer_cap = n->ngroups;
    }
    for (int g = 0; g < n->ngroups; g++) {
        const lc_group *grp = &n->groups[g];
        /* an inspected reference's buffer has a spare slot past its span (bamboo_lc_arrived) */
        long elements = (grp->lo <= grp->hi && !grp->source ? grp->hi - grp->lo + 1 : 0) + (grp->inspection != NULL);
        size_t size = (size_t)elements * grp->elem_size;
        take_buffer(st, &n->buffers[g], size);
    }
    st->refs = n->nrefs;
    if (n->trip == 0) {
        n->strips = 0;
    } else {
        size_t ns = signature(n, NULL);
        long *sig = lc_xrealloc(NULL, ns * sizeof *sig);
        signature(n, sig);
        int same = st->have_plan && ns == st->nsignature && memcmp(sig, st->signature, ns * sizeof *sig) == 0;
        int replan = st->measured_executions > 0 && !st->replanned_after_measure;
        if (!same || replan) {
            double compute = compute_estimate(n);
            st->model_strips = lc_choose_strips(&lc_config.params, n->refs, n->nrefs, n->groups, n->ngroups,
                                                n->trip, compute, lc_config.forced_strips,
                                                lc_config.forced_kind, &st->fallback);
            st->model_us = lc_plan_time(&lc_config.params, n->refs, n->groups, n->ngroups, n->trip, compute,
                                        st->model_strips, lc_config.forced_kind) / (double)n->trip;
            st->have_plan = 1;
            st->replanned_after_measure = st->measured_executions > 0;
            free(st->signature);
            st->signature = sig;
            st->nsignature = ns;
        } else {
            free(sig);
        }
        /* The search starts from the model's plan once the model has measured the computation
         * (BAMBOO_LC_TUNE=0: that plan is only timed); never where the strips are forced or a
         * PUT allows only one. */
        if (!st->tuning && st->replanned_after_measure && !lc_config.forced_strips &&
            !(st->fallback & LC_FB_PUT_OVERLAP)) {
            lc_tuner_start(&st->tuner, lc_xfer_n_pes(), lc_config.tune);
            st->tuning = 1;
        }
        n->strip_limit = n->trip < LC_MAX_STRIPS ? n->trip : LC_MAX_STRIPS;
        n->timed = st->tuning && !(st->fallback & LC_FB_PUT_OVERLAP);
        n->strips = n->timed ? lc_tuner_strips(&st->tuner, st->model_strips, n->strip_limit) : st->model_strips;
        st->strips = n->strips;  /* the report's */
        for (int i = 0; i < n->nrefs; i++)
            if (n->refs[i].inspected && n->refs[i].inspection->too_wide)
                st->fallback |= LC_FB_INDICES_TOO_WIDE;
    }
    st->analysis_us += now_us() - t0;
    return n->strips;
}

void *bamboo_lc_buffer(bamboo_lc_nest *n, int ref, long *origin)
{
    static long nothing;
    if (ref < 0 || ref >= n->nrefs || !n->groups) {
        *origin = 0;
        return &nothing;
    }
    int g = n->refs[ref].group;
    *origin = n->groups[g].lo <= n->groups[g].hi ? n->groups[g].lo : 0;
    if (n->groups[g].source)
        return NULL;
    return n->buffers[g].p ? n->buffers[g].p : (void *)&nothing;
}

long bamboo_lc_strip_first(const bamboo_lc_nest *n, long k)
{
    return lc_strip_first(n->trip, n->strips, k);
}

/* An inspected group's strip moves its runs less the elements span transfers of earlier strips
 * moved already (holes of a span included: a span over most of the array leaves the later
 * strips little to move). */
static void without_spanned(const lc_group *g, const lc_runs *runs, lc_runs *out)
{
    memset(out, 0, sizeof *out);
    for (long i = 0; i < runs->n; i++) {
        long a = runs->r[i].start, b = a + runs->r[i].len - 1;
        if (g->spanned_lo > g->spanned_hi || b < g->spanned_lo || a > g->spanned_hi) {
            lc_runs_add(out, a, b - a + 1);
            continue;
        }
        if (a < g->spanned_lo)
            lc_runs_add(out, a, g->spanned_lo - a);
        if (b > g->spanned_hi)
            lc_runs_add(out, g->spanned_hi + 1, b - g->spanned_hi);
    }
}

/* A span transfer of strip k moved elements lo..hi of an inspected group: the interval spans
 * moved grows where it touches the new one (else the wider is kept). */
static void spanned(lc_group *g, long lo, long hi, long k)
{
    if (g->spanned_lo > g->spanned_hi || hi + 1 < g->spanned_lo || lo > g->spanned_hi + 1) {
        if (g->spanned_lo > g->spanned_hi || hi - lo > g->spanned_hi - g->spanned_lo) {
            g->spanned_lo = lo;
            g->spanned_hi = hi;
        }
    } else {
        if (lo < g->spanned_lo) g->spanned_lo = lo;
        if (hi > g->spanned_hi) g->spanned_hi = hi;
    }
    if (g->all_arrived_at < 0 && g->spanned_lo <= g->lo && g->spanned_hi >= g->hi)
        g->all_arrived_at = k;
}

/* Issues strip k of every group of direction dir; records, for the report, the kinds of the
 * first strip of each direction that moves anything in this execution. */
static void issue(bamboo_lc_nest *n, int dir, long k)
{
    lc_site_state *st = n->st;
    long first = lc_strip_first(n->trip, n->strips, k), last = lc_strip_first(n->trip, n->strips, k + 1);
    int record = !(n->kinds_recorded & (1 << dir)), recorded = 0;
    for (int g = 0; g < n->ngroups; g++) {
        lc_group *grp = &n->groups[g];
        if (grp->direction != dir)
            continue;
        lc_strip_set scratch;
        const lc_strip_set *s = &scratch;
        lc_region inspected = {0};
        if (grp->inspection) {  /* the strip's runs, kept by the inspection, less what spans moved */
            without_spanned(grp, lc_inspection_strip(grp->inspection, n->trip, n->strips, k),
                            &inspected.explicit_runs);
            scratch.n = inspected.explicit_runs.n > 0;
            scratch.r = &inspected;
        } else {
            s = lc_group_next_strip(n->refs, grp, first, last, &scratch);
        }
        for (int i = 0; i < s->n; i++) {
            int put = dir == BAMBOO_LC_PUT;
            enum lc_kind kind = lc_choose_kind(&lc_config.params, &s->r[i], grp->elem_size, put,
                                               lc_config.forced_kind, NULL, NULL);
            if (lc_config.forced_kind != LC_KIND_MODEL && kind != lc_config.forced_kind)
                st->fallback |= LC_FB_KIND_IGNORED;
            /* from a source: element e is at source[e + shift], as a buffer whose origin is -shift */
            void *local = grp->source ? (void *)(uintptr_t)grp->source : n->buffers[g].p;
            long origin = grp->source ? -grp->source_shift : grp->lo;
            st->bytes += lc_xfer_region(put, &s->r[i], kind, local, origin, grp->remote, grp->elem_size, grp->pe);
            n->outstanding = 1;
            if (grp->inspection && kind == LC_KIND_SPAN)
                spanned(grp, lc_region_lo(&s->r[i]), lc_region_hi(&s->r[i]), k);
            if (record) {
                size_t used = n->kinds_recorded ? strlen(st->kinds) : 0;  /* 0: a new execution */
                if (used + 10 < sizeof st->kinds)
                    snprintf(st->kinds + used, sizeof st->kinds - used, "%s%s", used ? "," : "", lc_kind_names[kind]);
                n->kinds_recorded |= 4;
                recorded = 1;
            }
        }
        if (grp->inspection)
            lc_runs_free(&inspected.explicit_runs);
        else if (s == &scratch)
            lc_strip_set_free(&scratch);
    }
    if (recorded)
        n->kinds_recorded |= 1 << dir;
}

bamboo_lc_view bamboo_lc_view_strip(bamboo_lc_nest *n, int ref, long k)
{
    const lc_group *grp = &n->groups[n->refs[ref].group];
    const lc_inspection *x = grp->inspection;
    n->strip = k;
    bamboo_lc_view v = {x->len > 0 ? x->lo : 0, 0, n, ref};
    /* every element of the span is there once span transfers moved it all, or once every
     * element was needed (and so fetched) before the strip's end */
    if ((grp->all_arrived_at >= 0 && k >= grp->all_arrived_at) ||
        (x->touched == x->len && lc_strip_first(n->trip, n->strips, k + 1) > x->last_first))
        v.len = x->len;
    return v;
}

long bamboo_lc_arrived(bamboo_lc_nest *n, int ref, long e)
{
    const lc_ref *r = &n->refs[ref];
    const lc_group *grp = &n->groups[r->group];
    const lc_inspection *x = r->inspection;
    unsigned long u = (unsigned long)(e - x->lo);
    if (u < (unsigned long)x->len && x->first[u] < lc_strip_first(n->trip, n->strips, n->strip + 1))
        return (long)u;
    char *spare = (char *)n->buffers[r->group].p + (size_t)x->len * grp->elem_size;
    lc_xfer_get_now(spare, grp->remote, e, grp->elem_size, grp->pe);
    if (!x->too_wide)   /* an index changed since the inspection */
        n->inspection->stale = 1;
    n->misses++;
    n->st->misses++;
    return x->len;
}

static void stop_computing(bamboo_lc_nest *n)
{
    if (n->computing) {
        n->compute_us += now_us() - n->compute_from;
        n->computing = 0;
    }
}

void bamboo_lc_advance(bamboo_lc_nest *n, long k)
{
    stop_computing(n);
    if (k < 0 || k >= n->strips)
        return;
    if (k == 0 && n->gets_issued == 0) {
        issue(n, BAMBOO_LC_GET, 0);
        n->gets_issued = 1;
    }
    if (n->outstanding) {
        lc_xfer_quiet();
        n->outstanding = 0;
    }
    if (k + 1 < n->strips && n->gets_issued == k + 1) {
        issue(n, BAMBOO_LC_GET, k + 1);
        n->gets_issued = k + 2;
    }
    if (k >= 1)
        issue(n, BAMBOO_LC_PUT, k - 1);
    n->computing = 1;
    n->compute_from = now_us();
}

void bamboo_lc_end(bamboo_lc_nest *n)
{
    stop_computing(n);
    lc_site_state *st = n->st;
    if (n->strips > 0)
        issue(n, BAMBOO_LC_PUT, n->strips - 1);
    if (n->outstanding) {
        lc_xfer_quiet();
        n->outstanding = 0;
    }
    if (n->trip > 0 && n->strips > 0) {
        st->compute_us += n->compute_us;
        st->compute_iterations += (double)n->trip;
        st->measured_executions++;
        if (n->timed)   /* without the inspector, which the next execution may not run */
            lc_tuner_measured(&st->tuner, now_us() - n->began - n->inspect_us, (double)n->trip,
                              st->model_strips, n->strip_limit);
    }
    if (n->inspection) {   /* indices that keep missing: inspect every execution */
        n->inspection->in_use--;
        if (n->inspection == &n->own)
            forget_inspection(&n->own);
        st->missed_in_a_row = n->misses ? st->missed_in_a_row + 1 : 0;
        if (st->missed_in_a_row >= 2)
            st->inspect_always = 1;
    }
    for (int g = 0; g < n->ngroups; g++)
        give_buffer(st, n->buffers[g]);
    lc_groups_free(n->groups, n->ngroups);
    n->groups = NULL;
    n->ngroups = 0;
    n->next_free = st->free_nests;
    st->free_nests = n;
}
