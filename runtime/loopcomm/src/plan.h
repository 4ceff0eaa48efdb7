/* plan.h: from a nest's references to its plan: which references share a buffer, what each
 * strip moves (redundant transfers removed), and how many strips (the model's choice).
 * No SHMEM here: unit-tested with plain cc; nest.c calls it, transfer.c moves what it says. */
#ifndef BAMBOO_LC_PLAN_H
#define BAMBOO_LC_PLAN_H

#include <stddef.h>

#include "inspect.h"
#include "lmad.h"
#include "model.h"

typedef struct lc_ref {
    int direction;  /* BAMBOO_LC_GET / BAMBOO_LC_PUT */
    const void *remote;
    size_t elem_size;
    int pe;
    long offset;
    int dims;
    long stride[LC_RDIMS], count[LC_RDIMS];
    int group;      /* set by lc_groups_build */
    const char *source; /* PUT: its values' local array (bamboo_lc_ref_source), or NULL */
    long source_shift;  /* element e of the remote LMAD is element e + shift of source */
    int inspected;      /* no LMAD: its elements are the inspection's (inspect.h) */
    lc_inspection *inspection;
} lc_ref;

/* What one strip of one group moves. */
typedef struct lc_strip_set {
    int n, cap;
    lc_region *r;
    long need_lo, need_hi; /* span of what the strip's iterations reference (before dedupe) */
} lc_strip_set;

/* References of one (direction, array, element size, PE): one buffer, one origin. */
typedef struct lc_group {
    int direction;
    const void *remote;
    size_t elem_size;
    int pe;
    int nrefs, cap;
    int *refs;
    long lo, hi;   /* every element any of its references covers in the execution */
    int monotone;  /* +1 / -1: every reference walks dim 0 up / down, so strips' spans do too */
    const char *source; /* PUT from a local array: its one reference's source, else NULL */
    long source_shift;
    lc_strip_set *hist; /* GET: what strips 0.. of this execution moved */
    long nhist, hist_cap;
    lc_inspection *inspection; /* an inspected reference's group (its own): its elements */
    long all_arrived_at;       /* inspected: the strip from which its whole span has arrived, -1 */
    long spanned_lo, spanned_hi; /* inspected: the elements span transfers moved (empty: lo > hi) */
} lc_group;

/* Groups refs (sets refs[i].group; a reference with a source, or inspected, is a group of its
 * own); returns
 * the number of groups, *out malloc'd. */
int lc_groups_build(lc_ref *refs, int nrefs, long trip, lc_group **out);
void lc_groups_free(lc_group *g, int n);
void lc_group_forget(lc_group *g); /* drops the history: a new execution */

/* Iteration of the outermost loop where strip k starts: strips differ by at most one. */
long lc_strip_first(long trip, long strips, long k);

/* What strip [first, last) of group g moves (not an inspected group: inspect.h has its strips): the union of its references' regions, and for a
 * GET without what earlier strips (hist[0..nhist)) already moved. */
void lc_group_strip(const lc_ref *refs, const lc_group *g, long first, long last,
                    const lc_strip_set *hist, long nhist, lc_strip_set *out);
/* lc_group_strip against g's own history, appended to it (GET) */
const lc_strip_set *lc_group_next_strip(const lc_ref *refs, lc_group *g, long first, long last,
                                        lc_strip_set *scratch);
void lc_strip_set_free(lc_strip_set *s);

/* A PUT reference whose strips could write the same element (then nbi puts of consecutive
 * strips race, and a strip could overwrite a buffer element still being put). */
int lc_put_may_overlap(const lc_ref *r, long trip);

/* Fallback reasons (a bit set, lc_fallback_text names them) */
enum { LC_FB_PUT_OVERLAP = 1, LC_FB_KIND_IGNORED = 2, LC_FB_INDICES_TOO_WIDE = 4 };
void lc_fallback_text(int fallback, char *buf, size_t size);

/* The number of strips: forced_strips > 0 (clamped to trip), else the S in 1, 2, 4, ...
 * <= min(trip, 4096) with the least lc_schedule_time; 1 when a PUT could overlap between
 * strips.  *fallback gets the reasons. */
long lc_choose_strips(const lc_params *p, const lc_ref *refs, int nrefs, const lc_group *g, int ng,
                      long trip, double compute_us, long forced_strips, enum lc_kind forced_kind,
                      int *fallback);

/* The modelled time of the nest with `strips` strips (what lc_choose_strips minimises). */
double lc_plan_time(const lc_params *p, const lc_ref *refs, const lc_group *g, int ng, long trip,
                    double compute_us, long strips, enum lc_kind forced_kind);

#define LC_MAX_STRIPS 4096

#endif
