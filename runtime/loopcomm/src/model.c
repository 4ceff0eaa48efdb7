/* model.c: the LogGP costs of transfer kinds and the schedule's time (model.h). */
#include "model.h"

#include <string.h>

const char *const lc_prim_names[LC_NPRIMS] = {"get", "get_nbi", "put_nbi", "iget", "iput"};
#define LC_KIND_NAME(ID, name) #name,
const char *const lc_kind_names[LC_NKINDS] = {LC_KINDS(LC_KIND_NAME)};

/* Used without a profile.  Deliberately middle-of-the-road (a few µs per operation, a few
 * GB/s) so that neither many small pieces nor huge spans look free; bench/loopcomm/train
 * replaces them with this machine's figures. */
void lc_params_defaults(lc_params *p)
{
    memset(p, 0, sizeof *p);  /* padding too: parameters compare whole (the profile's tests) */
    const lc_loggp get = {2.0, 2.0, 0.0005, 0.0, 0.0}, nbi = {0.5, 0.5, 0.0005, 2.0, 0.0},
                   iget = {3.0, 3.0, 0.002, 0.0, 0.0}, iput = {1.0, 1.0, 0.002, 2.0, 0.0};
    p->prim[LC_GET] = get;
    p->prim[LC_GET_NBI] = nbi;
    p->prim[LC_PUT_NBI] = nbi;
    p->prim[LC_IGET] = iget;
    p->prim[LC_IPUT] = iput;
    p->t_op_ns = 1.0;
    p->quiet_reads_back = 1;
}

static int blocking(enum lc_prim prim) { return prim == LC_GET || prim == LC_IGET; }

double lc_prim_cost(const lc_params *p, enum lc_prim prim, long n, double bytes, double *cpu)
{
    const lc_loggp *m = &p->prim[prim];
    if (n <= 0) {
        if (cpu) *cpu = 0;
        return 0;
    }
    double t = m->L + m->o + (double)(n - 1) * m->g + m->G * bytes;
    if (cpu) {
        double issue = (double)n * m->o + m->Gcpu * bytes;
        *cpu = blocking(prim) || issue > t ? t : issue;
    }
    return t;
}

long lc_strided_calls(const lc_region *r, long *elems_per_call)
{
    if (r->dims == 0) {  /* one run: one call at stride 1 */
        *elems_per_call = r->run;
        return 1;
    }
    long calls = r->run;
    for (int d = 1; d < r->dims; d++)
        calls *= r->count[d];
    *elems_per_call = r->count[0];
    return calls;
}

/* Each kind's applies and cost (cpu as for lc_prim_cost), by the names LC_KINDS gives. */
static int span_applies(const lc_region *r, size_t elem_size, int put)
{
    (void)r, (void)elem_size;
    return !put;
}

static double span_cost(const lc_params *p, const lc_region *r, size_t elem_size, int put, double *cpu)
{
    (void)put;
    double span = (double)(lc_region_hi(r) - lc_region_lo(r) + 1) * (double)elem_size;
    return lc_prim_cost(p, LC_GET_NBI, 1, span, cpu);
}

static int strided_applies(const lc_region *r, size_t elem_size, int put)
{
    (void)put;
    return lc_region_regular(r) && (elem_size == 4 || elem_size == 8 || elem_size == 16);
}

static double strided_cost(const lc_params *p, const lc_region *r, size_t elem_size, int put, double *cpu)
{
    long per;
    long calls = lc_strided_calls(r, &per);
    double bytes = (double)lc_region_elements(r) * (double)elem_size;
    return lc_prim_cost(p, put ? LC_IPUT : LC_IGET, calls, bytes, cpu);
}

static int pieces_applies(const lc_region *r, size_t elem_size, int put)
{
    (void)r, (void)elem_size, (void)put;
    return 1;
}

static double pieces_cost(const lc_params *p, const lc_region *r, size_t elem_size, int put, double *cpu)
{
    double bytes = (double)lc_region_elements(r) * (double)elem_size;
    return lc_prim_cost(p, put ? LC_PUT_NBI : LC_GET_NBI, lc_region_runs(r), bytes, cpu);
}

#define LC_KIND_APPLIES(ID, name) name##_applies,
#define LC_KIND_COST(ID, name) name##_cost,
static int (*const kind_applies[LC_NKINDS])(const lc_region *, size_t, int) = {LC_KINDS(LC_KIND_APPLIES)};
static double (*const kind_cost[LC_NKINDS])(const lc_params *, const lc_region *, size_t, int,
                                            double *) = {LC_KINDS(LC_KIND_COST)};

int lc_kind_applies(enum lc_kind k, const lc_region *r, size_t elem_size, int put)
{
    return k >= 0 && k < LC_NKINDS && kind_applies[k](r, elem_size, put);
}

double lc_region_cost(const lc_params *p, const lc_region *r, size_t elem_size, int put,
                      enum lc_kind k, double *cpu)
{
    if (lc_region_empty(r)) {
        if (cpu) *cpu = 0;
        return 0;
    }
    return kind_cost[k](p, r, elem_size, put, cpu);
}

enum lc_kind lc_choose_kind(const lc_params *p, const lc_region *r, size_t elem_size, int put,
                            enum lc_kind forced, double *cost, double *cpu)
{
    enum lc_kind best = LC_KIND_PIECES;
    if (forced != LC_KIND_MODEL && lc_kind_applies(forced, r, elem_size, put)) {
        best = forced;
    } else {
        double best_cost = lc_region_cost(p, r, elem_size, put, LC_KIND_PIECES, 0);
        for (int k = 0; k < LC_NKINDS; k++) {
            if (k == LC_KIND_PIECES || !lc_kind_applies(k, r, elem_size, put))
                continue;
            double c = lc_region_cost(p, r, elem_size, put, k, 0);
            if (c < best_cost) {
                best_cost = c;
                best = k;
            }
        }
    }
    double c = lc_region_cost(p, r, elem_size, put, best, cpu);
    if (cost)
        *cost = c;
    return best;
}

double lc_schedule_time(long strips, double compute_us, double c0, double c1, double cpu1, double tail)
{
    if (strips <= 0)
        return 0;
    double per = compute_us / (double)strips, wire = c1 - cpu1;
    if (wire < 0)
        wire = 0;
    double later = cpu1 + (per > wire ? per : wire);
    return c0 + (double)(strips - 1) * later + per + tail;
}
