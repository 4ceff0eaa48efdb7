/* tune.h: the model's strip count corrected by measuring the nest itself.
 *
 * The model (model.h) predicts from primitives measured alone; what a schedule really costs
 * also depends on what the model does not see: when the target PE progresses a transfer (over
 * TCP, only inside a SHMEM call), cache effects, other PEs sharing the cores.  So a site's
 * executions search a correction: strips = the model's choice times 2^shift, one round of
 * executions per shift tried (a round is as many executions as there are PEs, so a nest run
 * once per source PE is timed over all of them, and at least a millisecond), upward first
 * while the time per iteration falls by more than 5 %, else downward, and the site keeps the
 * fastest.  Seed 004 section 6 measures the
 * application's computation at run time the same way.  No SHMEM here: unit-tested with plain cc. */
#ifndef BAMBOO_LC_TUNE_H
#define BAMBOO_LC_TUNE_H

enum lc_tune_state { LC_TUNE_SEARCHING, LC_TUNE_SETTLED };

typedef struct lc_tuner {
    enum lc_tune_state state;
    int shift;          /* the exponent being tried */
    int direction;      /* +1 up, -1 down, 0 while the model's own plan (shift 0) is timed */
    int best_shift;
    double best_us;     /* µs per outer iteration at best_shift */
    int round;          /* executions per round */
    int in_round;       /* executions timed in this round */
    double round_us, round_iterations;
    double model_us;    /* µs per outer iteration at shift 0 (the model's plan), 0 until timed */
    int search;         /* 0: time the model's plan, then settle there */
} lc_tuner;

/* A tuner that starts at the model's plan with rounds of `round` executions (at least 1) and,
 * if `search`, looks for better strips after it. */
void lc_tuner_start(lc_tuner *t, int round, int search);

/* The strips to use: model_strips * 2^shift, within [1, limit]. */
long lc_tuner_strips(const lc_tuner *t, long model_strips, long limit);

/* One execution at lc_tuner_strips(t, model_strips, limit) took `us` for `iterations` outer
 * iterations; at the end of a round, the search moves on (or settles). */
void lc_tuner_measured(lc_tuner *t, double us, double iterations, long model_strips, long limit);

#endif
