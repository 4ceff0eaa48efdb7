/* Loops that read remote data an element at a time, in the shapes the loop communication
 * optimizer hoists: contiguous, stencil, strided, reversed, 2-D rows, one-element gets, an
 * inner loop without remote accesses, a loop that runs no iteration.  Built as written (oshcc)
 * and by bamboocc, it must print the same at every PE count and every strip count. */
#include <shmem.h>
#include <stdio.h>

#define N 300
#define ROWS 12
#define COLS 40

double x[N];
long lx[N];
int ix[N];
double z[ROWS][COLS];
double q[N], t[ROWS * COLS];
int start[N + 1];

static double checksum(const double *a, int n)
{
    double s = 0;
    for (int i = 0; i < n; i++)
        s += a[i] * (1 + i % 7);
    return s;
}

int main(void)
{
    shmem_init();
    int me = shmem_my_pe(), npes = shmem_n_pes();
    for (int i = 0; i < N; i++) {
        x[i] = me * 100000 + i;
        lx[i] = me * 1000 + i;
        ix[i] = -(me * 1000 + i);
        start[i] = i / 3;
    }
    start[N] = N / 3;
    for (int r = 0; r < ROWS; r++)
        for (int c = 0; c < COLS; c++)
            z[r][c] = me * 10000 + r * 100 + c;
    shmem_barrier_all();
    int next = (me + 1) % npes, n = N;

    /* CG: every PE's block, column by column, into local sums */
    double s = 0;
    for (int b = 0; b < npes; b++)
        for (int j = 0; j < n; j++) {
            double pj = shmem_double_g(&x[j], b);
            for (int k = start[j]; k < start[j + 1]; k++)
                q[k] += pj * (k + 1);
            s += pj;
        }
    printf("pe %d cg %.1f %.1f\n", me, s, checksum(q, N));

    /* stencil: three references of one array, one region */
    int j;
    for (j = 1; j < n - 1; j++)
        q[j] = shmem_double_g(&x[j - 1], next) - 2 * shmem_double_g(&x[j], next) +
               shmem_double_g(&x[j + 1], next) + j;
    printf("pe %d stencil %.1f j=%d\n", me, checksum(q, N), j);

    /* strided, and reversed */
    for (j = 0; j <= n - 3; j += 3)
        q[j / 3] = shmem_double_g(&x[j + 1], next);
    for (int i = 0; i < n; i++)
        q[i] += shmem_double_g(&x[n - 1 - i], next);
    printf("pe %d strided %.1f j=%d\n", me, checksum(q, N), j);

    /* 2-D: a block of columns of every row (rows of COLS/2 at a stride of COLS) */
    for (int r = 0; r < ROWS; r++)
        for (int c = 0; c < COLS / 2; c++)
            t[c * ROWS + r] = shmem_double_g(&z[r][c + COLS / 4], next);
    printf("pe %d rows %.1f\n", me, checksum(t, ROWS * COLS / 2));

    /* one column: one element per row */
    for (int r = 0; r < ROWS; r++)
        t[r] = shmem_double_g(&z[r][3], next) + shmem_double_g(z[r] + 4, next);
    printf("pe %d column %.1f\n", me, checksum(t, ROWS));

    /* integers, and the one-element get */
    long sl = 0;
    int si = 0;
    for (int i = 0; i < n; i += 2) {
        long v;
        shmem_long_get(&v, &lx[i], 1, next);
        sl += v * (i % 5);
        si += shmem_int_g(&ix[i + 1], next);
    }
    printf("pe %d integers %ld %d\n", me, sl, si);

    /* a loop that writes the array it reads remotely (the upper half of the next PE's x into
     * my lower half) and reads another array on this PE: on one PE, fine-grained */
    shmem_barrier_all();
    for (int i = 0; i < n / 2; i++)
        x[i] = shmem_double_g(&x[i + n / 2], next) + shmem_long_g(&lx[i], me) * 0.5;
    printf("pe %d own %.1f\n", me, checksum(x, N));

    /* no iteration at all */
    int none = 0;
    for (j = 5; j < none; j++)
        q[j] = shmem_double_g(&x[j], next);
    printf("pe %d empty j=%d\n", me, j);

    shmem_barrier_all();
    shmem_finalize();
    return 0;
}
