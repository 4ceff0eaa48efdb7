/* lmad.h: the element sets a loop nest touches, as linear memory access descriptors (LMADs,
 * seed 004 section 5) and, where an LMAD cannot say it exactly, as explicit lists of runs.
 *
 * A region is the set of elements one transfer plan moves for one strip of one buffer.  It is
 * kept regular (offset, run length, dims) whenever that is exact, because a regular region
 * can be moved by strided transfers and costs O(dims) to analyse; it becomes an explicit run
 * list only when a union or a subtraction has no regular form (cross-shaped stencils,
 * overlap with an earlier strip).  No SHMEM here: unit-tested with plain cc. */
#ifndef BAMBOO_LC_LMAD_H
#define BAMBOO_LC_LMAD_H

#include <stddef.h>

#define LC_RDIMS 4

/* Sorted, disjoint, non-adjacent runs [start, start + len) of element indices. */
typedef struct lc_run {
    long start, len;
} lc_run;
typedef struct lc_runs {
    long n, cap;
    lc_run *r;
} lc_runs;

/* Regular form: elements offset + r + sum_d stride[d] * t_d, 0 <= r < run, 0 <= t_d < count[d],
 * strides ascending and > 0, counts > 1; run == 0 means empty.  With `explicit_runs.n > 0` the
 * region is irregular and only explicit_runs counts. */
typedef struct lc_region {
    long offset;
    long run;
    int dims;
    long stride[LC_RDIMS], count[LC_RDIMS];
    lc_runs explicit_runs;
} lc_region;

/* The set of an LMAD (offset, stride[0..dims), count[0..dims)) with dimension 0 restricted to
 * t_0 in [first, last) (clipped to count[0]); dims == 0 is one element.  Negative strides are
 * mirrored, zero strides and counts of 1 dropped, then dimensions coalesced. */
/* realloc that ends the program with a message when memory runs out (every part of the
 * run time allocates through it). */
void *lc_xrealloc(void *p, size_t n);

void lc_region_from_lmad(lc_region *r, long offset, int dims, const long *stride, const long *count,
                         long first, long last);
/* Sorts, drops and coalesces the regular form in place (what lc_region_from_lmad ends with). */
void lc_region_normalize(lc_region *r);

int lc_region_empty(const lc_region *r);
int lc_region_regular(const lc_region *r);
long lc_region_lo(const lc_region *r);
long lc_region_hi(const lc_region *r);   /* last element, inclusive */
long lc_region_runs(const lc_region *r); /* contiguous runs it is moved as by "pieces" */
long lc_region_elements(const lc_region *r);
/* The regular pattern: runs of `run` elements every `run_stride` (0 with a single run). */
long lc_region_run_stride(const lc_region *r);

/* a := a union b when the union has an exact regular form (or one contains the other);
 * returns 1 then, 0 when a is unchanged.  Both regular. */
int lc_region_merge(lc_region *a, const lc_region *b);

/* Calls fn for each run, clipped to [lo, hi]; regular regions in odometer order, so the runs
 * of an interleaved LMAD may come unsorted or overlapping. */
void lc_region_each_run(const lc_region *r, long lo, long hi,
                        void (*fn)(long start, long len, void *ctx), void *ctx);

void lc_runs_add(lc_runs *s, long start, long len);
void lc_runs_sort(lc_runs *s);                       /* sort and merge overlapping/adjacent */
void lc_runs_subtract(lc_runs *a, const lc_runs *b); /* both sorted */
void lc_runs_free(lc_runs *s);

/* r := the sorted runs s (taken over), regular again if s is one run or equal runs at a
 * constant stride. */
void lc_region_from_runs(lc_region *r, lc_runs *s);

/* The union of regions rs[0..n) in place, every element once: exact regular merges first;
 * if regions then still share elements, all of them become one run list.  Returns the new n. */
int lc_region_union(lc_region *rs, int n);

/* r := r minus the union of others[0..n) (those whose span misses r's skipped cheaply). */
void lc_region_subtract(lc_region *r, const lc_region *others, int n);

void lc_region_copy(lc_region *dst, const lc_region *src);
void lc_region_free(lc_region *r);

#endif
