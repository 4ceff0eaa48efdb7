#include <stdlib.h>

#include "calibrate.h"
#include "cannon_kernels.h"

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

double cannon_dgemm_cost(const int *shape, int count)
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

