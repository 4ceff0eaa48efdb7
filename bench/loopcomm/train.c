/* train.c: bench/loopcomm/train's measurements, on 2 PEs: PE 0 moves data to and from PE 1
 * the ways the loop communication runtime does, and prints one line per measurement:
 *
 *   PRIM calls bytes_per_call stride issue_us total_us
 *
 * PRIM: get (blocking shmem_getmem), get_nbi and put_nbi (a burst of `calls` nonblocking
 * transfers, then the runtime's completion: shmem_quiet and a one-byte blocking get),
 * iget / iput (`calls` strided transfers of bytes_per_call / 8 doubles, `stride` doubles
 * apart), and top (a multiply-add loop: bytes_per_call = iterations, total_us its time).
 * issue_us is the time until the last call returned, total_us until the data had arrived;
 * both medians of `reps` repetitions.  Meanwhile PE 1 waits in shmem_int_wait_until, a SHMEM
 * call, as a busy target would be inside the runtime (over TCP a get needs the target's UCX
 * worker to progress).
 *
 *   train MAX_BYTES REPS [quick]
 */
#define _POSIX_C_SOURCE 200809L
#include <shmem.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static int done_flag, silent;
static char scratch;

static double now_us(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec * 1e6 + (double)t.tv_nsec * 1e-3;
}

static int by_value(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static double median(double *v, int n)
{
    qsort(v, (size_t)n, sizeof *v, by_value);
    return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

static char *remote;   /* symmetric, on PE 1 */
static char *local;    /* private */

static void complete(void)
{
    shmem_quiet();
    shmem_getmem(&scratch, remote, 1, 1);
}

enum { GET, GET_NBI, PUT_NBI, IGET, IPUT };
static const char *const names[] = {"get", "get_nbi", "put_nbi", "iget", "iput"};

static void measure(int prim, long calls, long bytes, long stride, int reps)
{
    double issue[64], total[64];
    long elems = bytes / 8;
    for (int r = 0; r < reps; r++) {
        double t0 = now_us();
        for (long c = 0; c < calls; c++) {
            /* consecutive calls touch consecutive blocks, as strips and pieces do */
            long at = (prim == IGET || prim == IPUT) ? c : c * bytes;
            switch (prim) {
            case GET: shmem_getmem(local + at, remote + at, (size_t)bytes, 1); break;
            case GET_NBI: shmem_getmem_nbi(local + at, remote + at, (size_t)bytes, 1); break;
            case PUT_NBI: shmem_putmem_nbi(remote + at, local + at, (size_t)bytes, 1); break;
            case IGET: shmem_iget64((double *)local + at, (double *)remote + at, stride, stride, (size_t)elems, 1); break;
            default: shmem_iput64((double *)remote + at, (double *)local + at, stride, stride, (size_t)elems, 1); break;
            }
        }
        double t1 = now_us();
        if (prim != GET && prim != IGET)
            complete();
        double t2 = now_us();
        issue[r] = t1 - t0;
        total[r] = t2 - t0;
    }
    if (!silent)
        printf("%s %ld %ld %ld %.3f %.3f\n", names[prim], calls, bytes, stride, median(issue, reps), median(total, reps));
    fflush(stdout);
}

static void measure_top(int reps)
{
    long n = 1 << 16;
    double *a = malloc(sizeof(double) * (size_t)n), *b = malloc(sizeof(double) * (size_t)n),
           *c = malloc(sizeof(double) * (size_t)n), t[64];
    for (long i = 0; i < n; i++) {
        a[i] = 0;
        b[i] = 1.0 + (double)i * 1e-9;
        c[i] = 0.5;
    }
    for (int r = 0; r < reps; r++) {
        double t0 = now_us();
        for (int k = 0; k < 16; k++)
            for (long i = 0; i < n; i++)
                a[i] += b[i] * c[i];
        t[r] = now_us() - t0;
    }
    double sum = 0;
    for (long i = 0; i < n; i++)
        sum += a[i];
    printf("top 1 %ld 0 0 %.3f\n", n * 16, median(t, reps));
    fprintf(stderr, "(checksum %g)\n", sum);
    free(a);
    free(b);
    free(c);
}

int main(int argc, char **argv)
{
    long max_bytes = argc > 1 ? atol(argv[1]) : 4L << 20;
    int reps = argc > 2 ? atoi(argv[2]) : 5, quick = argc > 3;
    if (reps < 1 || reps > 64)
        reps = 5;
    shmem_init();
    if (shmem_n_pes() != 2) {
        if (shmem_my_pe() == 0)
            fprintf(stderr, "train: needs exactly 2 PEs\n");
        shmem_global_exit(2);
    }
    /* room for a burst of up to 16 MiB, and strided transfers up to 64 Ki elements at 128 */
    size_t room = (size_t)16 << 20;
    if ((size_t)max_bytes > room)
        room = (size_t)max_bytes;
    remote = shmem_malloc(room + 4096);
    local = malloc(room + 4096);
    memset(local, 1, room + 4096);
    memset(remote, 2, room + 4096);
    shmem_barrier_all();
    if (shmem_my_pe() == 1) {
        shmem_int_wait_until(&done_flag, SHMEM_CMP_NE, 0);
    } else {
        static const long sizes[] = {8, 64, 512, 4096, 32768, 262144, 1048576, 4194304};
        static const long quick_sizes[] = {8, 512, 32768, 1048576};
        const long *sz = quick ? quick_sizes : sizes;
        int nsz = quick ? 4 : 8;
        static const long bursts[] = {1, 4, 16, 64};
        silent = 1;  /* warm up connections and registrations, unreported */
        for (int i = 0; i < 3; i++) {
            measure(GET_NBI, 4, 4096, 1, 1);
            measure(PUT_NBI, 4, 4096, 1, 1);
            measure(IGET, 1, 4096, 2, 1);
        }
        silent = 0;
        for (int s = 0; s < nsz && sz[s] <= max_bytes; s++) {
            measure(GET, sz[s] >= 262144 ? 2 : 16, sz[s], 1, reps);
            for (int b = 0; b < 4; b++) {
                if (bursts[b] * sz[s] > (16L << 20))
                    continue;
                measure(GET_NBI, bursts[b], sz[s], 1, reps);
                measure(PUT_NBI, bursts[b], sz[s], 1, reps);
            }
        }
        static const long strides[] = {2, 16, 128};
        static const long counts[] = {1, 16, 256, 4096, 32768};
        for (int s = 0; s < 3; s++)
            for (int c = 0; c < 5; c++) {
                if (counts[c] * strides[s] * 8 > (long)room || (quick && c % 2))
                    continue;
                for (long calls = 1; calls <= 8; calls *= 8) {
                    measure(IGET, calls, counts[c] * 8, strides[s], reps);
                    measure(IPUT, calls, counts[c] * 8, strides[s], reps);
                }
            }
        measure_top(reps);
        shmem_int_p(&done_flag, 1, 1);
        shmem_quiet();
    }
    shmem_barrier_all();
    shmem_free(remote);
    free(local);
    shmem_finalize();
    return 0;
}
