/* Unit tests of tune.c: the search of the strip count by measurement, against made-up
 * execution times with a known best. */
#include <math.h>

#include "check.h"
#include "tune.h"

/* Runs the tuner over `executions` executions of a nest whose time per iteration at S strips
 * is cost(S); returns the strips it settled at (-1: still searching). */
static long search(double (*cost)(long), long model, long limit, int round, int executions, lc_tuner *t)
{
    lc_tuner_start(t, round, 1);
    for (int e = 0; e < executions; e++) {
        long s = lc_tuner_strips(t, model, limit);
        lc_tuner_measured(t, cost(s) * 1000, 1000, model, limit);
    }
    return t->state == LC_TUNE_SETTLED ? lc_tuner_strips(t, model, limit) : -1;
}

static double best_at_64(long s) { return fabs(log2((double)s) - 6) + 1; }
static double best_at_2(long s) { return fabs(log2((double)s) - 1) + 1; }
static double flat(long s) { (void)s; return 5; }
static double more_is_better(long s) { return 100.0 / (double)s; }

int main(void)
{
    lc_tuner t;
    CHECK(search(best_at_64, 8, 4096, 2, 40, &t) == 64);        /* up from the model's 8 */
    CHECK(t.model_us == best_at_64(8) && t.best_us == best_at_64(64));
    CHECK(search(best_at_2, 8, 4096, 2, 40, &t) == 2);          /* up fails, then down */
    CHECK(search(best_at_2, 2, 4096, 1, 40, &t) == 2);          /* the model was right */
    CHECK(search(flat, 8, 4096, 3, 40, &t) == 8);               /* noise-level gains do not move it */
    CHECK(search(more_is_better, 8, 100, 1, 40, &t) == 100);    /* the limit, not past it */
    CHECK(search(more_is_better, 1, 1, 1, 5, &t) == 1);         /* nothing to try: settles at once */
    CHECK(search(best_at_64, 8, 4096, 4, 7, &t) == -1);         /* a round is 4 executions */
    CHECK(lc_tuner_strips(&t, 8, 4096) == 16);                  /* the second round tries 2x */
    /* the round's time is per iteration: executions of different lengths compare */
    lc_tuner_start(&t, 2, 1);
    lc_tuner_measured(&t, 1000, 10, 4, 64);
    lc_tuner_measured(&t, 3000, 30, 4, 64);
    CHECK(t.model_us == 100 && lc_tuner_strips(&t, 4, 64) == 8);
    /* a round lasts a millisecond at least: short executions make longer rounds */
    lc_tuner_start(&t, 1, 1);
    for (int e = 0; e < 9; e++)
        lc_tuner_measured(&t, 100, 1, 4, 64);
    CHECK(t.model_us == 0 && lc_tuner_strips(&t, 4, 64) == 4);
    lc_tuner_measured(&t, 100, 1, 4, 64);
    CHECK(t.model_us == 100 && lc_tuner_strips(&t, 4, 64) == 8);
    /* without the search: the model's plan timed, and kept */
    lc_tuner_start(&t, 1, 0);
    lc_tuner_measured(&t, 7000, 10, 4, 64);
    CHECK(t.state == LC_TUNE_SETTLED && t.model_us == 700 && lc_tuner_strips(&t, 4, 64) == 4);
    return CHECK_DONE("test_tune");
}
