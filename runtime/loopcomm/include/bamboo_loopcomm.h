/* bamboo_loopcomm.h: the run-time half of Bamboo's loop communication optimization
 * (seed 004): what `bamboocc` generates for an OpenSHMEM loop nest whose fine-grained remote
 * accesses (shmem_TYPE_g/p, one-element shmem_TYPE_get/put) it proved it may hoist.
 *
 * The translator describes each remote reference of the nest as a linear memory access
 * descriptor (LMAD): the element index  offset + sum_d stride[d] * t_d,  0 <= t_d < count[d],
 * in elements of the remote array.  Dimension 0 is always the nest's outermost loop, the one
 * the runtime may cut into strips; its count is the nest's trip count.  From the references
 * the runtime removes redundant transfers, chooses the number of strips and, for each region,
 * how to move it (one transfer over its whole span, strided transfers, or a pipeline of its
 * contiguous pieces) from a LogGP-style model whose parameters `bench/loopcomm/train` measured
 * on this machine (docs/loop-communication.md).
 *
 * Generated code, for a nest over i with one remote read of x on pe:
 *
 *     static bamboo_lc_site site = BAMBOO_LC_SITE("cg.c", 57, 3.0);
 *     bamboo_lc_nest *n = bamboo_lc_begin(&site, trip);
 *     int r0 = bamboo_lc_ref(n, BAMBOO_LC_GET, x, sizeof(double), pe, off, 1, strides, counts);
 *     long strips = bamboo_lc_plan(n);
 *     long o0; const double *b0 = bamboo_lc_buffer(n, r0, &o0);
 *     for (long k = 0; k < strips; k++) {
 *         bamboo_lc_advance(n, k);
 *         for (i = lo + bamboo_lc_strip_first(n, k) * step;
 *              i < lo + bamboo_lc_strip_first(n, k + 1) * step; i += step)
 *             ... b0[(index of x) - o0] ...
 *     }
 *     bamboo_lc_end(n);
 *
 * Environment (read once):
 *   BAMBOO_LOOPCOMM_PROFILE  the model's parameters (default: the machine's profile file,
 *                            $XDG_CONFIG_HOME or ~/.config, bamboo/loopcomm/<hostname>.profile);
 *                            without one, safe defaults, said once on stderr by PE 0
 *   BAMBOO_LC_STRIPS=N       force N strips (clamped to the trip count) instead of the model's
 *   BAMBOO_LC_KIND=K         force the transfer kind: span, strided or pieces (where it applies)
 *   BAMBOO_LC_TUNE=0         keep the model's strips (default: the runtime times the nest and
 *                            searches better strip counts around the model's, tune.h)
 *   BAMBOO_LC_REPORT=1       at exit, PE 0 prints each site's plan and the analysis overhead
 */
#ifndef BAMBOO_LOOPCOMM_H
#define BAMBOO_LOOPCOMM_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

#define BAMBOO_LC_MAX_DIMS 4

enum bamboo_lc_direction { BAMBOO_LC_GET = 0, BAMBOO_LC_PUT = 1 };

/* One optimized loop nest of the program text; a zero-initialized static in the generated
 * code.  The runtime keeps the site's cached plan, its measured computation time and its
 * counters behind `state`. */
typedef struct bamboo_lc_site {
    const char *file;
    int line;
    /* the translator's count of arithmetic operations and local memory references per
     * iteration of the nest's innermost loop: the computation estimate of a first
     * execution, before the runtime has measured the nest */
    double ops_per_iteration;
    void *state;
} bamboo_lc_site;

#define BAMBOO_LC_SITE(file, line, ops) { (file), (line), (ops), 0 }

typedef struct bamboo_lc_nest bamboo_lc_nest;

/* An execution of the nest whose outermost loop runs `trip` iterations (>= 0). */
bamboo_lc_nest *bamboo_lc_begin(bamboo_lc_site *site, long trip);

/* One remote reference: elements of `remote` (a symmetric address, the array's first
 * element) on PE `pe`, each `elem_size` bytes, at the LMAD (offset, stride[0..dims),
 * count[0..dims)); count[0] is the trip count.  Strides may be zero or negative.  Returns the
 * reference's number for bamboo_lc_buffer.  A PUT reference must not overlap another
 * reference of the nest to the same array and PE (the translator refuses such nests). */
int bamboo_lc_ref(bamboo_lc_nest *nest, int direction, const void *remote, size_t elem_size,
                  int pe, long offset, int dims, const long *stride, const long *count);

/* A PUT reference's values are the elements of a local array `source` at the LMAD (offset,
 * stride[0..dims)) with the reference's dims and counts (`shmem_double_p(&x[i], y[i], pe)`),
 * an array the nest does not write: put straight from it, with no copy into a buffer, when
 * its strides are the reference's.  Call before bamboo_lc_plan.  Returns 1 when taken; the
 * reference's bamboo_lc_buffer is then NULL, and the nest skips its stores. */
int bamboo_lc_ref_source(bamboo_lc_nest *nest, int ref, const void *source, long offset,
                         const long *stride);

