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

#include "cannon_kernels.h"
#include "jacobi3d_kernels.h"

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
static double median_run(void (*run)(void *), void *data)
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

/* jacobi3d_sweep: the cost of a point, the same in every block and box of every variant:
 * what a sweep of a 96^3 block (bench/smpi's jacobi3d at 64 ranks, its largest) costs per
 * point, with tiles 4 x 8 (the program's default). Smaller blocks sweep faster here, as far
 * as this machine's caches hold them (a 48 x 96 x 96 block: 0.67 ns per point against 1.05),
 * and the slabs that MPI-olap cuts its block into would, timed one by one, run from cache;
 * the simulated nodes' caches, 1 MB or less per core, hold none of these blocks. */
struct sweep_case {
    struct block g;
    int box[6];
    double *u, *v, *b;
};

static void run_sweep(void *data)
{
    struct sweep_case *c = data;
    sweep_box(&c->g, c->v, c->u, c->b, c->box[0], c->box[1], c->box[2], c->box[3], c->box[4], c->box[5]);
}

static double sweep_cost(const int *shape, int count)
{
    (void)shape;
    if (count != 0)
        return -1;
    struct sweep_case c = {.g = {.nz = 96, .ny = 96, .nx = 96, .bz = 4, .by = 8}, .box = {1, 97, 1, 97, 1, 97}};
    size_t cells = block_cells(&c.g);
    c.u = malloc(cells * sizeof *c.u);
    c.v = malloc(cells * sizeof *c.v);
    c.b = malloc(cells * sizeof *c.b);
    if (!c.u || !c.v || !c.b)
        return -1;
    for (size_t i = 0; i < cells; i++) { /* values like a run's: no zeros, no subnormals */
        c.u[i] = 1.0 + 1e-3 * (double)(i % 97);
        c.v[i] = 0.5;
        c.b[i] = 1e-4 * (double)(i % 89);
    }
    double points = (double)(c.box[1] - c.box[0]) * (c.box[3] - c.box[2]) * (c.box[5] - c.box[4]);
    double seconds = median_run(run_sweep, &c) / points;
    free(c.u);
    free(c.v);
    free(c.b);
    return seconds;
}

/* cannon_dgemm: nb, rows (cannon_kernels.h): rows x nb of C += A * B, B nb x nb. */
struct dgemm_case {
    int nb, rows;
    double *a, *b, *c;
};

static void run_dgemm(void *data)
{
    struct dgemm_case *d = data;
    cannon_multiply_add_rows(d->nb, 0, d->rows, d->a, d->b, d->c);
}

static double dgemm_cost(const int *shape, int count)
{
    if (count != 2)
        return -1;
    struct dgemm_case d = {.nb = shape[0], .rows = shape[1]};
    size_t n = (size_t)d.nb * (size_t)d.nb;
    d.a = malloc(n * sizeof *d.a);
    d.b = malloc(n * sizeof *d.b);
    d.c = calloc(n, sizeof *d.c);
    if (!d.a || !d.b || !d.c)
        return -1;
    for (size_t i = 0; i < n; i++) {
        d.a[i] = (double)(i % 13) - 6;
        d.b[i] = (double)(i % 7) - 3;
    }
    double flops = 2.0 * d.rows * d.nb * d.nb;
    double seconds = median_run(run_dgemm, &d) / flops;
    free(d.a);
    free(d.b);
    free(d.c);
    return seconds;
}

static const struct {
    const char *name;
    double (*cost)(const int *shape, int count);
} kernels[] = {
    {"jacobi3d_sweep", sweep_cost},
    {"cannon_dgemm", dgemm_cost},
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
