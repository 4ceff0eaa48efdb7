/* OpenSHMEM around a ring, for tests/e2e/test_shmem.py: every PE puts to its right neighbour
 * (typed puts into the symmetric heap, a static array and a global array; shmem_putmem of 8 B up
 * to argv[1] bytes, doubling) and gets from its left one, then prints what arrived: sums and
 * CRC-32s that the test computes on its own from the pattern each PE sent. The last line is
 * printed after shmem_finalize, so it shows that finalize returned. Built with oshcc. */
#include <shmem.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#define N 100

static double static_doubles[N]; /* symmetric: static */
int global_ints[N];              /* symmetric: global */

/* The byte PE `pe` sends at offset i of a message of `size` bytes. */
static unsigned char pattern(int pe, size_t size, size_t i)
{
    return (unsigned char)(pe * 31 + size * 3 + i * 7);
}

/* CRC-32 (the one of zlib and Ethernet: reflected, polynomial 0xEDB88320). */
static uint32_t crc32_of(const unsigned char *bytes, size_t size)
{
    uint32_t crc = 0xFFFFFFFFu;
    for (size_t i = 0; i < size; i++) {
        crc ^= bytes[i];
        for (int bit = 0; bit < 8; bit++)
            crc = (crc >> 1) ^ (0xEDB88320u & (0u - (crc & 1u)));
    }
    return crc ^ 0xFFFFFFFFu;
}

int main(int argc, char **argv)
{
    size_t largest = argc > 1 ? strtoull(argv[1], NULL, 10) : 8;
    shmem_init();
    int me = shmem_my_pe(), npes = shmem_n_pes();
    int right = (me + 1) % npes, left = (me + npes - 1) % npes;

    double *heap_doubles = shmem_malloc(N * sizeof(double));
    unsigned char *heap_bytes = shmem_malloc(largest);
    unsigned char *outgoing = malloc(largest);
    if (!heap_doubles || !heap_bytes || !outgoing) {
        printf("pe %d: allocation failed\n", me);
        shmem_global_exit(1);
    }

    double doubles[N];
    int ints[N];
    for (int i = 0; i < N; i++) {
        doubles[i] = me * 1000.0 + i * 0.5;
        ints[i] = me * 100 + i;
    }
    shmem_double_put(heap_doubles, doubles, N, right);
    shmem_double_put(static_doubles, doubles, N, right);
    shmem_int_put(global_ints, ints, N, right);
    shmem_quiet();
    shmem_barrier_all();

    double heap_sum = 0, static_sum = 0, got_sum = 0, got[N];
    long int_sum = 0;
    for (int i = 0; i < N; i++) {
        heap_sum += heap_doubles[i];
        static_sum += static_doubles[i];
        int_sum += global_ints[i];
    }
    /* The left neighbour's static array holds what its own left neighbour put there. */
    shmem_double_get(got, static_doubles, N, left);
    for (int i = 0; i < N; i++)
        got_sum += got[i];
    printf("pe %d of %d: double_put heap %.1f static %.1f, int_put global %ld, double_get %.1f\n",
           me, npes, heap_sum, static_sum, int_sum, got_sum);
    shmem_barrier_all();

    for (size_t size = 8; size <= largest; size *= 2) {
        for (size_t i = 0; i < size; i++)
            outgoing[i] = pattern(me, size, i);
        shmem_putmem(heap_bytes, outgoing, size, right);
        shmem_quiet();
        shmem_barrier_all();
        printf("pe %d: putmem %zu bytes crc32 %08x\n", me, size,
               (unsigned)crc32_of(heap_bytes, size));
        shmem_barrier_all(); /* checked before the next size overwrites it */
    }

    shmem_free(heap_bytes);
    shmem_free(heap_doubles);
    free(outgoing);
    shmem_finalize();
    printf("pe %d: finalized\n", me);
    return 0;
}
