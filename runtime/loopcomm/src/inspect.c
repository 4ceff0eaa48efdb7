/* inspect.c: the elements of an inspected reference (inspect.h). */
#include "inspect.h"

#include <stdlib.h>
#include <string.h>

/* Outside the recording window: widen it geometrically, so that recording stays O(1) per
 * access, or give up past LC_MAX_INSPECTED_SPAN. */
void bamboo_lc_see_outside(bamboo_lc_seen *s, int t, long e)
{
    if (s->too_wide)
        return;
    long lo = s->lo, hi = s->lo + s->cap;   /* [lo, hi) */
    long grow = s->cap > 1024 ? s->cap : 1024;
    if (s->cap == 0) {
        lo = e;
        hi = e + grow;
    } else if (e < lo) {
        lo = e - grow;
    } else {
        hi = e + 1 + grow;
    }
    if (hi - lo > LC_MAX_INSPECTED_SPAN) {
        s->too_wide = 1;
        return;
    }
    int *first = lc_xrealloc(NULL, (size_t)(hi - lo) * sizeof *first);
    for (long u = 0; u < hi - lo; u++)
        first[u] = LC_UNTOUCHED;
    if (s->cap > 0)
        memcpy(first + (s->lo - lo), s->first, (size_t)s->cap * sizeof *first);
    free(s->first);
    s->first = first;
    s->lo = lo;
    s->cap = hi - lo;
    first[e - lo] = t;
}

void lc_inspection_finish(lc_inspection *x, long trip)
{
    bamboo_lc_seen *s = &x->seen;
    free(x->first);
    x->first = NULL;
    x->lo = x->len = x->touched = 0;
    x->accesses = s->accesses;
    x->last_first = -1;
    x->too_wide = s->too_wide;
    x->cached_strips = 0;
    long lo = -1, hi = -1;   /* offsets in the window of the first and last touched element */
    for (long u = 0; u < s->cap && !s->too_wide; u++)
        if (s->first[u] != LC_UNTOUCHED) {
            if (lo < 0) lo = u;
            hi = u;
            x->touched++;
            if (s->first[u] > x->last_first)
                x->last_first = s->first[u];
        }
    if (lo >= 0) {   /* the window, trimmed to the touched span */
        x->lo = s->lo + lo;
        x->len = hi - lo + 1;
        memmove(s->first, s->first + lo, (size_t)x->len * sizeof *s->first);
        x->first = s->first;
        s->first = NULL;
    }
    free(s->first);
    memset(s, 0, sizeof *s);
    /* per outer iteration, how many elements it is the first to need; then summed up */
    free(x->needed_before);
    x->trip = trip > 0 ? trip : 0;
    x->needed_before = lc_xrealloc(NULL, (size_t)(x->trip + 1) * sizeof *x->needed_before);
    memset(x->needed_before, 0, (size_t)(x->trip + 1) * sizeof *x->needed_before);
    for (long u = 0; u < x->len; u++)
        if (x->first[u] < x->trip)
            x->needed_before[x->first[u] + 1]++;
    for (long t = 0; t < x->trip; t++)
        x->needed_before[t + 1] += x->needed_before[t];
}

long lc_inspection_needed(const lc_inspection *x, long first, long last)
{
    if (!x->needed_before || last <= first)
        return 0;
    return x->needed_before[last < x->trip ? last : x->trip] - x->needed_before[first < x->trip ? first : x->trip];
}

static void forget_strips(lc_inspection *x)
{
    for (long k = 0; k < x->cached_strips; k++)
        lc_runs_free(&x->by_strip[k]);
    free(x->by_strip);
    x->by_strip = NULL;
    x->cached_strips = 0;
}

const lc_runs *lc_inspection_strip(lc_inspection *x, long trip, long strips, long k)
{
    if (x->cached_strips != strips || x->cached_trip != trip) {
        forget_strips(x);
        x->by_strip = lc_xrealloc(NULL, (size_t)strips * sizeof *x->by_strip);
        memset(x->by_strip, 0, (size_t)strips * sizeof *x->by_strip);
        x->cached_strips = strips;
        x->cached_trip = trip;
        /* strips differ by at most one iteration (lc_strip_first): the strip of iteration t is
         * found from the first `extra` strips of base + 1 iterations */
        long base = trip / strips, extra = trip % strips;
        for (long u = 0; u < x->len; u++) {
            long t = x->first[u];
            if (t == LC_UNTOUCHED || t >= trip)
                continue;
            long s = t < extra * (base + 1) ? t / (base + 1) : extra + (t - extra * (base + 1)) / base;
            lc_runs *runs = &x->by_strip[s];
            if (runs->n > 0 && runs->r[runs->n - 1].start + runs->r[runs->n - 1].len == x->lo + u)
                runs->r[runs->n - 1].len++;
            else
                lc_runs_add(runs, x->lo + u, 1);
        }
    }
    return &x->by_strip[k];
}

void lc_inspection_free(lc_inspection *x)
{
    forget_strips(x);
    free(x->first);
    free(x->needed_before);
    free(x->seen.first);
    memset(x, 0, sizeof *x);
}
