/* model.h: what moving a region costs, LogGP style (seed 004 sections 4 and 6), and how many
 * strips a nest is cut into.  Parameters come from the profile bench/loopcomm/train measured
 * (profile.h); times are microseconds.  No SHMEM here. */
#ifndef BAMBOO_LC_MODEL_H
#define BAMBOO_LC_MODEL_H

#include <stddef.h>

#include "lmad.h"

/* One primitive's parameters: o issue overhead per operation (CPU time, not overlapped), g gap
 * between consecutive operations (the rate they can be issued at, >= o in practice), G per
 * byte, L latency (time from the last issue until everything has arrived).  A blocking
 * primitive (getmem, iget) keeps the CPU for the whole transfer: its o is the whole per-call
 * time at zero bytes, g = o and L = 0. */
typedef struct lc_loggp {
    double o, g, G, L;
    double Gcpu; /* CPU time per byte at issue: 0 when the network moves the data on its own;
                  * about G when a "nonblocking" transfer copies synchronously (UCX over
                  * shared memory here), so that its cost cannot overlap computation */
} lc_loggp;

enum lc_prim { LC_GET, LC_GET_NBI, LC_PUT_NBI, LC_IGET, LC_IPUT, LC_NPRIMS };
/* The transfer kinds, the one list of them: a kind is its row here, its applies and cost in
 * model.c, its SHMEM calls in transfer.c (each found by the row's name). The order is the
 * enum's; nest.c reads the names for BAMBOO_LC_KIND and the reports.
 *   span:    one get of everything from the region's first element to its last (gets only)
 *   strided: shmem_iget/iput along the first dimension, elements of 4, 8 or 16 bytes
 *   pieces:  one transfer per contiguous run (always applies, never moves holes) */
#define LC_KINDS(X) X(SPAN, span) X(STRIDED, strided) X(PIECES, pieces)

#define LC_KIND_ENUMERATOR(ID, name) LC_KIND_##ID,
enum lc_kind { LC_KINDS(LC_KIND_ENUMERATOR) LC_NKINDS, LC_KIND_MODEL = -1 };
#undef LC_KIND_ENUMERATOR

typedef struct lc_params {
    lc_loggp prim[LC_NPRIMS];
    double t_op_ns; /* ns per arithmetic operation or local reference */
    int quiet_reads_back; /* each quiet is followed by a blocking get per PE (bamboo_shmem_quiet
                           * where UCX may use shared memory): a round trip per strip */
} lc_params;

extern const char *const lc_prim_names[LC_NPRIMS];  /* profile keys: get, get_nbi, ... */
extern const char *const lc_kind_names[LC_NKINDS];  /* as LC_KINDS names them */

void lc_params_defaults(lc_params *p);

/* The cost of n operations of primitive p moving `bytes` in all:  L + o + (n-1) g + G bytes
 * (n >= 1).  `cpu` gets the part the CPU spends issuing (n o + Gcpu bytes, at most the
 * whole, for a nonblocking primitive; all of it for a blocking one); the rest can overlap
 * with computation. */
double lc_prim_cost(const lc_params *p, enum lc_prim prim, long n, double bytes, double *cpu);

/* Does kind k apply to region r of elements of elem_size bytes, in direction put? (LC_KINDS
 * says when each does.) */
int lc_kind_applies(enum lc_kind k, const lc_region *r, size_t elem_size, int put);

/* Calls (shmem_iget/iput) a strided transfer of r takes, and the elements each moves: one
 * call per position in the run and per combination of the dims above the first. */
long lc_strided_calls(const lc_region *r, long *elems_per_call);

/* The cost of moving r as kind k (cpu as for lc_prim_cost). */
double lc_region_cost(const lc_params *p, const lc_region *r, size_t elem_size, int put,
                      enum lc_kind k, double *cpu);

/* The cheapest applicable kind, or `forced` when it applies (LC_KIND_MODEL: none forced);
 * pieces wins ties (it never moves holes). */
enum lc_kind lc_choose_kind(const lc_params *p, const lc_region *r, size_t elem_size, int put,
                            enum lc_kind forced, double *cost, double *cpu);

/* The nest's time with S strips (schedule A for GETs, B for PUTs): the first strip's GETs,
 * then for every further strip its transfers' issue (cpu1) and max(computation of a strip,
 * the rest of its transfers c1 - cpu1), then the last strip's computation and, exposed, the
 * last strip's PUTs (tail).  With nothing to transfer and a single-strip nest this is the
 * computation time. */
double lc_schedule_time(long strips, double compute_us, double c0, double c1, double cpu1, double tail);

#endif