/* Inspector-executor, for a remote read whose index is not affine in the loops
 * (`shmem_double_g(&p[colidx[k]], b)`): an inspected reference of `remote` on `pe` has no
 * LMAD; the nest's inspector (a copy of its loops that only computes addresses) reports its
 * elements, and the nest reads each through bamboo_lc_slot, which checks that the element has
 * arrived.  Generated code, before bamboo_lc_plan:
 *
 *     r0 = bamboo_lc_ref_inspected(n, p, sizeof(double), pe);
 *     const long key[] = {lo, (long)(colidx), (long)(rowstr)};
 *     if (bamboo_lc_inspect(n, 3, key)) {
 *         bamboo_lc_seen *s0 = bamboo_lc_seen_of(n, r0);
 *         for (long t = 0; t < trip; t++) { long i = lo + t; for (k ...) bamboo_lc_see(s0, t, &p[colidx[k]] - p); }
 *     }
 *     ... plan, buffer ...
 *     for (k ...) { advance; v0 = bamboo_lc_view_strip(n, r0, k); ... b0[bamboo_lc_slot(v0, &p[colidx[k]] - p)] ... }
 *
 * The inspection is cached per site under `key` (the nest's first iteration and the values of
 * the variables its indices and inner bounds read), the PEs, the remote arrays and the trip
 * count.  The key only chooses which inspection to reuse: an index that changed since is
 * caught by bamboo_lc_slot, read with a blocking get, and the next execution inspects anew
 * (a site whose indices keep changing inspects every execution). */
int bamboo_lc_ref_inspected(bamboo_lc_nest *nest, const void *remote, size_t elem_size, int pe);

/* 1 when the inspector must run now (no inspection cached under this key, or it went stale),
 * 0 when the cached one serves.  Call after every reference, before bamboo_lc_plan. */
int bamboo_lc_inspect(bamboo_lc_nest *nest, int nkey, const long *key);

/* What the inspector records for one inspected reference: first[e - lo], for the elements
 * lo <= e < lo + cap, is the first outer iteration that reads e (BAMBOO_LC_UNTOUCHED: none);
 * the runtime widens the window as elements outside it come. */
typedef struct bamboo_lc_seen {
    long lo, cap;
    int *first;
    long accesses;
    int too_wide;   /* the elements span more than the runtime will buffer: no more recorded */
} bamboo_lc_seen;

#define BAMBOO_LC_UNTOUCHED 0x7fffffff

bamboo_lc_seen *bamboo_lc_seen_of(bamboo_lc_nest *nest, int ref);
void bamboo_lc_see_outside(bamboo_lc_seen *seen, int t, long e);

/* In the inspector: the reference reads element e in outer iteration t (from 0, ascending). */
static inline void bamboo_lc_see(bamboo_lc_seen *seen, long t, long e)
{
    int it = t < BAMBOO_LC_UNTOUCHED - 1 ? (int)t : BAMBOO_LC_UNTOUCHED - 1;
    unsigned long u = (unsigned long)(e - seen->lo);
    seen->accesses++;
    if (u < (unsigned long)seen->cap) {
        if (seen->first[u] > it)
            seen->first[u] = it;
    } else {
        bamboo_lc_see_outside(seen, it, e);
    }
}

/* Where an inspected reference's elements are in its buffer during one strip: while every
 * element of its span has arrived (a span transfer moved them all, or all were needed by now),
 * elements origin .. origin + len - 1 are at buffer[e - origin]; before that len is 0 and
 * every read asks bamboo_lc_arrived.  One compare in the common case: a table lookup in every
 * read cost CGI's product 12 %. */
typedef struct bamboo_lc_view {
    long origin, len;
    bamboo_lc_nest *nest;
    int ref;
} bamboo_lc_view;

/* After bamboo_lc_advance(nest, k): the view of an inspected reference for strip k (a value:
 * kept in registers by the nest). */
bamboo_lc_view bamboo_lc_view_strip(bamboo_lc_nest *nest, int ref, long k);

/* The buffer index of element e during the current strip, the view's len being 0: e's if it
 * has arrived, else (an index that changed since the inspection) e read at once with a
 * blocking get into the reference's spare slot, past its span, the inspection marked stale. */
long bamboo_lc_arrived(bamboo_lc_nest *nest, int ref, long e);

/* The buffer index of element e of an inspected reference during the view's strip. */
static inline long bamboo_lc_slot(bamboo_lc_view v, long e)
{
    unsigned long u = (unsigned long)(e - v.origin);
    return u < (unsigned long)v.len ? (long)u : bamboo_lc_arrived(v.nest, v.ref, e);
}

/* Analyses the references and chooses the plan (cached per site while the references keep
 * their shape); returns the number of strips, >= 1 when trip > 0, 0 when trip == 0. */
long bamboo_lc_plan(bamboo_lc_nest *nest);

/* The local buffer of a reference: element e of the remote array is at buffer[e - *origin]
 * for every e the reference's LMAD covers.  GET buffers hold the remote values of strip k
 * once bamboo_lc_advance(nest, k) returns; PUT buffers are written by the nest and sent
 * strip by strip.  References of one array and PE may share a buffer.  NULL for a PUT put
 * from its source (bamboo_lc_ref_source). */
void *bamboo_lc_buffer(bamboo_lc_nest *nest, int ref, long *origin);

/* The first outermost-loop iteration (counted from 0) of strip k, 0 <= k <= strips;
 * bamboo_lc_strip_first(nest, strips) is the trip count. */
long bamboo_lc_strip_first(const bamboo_lc_nest *nest, long k);

/* Before strip k computes: the GET data of strip k has arrived (strip k+1's is on its way),
 * and the PUT data of strip k-1 is on its way. */
void bamboo_lc_advance(bamboo_lc_nest *nest, long k);

/* After the last strip: every PUT issued and complete (as shmem_quiet completes it), the
 * buffers given back. */
void bamboo_lc_end(bamboo_lc_nest *nest);

#ifdef __cplusplus
}
#endif

#endif
