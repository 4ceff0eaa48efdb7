/* state.h: what the runtime keeps per site and per execution (shared by nest.c and report.c). */
#ifndef BAMBOO_LC_STATE_H
#define BAMBOO_LC_STATE_H

#include <stddef.h>

#include "bamboo_loopcomm.h"
#include "model.h"
#include "plan.h"
#include "tune.h"

typedef struct lc_buffer {
    void *p;
    size_t size;
} lc_buffer;

/* A cached inspection: the inspected references' elements for one key (bamboo_lc_inspect). */
typedef struct lc_inspected {
    long *key;          /* the trip count, each reference's array, PE and size, the nest's key */
    size_t nkey;
    lc_inspection *x;   /* per reference of the nest (the inspected ones used) */
    int nx;
    unsigned long used; /* the site's clock when last used: the least recent is replaced */
    int stale;          /* an index missed it: inspect again */
    int in_use;         /* executions using it now (a recursive site's): not replaced meanwhile */
} lc_inspected;

#define LC_MAX_INSPECTIONS 16   /* per site: CG's nest is run for each source PE's block */

typedef struct lc_site_state {
    bamboo_lc_site *site;
    struct lc_site_state *next;   /* every site, in first-execution order, for the report */
    /* the cached plan and the shape it was made for */
    long *signature;
    size_t nsignature;
    int have_plan;
    long strips;
    int fallback;
    /* measured computation: time between advance() returns and the next advance/end */
    double compute_us;
    double compute_iterations;
    int measured_executions;
    int replanned_after_measure;
    /* the model's strips for the cached plan and its predicted µs per outer iteration; the
     * search that corrects it (tune.h), started once the model knows the computation */
    long model_strips;
    double model_us;
    int tuning;
    lc_tuner tuner;
    /* the report's counters */
    long executions;
    int refs;
    double bytes;
    double analysis_us;
    char kinds[256];
    /* inspections (inspect.h) */
    lc_inspected inspected[LC_MAX_INSPECTIONS];
    int ninspected;
    unsigned long clock;
    int missed_in_a_row;   /* executions in a row whose indices missed their inspection */
    int inspect_always;    /* the indices keep changing: no inspection is reused */
    long inspections, misses;
    /* buffers and nests of finished executions, reused (buffers only grow) */
    lc_buffer *free_buffers;
    int nfree, free_cap;
    struct bamboo_lc_nest *free_nests;
} lc_site_state;

struct bamboo_lc_nest {
    lc_site_state *st;
    long trip;
    lc_ref *refs;
    int nrefs, ref_cap;
    lc_group *groups;
    int ngroups;
    lc_buffer *buffers;     /* one per group */
    int buffer_cap;
    long strips;
    long strip_limit;       /* the most strips this execution could have */
    int timed;              /* the tuner times this execution */
    long gets_issued;       /* GET strips issued so far */
    int outstanding;        /* nonblocking transfers not yet quieted */
    int kinds_recorded;
    double began, compute_from, compute_us;
    int computing;
    lc_inspected *inspection;  /* the inspection this execution uses, if it has inspected references */
    lc_inspected own;          /* its own, uncached, when the cached one is in use by another */
    long strip;                /* the strip of the last bamboo_lc_view_strip */
    int inspecting;            /* the inspector runs between bamboo_lc_inspect and _plan */
    double inspect_from, inspect_us;
    long misses;
    struct bamboo_lc_nest *next_free;
};

/* runtime-wide settings, read once (nest.c) */
typedef struct lc_settings {
    lc_params params;
    long forced_strips;         /* 0: the model's */
    enum lc_kind forced_kind;   /* LC_KIND_MODEL: the model's */
    int tune;                   /* correct the model's strips by measurement (tune.h) */
    int report;
    int my_pe;
} lc_settings;

extern lc_settings lc_config;
extern lc_site_state *lc_sites;

void lc_report_register(void); /* atexit, once */

#endif
