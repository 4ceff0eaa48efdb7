/* calibrate: what one unit of an application kernel's work costs on this machine, natively,
 * for bench/smpi's model of computation (apps/common/compute_model.h).
 *
 *   calibrate APP_COST_KEY...     prints "KEY SECONDS" per key: seconds per unit of work
 *
 * A key is what the kernel's call under SMPI asked for: its name and the integers its speed
 * depends on. The kernel runs here alone, on buffers of the shape the key gives, until at
 * least 21 runs and 20 ms have passed; the median run counts. Before each run the caches are
 * flushed (twice the last-level cache written and read): in a real run a rank's block is
 * touched once per step and the rest of its work passes through the cache in between, and
 * the simulated nodes' cores have 1 MB of cache each or less, less than the blocks. Run
 * again and again on the same block, a kernel would find its data in cache: a 48^3 block of
 * jacobi3d measured at 0.55 ns per point so, at 1.4 ns flushed. */
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

/* Evicts every cache line of the last-level cache (its size from sysfs, else 32 MiB). */
static void flush_caches(void)
{
    static char *junk;
    static size_t bytes;
    if (!junk) {
        size_t kib = 32768;
        FILE *f = fopen("/sys/devices/system/cpu/cpu0/cache/index3/size", "r");
        if (f) {
            if (fscanf(f, "%zu", &kib) != 1)
                kib = 32768;
            fclose(f);
        }
        bytes = 2 * kib * 1024;
        junk = malloc(bytes);
        if (!junk)
            abort();
    }
    volatile char sink = 0;
    for (size_t i = 0; i < bytes; i += 64) {
        junk[i] = (char)(junk[i] + 1);
        sink += junk[i];
    }
    (void)sink;
}

/* Runs `run(data)` after flushing the caches until enough runs and time have passed; the
 * median run in seconds. */
static double median_run(void (*run)(void *), void *data)
{
    static double times[1 << 16];
    run(data);
    int runs = 0;
    double spent = 0;
    while ((runs < kLeastRuns || spent < kLeastSeconds) && runs < (int)(sizeof times / sizeof times[0])) {
        flush_caches();
        double start = now();
        run(data);
        times[runs] = now() - start;
        spent += times[runs++];
    }
    qsort(times, (size_t)runs, sizeof times[0], by_value);
    return times[runs / 2];
}

/* jacobi3d_sweep: block nz ny nx, tiles bz by, box of k planes by j rows, columns i0 to i1
 * (jacobi3d_kernels.h). */
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
    if (count != 9)
        return -1;
    struct sweep_case c = {.g = {.nz = shape[0], .ny = shape[1], .nx = shape[2], .bz = shape[3], .by = shape[4]},
                           .box = {1, 1 + shape[5], 1, 1 + shape[6], shape[7], shape[8]}};
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
                key[length] != '_')
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
