/* tune.c: the search of tune.h. */
#include "tune.h"

/* A shift counts as faster only by more than this fraction: rounds on a shared machine vary
 * by a few %, and with 2 % the search followed the noise (on shm it moved 1 to 2 strips in 6 of
 * 8 configurations and ran slower than the model's plan in 5). */
#define LC_TUNE_MARGIN 0.05
/* A round lasts at least this long, in µs, however many executions that takes: a nest of tens
 * of µs (MG's planes) timed over two executions is timed over one scheduler tick's noise. */
#define LC_TUNE_LEAST_ROUND_US 1000.0
#define LC_TUNE_MOST_SHIFT 12

void lc_tuner_start(lc_tuner *t, int round, int search)
{
    *t = (lc_tuner){.state = LC_TUNE_SEARCHING, .round = round > 0 ? round : 1, .search = search};
}

static long scaled(long strips, int shift, long limit)
{
    long s = strips > 0 ? strips : 1;
    for (int i = 0; i < shift && s < limit; i++)
        s *= 2;
    for (int i = 0; i > shift && s > 1; i--)
        s /= 2;
    return s < limit ? s : limit;
}

long lc_tuner_strips(const lc_tuner *t, long model_strips, long limit)
{
    return scaled(model_strips, t->state == LC_TUNE_SETTLED ? t->best_shift : t->shift, limit);
}

/* Whether a step in direction d from the best gives other strips (the limit or 1 not yet
 * reached) within the most shift; the step's shift in *next. */
static int can_step(const lc_tuner *t, int d, long model_strips, long limit, int *next)
{
    *next = t->best_shift + d;
    return *next <= LC_TUNE_MOST_SHIFT && *next >= -LC_TUNE_MOST_SHIFT &&
           scaled(model_strips, *next, limit) != scaled(model_strips, t->best_shift, limit);
}

void lc_tuner_measured(lc_tuner *t, double us, double iterations, long model_strips, long limit)
{
    if (t->state == LC_TUNE_SETTLED || iterations <= 0)
        return;
    t->round_us += us;
    t->round_iterations += iterations;
    if (++t->in_round < t->round || t->round_us < LC_TUNE_LEAST_ROUND_US)
        return;
    double per = t->round_us / t->round_iterations;
    t->in_round = 0;
    t->round_us = t->round_iterations = 0;

    if (t->direction == 0) {                /* the model's own plan */
        t->model_us = t->best_us = per;
        if (!t->search) {
            t->state = LC_TUNE_SETTLED;
            return;
        }
        t->direction = 1;
    } else if (per < t->best_us * (1 - LC_TUNE_MARGIN)) {
        t->best_us = per;
        t->best_shift = t->shift;
    } else if (t->direction > 0 && t->best_shift == 0) {
        t->direction = -1;                  /* more strips did not help: fewer */
    } else {
        t->state = LC_TUNE_SETTLED;
        return;
    }
    int next;
    int step = can_step(t, t->direction, model_strips, limit, &next);
    if (!step && t->direction > 0 && t->best_shift == 0) {  /* nothing above the model's plan */
        t->direction = -1;
        step = can_step(t, -1, model_strips, limit, &next);
    }
    if (step)
        t->shift = next;
    else
        t->state = LC_TUNE_SETTLED;
}
