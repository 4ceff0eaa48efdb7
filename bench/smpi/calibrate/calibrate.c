/* calibrate: what one unit of an application kernel's work costs on this machine, natively,
 * for bench/smpi's model of computation (apps/common/compute_model.h).
 *
 *   calibrate APP_COST_KEY...     prints "KEY SECONDS" per key: seconds per unit of work
 *
 * A key is what the kernel's call under SMPI asked for: its name and the integers its speed
 * depends on. The kernel runs here alone, on buffers of the shape the key gives, until at
 * least 21 runs and 20 ms have passed, each run right after the one before, its data in
 * this machine's caches as far as they hold it, as when a rank sweeps its block step after
 * step with little else in between; the median run counts. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "calibrate.h"

enum { kMaxShape = 16, kLeastRuns = 21 };
static const double kLeastSeconds = 0.02;

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static int by_value(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* Runs `run(data)` once, then until enough runs and time have passed; the median run in
 * seconds. */
double median_run(void (*run)(void *), void *data)
{
    static double times[1 << 16];
    run(data);
    int runs = 0;
    double spent = 0;
    while ((runs < kLeastRuns || spent < kLeastSeconds) && runs < (int)(sizeof times / sizeof times[0])) {
        double start = now();
        run(data);
        times[runs] = now() - start;
        spent += times[runs++];
    }
    qsort(times, (size_t)runs, sizeof times[0], by_value);
    return times[runs / 2];
}

static const struct {
    const char *name;
    double (*cost)(const int *shape, int count);
} kernels[] = {
    {"jacobi3d_sweep", jacobi3d_sweep_cost},
    {"cannon_dgemm", cannon_dgemm_cost},
    {"multigrid_zero", multigrid_zero_cost},
    {"multigrid_pack", multigrid_pack_cost},
    {"multigrid_unpack", multigrid_unpack_cost},
    {"multigrid_gsrb", multigrid_gsrb_cost},
    {"multigrid_residual", multigrid_residual_cost},
    {"multigrid_restrict", multigrid_restrict_cost},
    {"multigrid_interpolate", multigrid_interpolate_cost},
};

int main(int argc, char **argv)
{
    for (int a = 1; a < argc; a++) {
        const char *key = argv[a], *prefix = "APP_COST_";
        double seconds = -1;
        for (size_t k = 0; k < sizeof kernels / sizeof kernels[0] && seconds < 0; k++) {
            size_t length = strlen(prefix) + strlen(kernels[k].name);
            if (strncmp(key, prefix, strlen(prefix)) != 0 || strncmp(key + strlen(prefix), kernels[k].name, strlen(kernels[k].name)) != 0 ||
                (key[length] != '_' && key[length] != '\0'))
                continue;
            int shape[kMaxShape], count = 0;
            for (const char *p = key + length; *p == '_' && count < kMaxShape; count++) {
                char *end;
                shape[count] = (int)strtol(p + 1, &end, 10);
                if (end == p + 1)
                    break;
                p = end;
            }
            seconds = kernels[k].cost(shape, count);
        }
        if (seconds < 0) {
            fprintf(stderr, "calibrate: no kernel answers to %s\n", key);
            return 1;
        }
        printf("%s %.6e\n", key, seconds);
    }
    return 0;
}
