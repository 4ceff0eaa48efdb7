/* lmad.c: LMAD normalisation, strips, unions and subtractions (lmad.h says what a region is). */
#include "lmad.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void *lc_xrealloc(void *p, size_t n)
{
    void *q = realloc(p, n ? n : 1);
    if (!q) {
        fprintf(stderr, "bamboo_lc: out of memory (%zu bytes)\n", n);
        exit(1);
    }
    return q;
}

static void remove_dim(lc_region *r, int d)
{
    for (int j = d; j + 1 < r->dims; j++) {
        r->stride[j] = r->stride[j + 1];
        r->count[j] = r->count[j + 1];
    }
    r->dims--;
}

void lc_region_normalize(lc_region *r)
{
    if (r->run <= 0 || r->explicit_runs.n > 0)
        return;
    for (int d = 0; d < r->dims;) {
        if (r->count[d] <= 0) {
            r->run = 0;
            r->dims = 0;
            return;
        }
        if (r->count[d] == 1 || r->stride[d] == 0) {
            remove_dim(r, d);
            continue;
        }
        if (r->stride[d] < 0) {  /* same set, visited the other way */
            r->offset += r->stride[d] * (r->count[d] - 1);
            r->stride[d] = -r->stride[d];
        }
        d++;
    }
    for (int i = 1; i < r->dims; i++)  /* insertion sort: at most 4 dims */
        for (int j = i; j > 0 && r->stride[j - 1] > r->stride[j]; j--) {
            long s = r->stride[j], c = r->count[j];
            r->stride[j] = r->stride[j - 1];
            r->count[j] = r->count[j - 1];
            r->stride[j - 1] = s;
            r->count[j - 1] = c;
        }
    /* Coalescing is exact because the sum over dims is separable: a dim whose stride is at
     * most the run fills the gaps between runs (or overlaps them); two dims whose strides are
     * a multiple m <= count apart enumerate one arithmetic sequence. */
    for (int changed = 1; changed;) {
        changed = 0;
        if (r->dims > 0 && r->stride[0] <= r->run) {
            r->run += r->stride[0] * (r->count[0] - 1);
            remove_dim(r, 0);
            changed = 1;
            continue;
        }
        for (int j = 0; j + 1 < r->dims; j++) {
            long m = r->stride[j + 1] / r->stride[j];
            if (r->stride[j + 1] % r->stride[j] == 0 && m <= r->count[j]) {
                r->count[j] += m * (r->count[j + 1] - 1);
                remove_dim(r, j + 1);
                changed = 1;
                break;
            }
        }
    }
}

void lc_region_from_lmad(lc_region *r, long offset, int dims, const long *stride, const long *count,
                         long first, long last)
{
    memset(r, 0, sizeof *r);
    r->offset = offset;
    r->run = 1;
    if (dims > LC_RDIMS)
        dims = LC_RDIMS;
    for (int d = 0; d < dims; d++) {
        long c = count[d];
        if (d == 0) {
            long hi = last < c ? last : c;
            long lo = first > 0 ? first : 0;
            r->offset += stride[0] * lo;
            c = hi - lo;
        }
        if (c <= 0) {
            r->run = 0;
            r->dims = 0;
            return;
        }
        r->stride[r->dims] = stride[d];
        r->count[r->dims] = c;
        r->dims++;
    }
    lc_region_normalize(r);
}

int lc_region_empty(const lc_region *r) { return r->explicit_runs.n == 0 && r->run <= 0; }
int lc_region_regular(const lc_region *r) { return r->explicit_runs.n == 0; }

long lc_region_lo(const lc_region *r)
{
    return r->explicit_runs.n ? r->explicit_runs.r[0].start : r->offset;
}

long lc_region_hi(const lc_region *r)
{
    if (r->explicit_runs.n) {
        const lc_run *last = &r->explicit_runs.r[r->explicit_runs.n - 1];
        return last->start + last->len - 1;
    }
    long hi = r->offset + r->run - 1;
    for (int d = 0; d < r->dims; d++)
        hi += r->stride[d] * (r->count[d] - 1);
    return hi;
}

long lc_region_runs(const lc_region *r)
{
    if (r->explicit_runs.n)
        return r->explicit_runs.n;
    if (r->run <= 0)
        return 0;
    long n = 1;
    for (int d = 0; d < r->dims; d++)
        n *= r->count[d];
    return n;
}

long lc_region_elements(const lc_region *r)
{
    if (r->explicit_runs.n) {
        long n = 0;
        for (long i = 0; i < r->explicit_runs.n; i++)
            n += r->explicit_runs.r[i].len;
        return n;
    }
    return r->run > 0 ? r->run * lc_region_runs(r) : 0;
}

