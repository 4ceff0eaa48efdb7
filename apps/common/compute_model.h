/* Computation under SimGrid SMPI (bench/smpi): charged by a model, not timed.
 *
 *   APP_COMPUTE(work, "name", shape...) statement;
 *
 * marks `statement`, one call of a kernel that does `work` units of work (points swept,
 * flops), as computation; "name" and the integers after it, if any (the operands' sizes
 * where the kernel's speed per unit depends on them), form its cost key. Natively the statement
 * just runs. Under SMPI (smpicc force-includes smpi_helpers.h) with APP_SMPI_MODEL=1 in the
 * environment, the statement still runs, for the program's results, but untimed, and the
 * simulated processor is charged `work` times the seconds per unit that the environment
 * variable named by the key (APP_COST_name_3_96_96, say) gives: bench/smpi/calibrate
 * measures it natively, the kernel alone and warm.
 *
 * Why not let SMPI time the call: every simulated rank runs on this one core, so each call
 * starts with caches that other ranks' calls and the simulator filled, and how cold they are
 * depends on how a variant interleaves with the others; the same sweep measured up to twice
 * its native time per point, more for variants that switch often, and its noise is
 * amplified by the slowest of P ranks in every step. With the model every variant's compute
 * costs the same for the same work, run after run.
 *
 * A key with no cost in the environment is reported on stderr, once ("app: no modelled cost
 * for KEY"), and charged nothing: bench/smpi/run calibrates it and runs the simulation again. */
#ifndef BAMBOO_APPS_COMPUTE_MODEL_H
#define BAMBOO_APPS_COMPUTE_MODEL_H

#ifdef SMPI_HELPERS_H
#include <simgrid/host.h>
#include <smpi/smpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <xbt/config.h>

typedef struct app_charge {
    double seconds; /* < 0: not modelled, SMPI times the call as usual */
    int done;
} app_charge;

/* Whether SMPI times the code between MPI calls (smpi/simulate-computation). Where it does
 * not, stopping its timer before a modelled call and starting it after only costs two
 * system calls (it reads the thread's CPU clock). */
static inline int app_code_timed(void)
{
    static int timed = -1;
    if (timed < 0)
        timed = sg_cfg_get_boolean("smpi/simulate-computation");
    return timed;
}

/* Each kernel shape's cost, looked up in the environment once: building the key and getenv(),
 * which compares every variable (hundreds under bench/smpi), took a tenth of a simulation's
 * wall time. A shape is the call's name (its string literal) and integers; shapes are few per
 * program, and past the table's size they are looked up every time. Returns the seconds per
 * unit of work, or a negative number where the environment has no cost for the key (said on
 * stderr the first time). */
enum { APP_SHAPE_INTS = 4, APP_SHAPES = 64 };

static inline double app_cost_lookup(const char *name, const int *shape, int count)
{
    char key[256];
    int at = snprintf(key, sizeof key, "APP_COST_%s", name);
    for (int i = 0; i < count && at > 0 && at < (int)sizeof key; i++)
        at += snprintf(key + at, sizeof key - (size_t)at, "_%d", shape[i]);
    const char *cost = getenv(key);
    if (!cost)
        fprintf(stderr, "app: no modelled cost for %s\n", key);
    return cost ? strtod(cost, NULL) : -1;
}

static inline double app_cost_of(const char *name, const int *shape, int count)
{
    static struct {
        const char *name;
        int shape[APP_SHAPE_INTS], count;
        double seconds;
    } known[APP_SHAPES];
    static int known_count;
    if (count > APP_SHAPE_INTS)
        return app_cost_lookup(name, shape, count);
    for (int i = 0; i < known_count; i++)
        if (known[i].name == name && known[i].count == count &&
            memcmp(known[i].shape, shape, (size_t)count * sizeof *shape) == 0)
            return known[i].seconds;
    double seconds = app_cost_lookup(name, shape, count);
    if (known_count < APP_SHAPES) {
        known[known_count].name = name;
        known[known_count].count = count;
        memcpy(known[known_count].shape, shape, (size_t)count * sizeof *shape);
        known[known_count++].seconds = seconds;
    }
    return seconds;
}

static inline app_charge app_charge_begin(double work, const char *name, const int *shape, int count)
{
    app_charge charge = {-1, 0};
    static int modelled = -1;
    if (modelled < 0) {
        const char *model = getenv("APP_SMPI_MODEL");
        modelled = model && model[0] == '1';
    }
    if (!modelled)
        return charge;
    double seconds = app_cost_of(name, shape, count);
    if (app_code_timed())
        smpi_bench_end(); /* what ran before the call is timed as usual */
    charge.seconds = seconds >= 0 ? work * seconds : 0;
    return charge;
}

static inline void app_charge_end(app_charge *charge)
{
    charge->done = 1;
    if (charge->seconds < 0)
        return;
    if (charge->seconds > 0) /* as flops: smpi_execute() drops charges under smpi/cpu-threshold */
        smpi_execute_flops(charge->seconds * sg_host_get_speed(sg_host_self()));
    if (app_code_timed())
        smpi_bench_begin();
}

/* The shape's integers follow a leading 0, so that a kernel may give none. */
#define APP_COMPUTE(work, name, ...)                                                                   \
    for (app_charge app_charge_ = app_charge_begin((double)(work), (name), (const int[]){0, __VA_ARGS__} + 1, \
                                                   (int)(sizeof((const int[]){0, __VA_ARGS__}) / sizeof(int)) - 1); \
         !app_charge_.done; app_charge_end(&app_charge_))
#else
#define APP_COMPUTE(work, name, ...)
#endif

#endif
