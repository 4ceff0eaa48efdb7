/* report.c: BAMBOO_LC_REPORT=1, one line per site at exit from PE 0, in the form other tools
 * parse:
 *   bamboo_lc site=FILE:LINE executions=N strips=S kind=K refs=R bytes=B analysis_us=A fallback=F
 *             model_strips=M model_us=P measured_us=Q inspections=I misses=X
 * S, K, R and F are the last execution's; K lists each region's kind of its first strip;
 * B counts every byte this PE moved for the site (span holes included); A is the time spent
 * in bamboo_lc_begin, _ref and _plan, all executions.  M is the model's strips for the last
 * execution's shape, P its predicted and Q its measured µs per outer iteration (the first
 * round of the search, tune.h; 0 when never timed).  I counts the runs of the site's inspector
 * and X the elements read with a blocking get because their index missed the inspection. */
#include <stdio.h>
#include <stdlib.h>

#include "state.h"

static void report(void)
{
    if (lc_config.my_pe != 0)
        return;
    for (lc_site_state *s = lc_sites; s; s = s->next) {
        char fallback[64];
        lc_fallback_text(s->fallback, fallback, sizeof fallback);
        fprintf(stderr, "bamboo_lc site=%s:%d executions=%ld strips=%ld kind=%s refs=%d bytes=%.0f "
                        "analysis_us=%.3f fallback=%s model_strips=%ld model_us=%.3f measured_us=%.3f "
                        "inspections=%ld misses=%ld\n",
                s->site->file ? s->site->file : "?", s->site->line, s->executions, s->strips,
                s->kinds[0] ? s->kinds : "none", s->refs, s->bytes, s->analysis_us, fallback,
                s->model_strips, s->model_us, s->tuning ? s->tuner.model_us : 0.0, s->inspections,
                s->misses);
    }
    fflush(stderr);
}

void lc_report_register(void)
{
    static int done;
    if (!done) {
        done = 1;
        atexit(report);
    }
}