long lc_region_run_stride(const lc_region *r)
{
    return lc_region_regular(r) && r->dims > 0 ? r->stride[0] : 0;
}

static int same_dims(const lc_region *a, const lc_region *b, int except)
{
    if (a->dims != b->dims)
        return 0;
    for (int d = 0; d < a->dims; d++)
        if (a->stride[d] != b->stride[d] || (d != except && a->count[d] != b->count[d]))
            return 0;
    return 1;
}

int lc_region_merge(lc_region *a, const lc_region *b)
{
    if (!lc_region_regular(a) || !lc_region_regular(b))
        return 0;
    if (lc_region_empty(b))
        return 1;
    if (lc_region_empty(a)) {
        lc_region_copy(a, b);
        return 1;
    }
    const lc_region *lo = a->offset <= b->offset ? a : b, *hi = lo == a ? b : a;
    long delta = hi->offset - lo->offset;
    /* Same dims, runs that touch: one longer run, replicated by the same dims. */
    if (same_dims(a, b, -1) && delta <= lo->run) {
        long end = lo->run > delta + hi->run ? lo->run : delta + hi->run;
        a->offset = lo->offset;
        a->run = end;
        a->dims = lo->dims;
        memmove(a->stride, lo->stride, sizeof a->stride);
        memmove(a->count, lo->count, sizeof a->count);
        lc_region_normalize(a);
        return 1;
    }
    /* Same run and dims but one dim's count, offsets a whole number of that dim's steps
     * apart and the ranges of its index touching: one longer dim (rows i and i+1). */
    if (a->run == b->run)
        for (int k = 0; k < a->dims; k++) {
            if (!same_dims(a, b, k) || delta % a->stride[k] != 0)
                continue;
            long m = delta / a->stride[k];
            if (m > lo->count[k])
                continue;
            long count = lo->count[k] > m + hi->count[k] ? lo->count[k] : m + hi->count[k];
            long keep_count[LC_RDIMS];
            memcpy(keep_count, lo->count, sizeof keep_count);
            a->offset = lo->offset;
            memcpy(a->count, keep_count, sizeof a->count);
            a->count[k] = count;
            lc_region_normalize(a);
            return 1;
        }
    return 0;
}

void lc_region_each_run(const lc_region *r, long lo, long hi,
                        void (*fn)(long start, long len, void *ctx), void *ctx)
{
    if (r->explicit_runs.n) {
        for (long i = 0; i < r->explicit_runs.n; i++) {
            long s = r->explicit_runs.r[i].start, e = s + r->explicit_runs.r[i].len - 1;
            if (s < lo) s = lo;
            if (e > hi) e = hi;
            if (s <= e) fn(s, e - s + 1, ctx);
        }
        return;
    }
    if (r->run <= 0)
        return;
    long t[LC_RDIMS] = {0};
    for (;;) {
        long s = r->offset;
        for (int d = 0; d < r->dims; d++)
            s += r->stride[d] * t[d];
        long e = s + r->run - 1;
        if (s < lo) s = lo;
        if (e > hi) e = hi;
        if (s <= e) fn(s, e - s + 1, ctx);
        int d = 0;
        while (d < r->dims && ++t[d] == r->count[d])
            t[d++] = 0;
        if (d == r->dims)
            return;
    }
}

void lc_runs_add(lc_runs *s, long start, long len)
{
    if (len <= 0)
        return;
    if (s->n == s->cap) {
        s->cap = s->cap ? 2 * s->cap : 16;
        s->r = lc_xrealloc(s->r, (size_t)s->cap * sizeof *s->r);
    }
    s->r[s->n].start = start;
    s->r[s->n].len = len;
    s->n++;
}

static int by_start(const void *x, const void *y)
{
    long a = ((const lc_run *)x)->start, b = ((const lc_run *)y)->start;
    return (a > b) - (a < b);
}

void lc_runs_sort(lc_runs *s)
{
    int sorted = 1;
    for (long i = 1; i < s->n && sorted; i++)
        sorted = s->r[i - 1].start <= s->r[i].start;
    if (!sorted)
        qsort(s->r, (size_t)s->n, sizeof *s->r, by_start);
    long out = 0;
    for (long i = 0; i < s->n; i++) {
        if (out > 0) {
            lc_run *p = &s->r[out - 1];
            if (s->r[i].start <= p->start + p->len) {
                long end = s->r[i].start + s->r[i].len;
                if (end > p->start + p->len)
                    p->len = end - p->start;
                continue;
            }
        }
        s->r[out++] = s->r[i];
    }
    s->n = out;
}

