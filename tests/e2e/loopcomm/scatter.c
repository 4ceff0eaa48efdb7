/* Loops that write remote data an element at a time: MG's ghost plane (rows of a 3-D array
 * put into the neighbour's ghost plane), a strided column, one-element puts, and puts whose
 * values come from remote reads of another array.  On one PE the neighbour is the PE itself
 * and the loops that read the array they write keep their fine-grained accesses.  Puts of a
 * local array's elements, which the run time puts straight from that array where the strides
 * agree: the same stride, another stride (through the buffer), a float converted to double
 * (never from the array), and one-element puts from it. */
#include <shmem.h>
#include <stdio.h>

#define NZ 6
#define NY 5
#define NX 33
#define N 200

double u[NZ][NY + 2][NX];
double col[N][4];
long w[N];
double v[N];
double x[N], y[2 * N];
float f[N];

static double checksum(const double *a, int n)
{
    double s = 0;
    for (int i = 0; i < n; i++)
        s += a[i] * (1 + i % 11);
    return s;
}

int main(void)
{
    shmem_init();
    int me = shmem_my_pe(), npes = shmem_n_pes();
    int up = (me + 1) % npes, down = (me + npes - 1) % npes;
    for (int k = 0; k < NZ; k++)
        for (int j = 0; j < NY + 2; j++)
            for (int i = 0; i < NX; i++)
                u[k][j][i] = (j == 0 || j == NY + 1) ? -1 : me * 1e5 + k * 1e3 + j * 100 + i;
    for (int i = 0; i < N; i++) {
        v[i] = me * 1000 + i;
        f[i] = (float)(me * 10 + i) + 0.1f;
    }
    for (int i = 0; i < 2 * N; i++)
        y[i] = -1;
    shmem_barrier_all();

    /* MG: my top interior plane into the ghost plane below the neighbour above's interior,
     * my bottom interior plane into the neighbour below's top ghost plane */
    for (int k = 0; k < NZ; k++)
        for (int i = 0; i < NX; i++)
            shmem_double_p(&u[k][0][i], u[k][NY][i], up);
    for (int k = 0; k < NZ; k++)
        for (int i = 0; i < NX; i++)
            shmem_double_p(&u[k][NY + 1][i], u[k][1][i], down);
    shmem_barrier_all();
    printf("pe %d ghosts %.1f\n", me, checksum(&u[0][0][0], NZ * (NY + 2) * NX));

    /* a column of a remote matrix, with values read remotely from another array */
    for (int r = 0; r < N; r++)
        shmem_double_p(&col[r][2], shmem_double_g(&v[N - 1 - r], down) * 0.5, up);
    /* one-element puts of integers */
    for (int r = 0; r < N; r += 2) {
        long value = me * 7 + r;
        shmem_long_put(&w[r], &value, 1, up);
    }
    shmem_barrier_all();
    printf("pe %d column %.1f\n", me, checksum(&col[0][0], N * 4));
    long sw = 0;
    for (int r = 0; r < N; r++)
        sw += w[r] * (r % 3 + 1);
    printf("pe %d integers %ld\n", me, sw);

    for (int i = 0; i < N - 3; i++)        /* v's elements, the same stride */
        shmem_double_p(&x[i], v[i + 3], up);
    for (int i = 0; i < N; i++)            /* v's elements into every other element of y */
        shmem_double_p(&y[2 * i + 1], v[N - 1 - i], down);
    shmem_barrier_all();
    printf("pe %d from v %.1f %.1f\n", me, checksum(x, N), checksum(y, 2 * N));
    shmem_barrier_all();   /* every PE has read x and y before they are written again */
    for (int i = 0; i < N; i++)            /* floats, converted */
        shmem_double_p(&x[i], f[i], up);
    for (int i = 0; i < N / 2; i++)        /* one-element puts from v */
        shmem_double_put(&y[i], &v[2 * i], 1, down);
    shmem_barrier_all();
    printf("pe %d from f and v %.3f %.1f\n", me, checksum(x, N), checksum(y, 2 * N));

    shmem_barrier_all();
    shmem_finalize();
    return 0;
}