void lc_runs_subtract(lc_runs *a, const lc_runs *b)
{
    lc_runs out = {0};
    long j = 0;
    for (long i = 0; i < a->n; i++) {
        long s = a->r[i].start, e = s + a->r[i].len;  /* [s, e) still to place */
        while (j < b->n && b->r[j].start + b->r[j].len <= s)
            j++;
        for (long k = j; k < b->n && b->r[k].start < e; k++) {
            if (b->r[k].start > s)
                lc_runs_add(&out, s, b->r[k].start - s);
            long be = b->r[k].start + b->r[k].len;
            if (be > s)
                s = be;
            if (s >= e)
                break;
        }
        if (s < e)
            lc_runs_add(&out, s, e - s);
    }
    free(a->r);
    *a = out;
}

void lc_runs_free(lc_runs *s)
{
    free(s->r);
    memset(s, 0, sizeof *s);
}

void lc_region_from_runs(lc_region *r, lc_runs *s)
{
    lc_region_free(r);
    memset(r, 0, sizeof *r);
    if (s->n == 0) {
        lc_runs_free(s);
        return;
    }
    long len = s->r[0].len, step = s->n > 1 ? s->r[1].start - s->r[0].start : 0;
    int regular = 1;
    for (long i = 1; i < s->n && regular; i++)
        regular = s->r[i].len == len && s->r[i].start - s->r[i - 1].start == step;
    if (regular) {
        r->offset = s->r[0].start;
        r->run = len;
        if (s->n > 1) {
            r->dims = 1;
            r->stride[0] = step;
            r->count[0] = s->n;
        }
        lc_runs_free(s);
        return;
    }
    r->explicit_runs = *s;
    memset(s, 0, sizeof *s);
}

static void collect(long start, long len, void *ctx) { lc_runs_add(ctx, start, len); }

static int spans_meet(const lc_region *a, const lc_region *b)
{
    return lc_region_lo(a) <= lc_region_hi(b) && lc_region_lo(b) <= lc_region_hi(a);
}

int lc_region_union(lc_region *rs, int n)
{
    for (int changed = 1; changed;) {
        changed = 0;
        for (int i = 0; i < n && !changed; i++)
            for (int j = i + 1; j < n; j++)
                if (lc_region_merge(&rs[i], &rs[j])) {
                    lc_region_free(&rs[j]);
                    rs[j] = rs[n - 1];
                    n--;
                    changed = 1;
                    break;
                }
    }
    int meet = 0;
    for (int i = 0; i < n && !meet; i++)
        for (int j = i + 1; j < n && !meet; j++)
            meet = spans_meet(&rs[i], &rs[j]);
    if (!meet)
        return n;
    lc_runs all = {0};
    for (int i = 0; i < n; i++) {
        lc_region_each_run(&rs[i], lc_region_lo(&rs[i]), lc_region_hi(&rs[i]), collect, &all);
        lc_region_free(&rs[i]);
    }
    lc_runs_sort(&all);
    lc_region_from_runs(&rs[0], &all);
    return 1;
}

void lc_region_subtract(lc_region *r, const lc_region *others, int n)
{
    if (lc_region_empty(r))
        return;
    long lo = lc_region_lo(r), hi = lc_region_hi(r);
    lc_runs minus = {0};
    for (int i = 0; i < n; i++)
        if (!lc_region_empty(&others[i]) && spans_meet(r, &others[i]))
            lc_region_each_run(&others[i], lo, hi, collect, &minus);
    if (minus.n == 0)
        return;
    lc_runs mine = {0};
    lc_region_each_run(r, lo, hi, collect, &mine);
    lc_runs_sort(&mine);
    lc_runs_sort(&minus);
    long before = 0, after = 0;
    for (long i = 0; i < mine.n; i++)
        before += mine.r[i].len;
    lc_runs_subtract(&mine, &minus);
    for (long i = 0; i < mine.n; i++)
        after += mine.r[i].len;
    lc_runs_free(&minus);
    if (after == before && lc_region_regular(r)) {  /* nothing in common: keep the regular form */
        lc_runs_free(&mine);
        return;
    }
    lc_region_from_runs(r, &mine);
}

void lc_region_copy(lc_region *dst, const lc_region *src)
{
    *dst = *src;
    memset(&dst->explicit_runs, 0, sizeof dst->explicit_runs);
    for (long i = 0; i < src->explicit_runs.n; i++)
        lc_runs_add(&dst->explicit_runs, src->explicit_runs.r[i].start, src->explicit_runs.r[i].len);
}

void lc_region_free(lc_region *r)
{
    lc_runs_free(&r->explicit_runs);
}
