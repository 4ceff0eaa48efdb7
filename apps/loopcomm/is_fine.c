/* IS, fine-grained: each PE fetches its keys from every PE one by one with shmem_int_g
 * (is.h has the problem, the bucketing, the sort and the check). */
#include <shmem.h>

#include "is.h"

/* symmetric: this PE's keys by destination PE, and where each destination's bucket is */
static int *sendkeys, *bucket_count, *bucket_start;
static int *sorted;   /* symmetric: this PE's keys, sorted */
static long total;    /* symmetric: how many */

/* pr->recv = this PE's bucket of every PE, in PE order; returns the number of keys. */
static long is_fetch(const is_problem *pr)
{
    int *recv = pr->recv;
    const int me = pr->me;
    long got = 0;
    for (int b = 0; b < pr->npes; b++) {
        /* comm begin */
        const int count = shmem_int_g(&bucket_count[me], b);
        const int start = shmem_int_g(&bucket_start[me], b);
        for (int j = 0; j < count; j++)
            recv[got + j] = shmem_int_g(&sendkeys[start + j], b);
        /* comm end */
        got += count;
    }
    return got;
}

int main(int argc, char **argv)
{
    lc_world *world = lc_init();
    is_problem pr;
    is_setup(&pr, world, argc, argv);
    long most = lc_lmax(world, pr.nloc);
    sendkeys = shmem_malloc(most * sizeof(int));
    bucket_count = shmem_malloc(pr.npes * sizeof(int));
    bucket_start = shmem_malloc(pr.npes * sizeof(int));
    sorted = shmem_malloc(pr.nkeys * sizeof(int));
    if (!sendkeys || !bucket_count || !bucket_start || !sorted)
        lc_refuse("symmetric heap exhausted");
    return is_main(&pr, sendkeys, bucket_count, bucket_start, sorted, &total, is_fetch);
}
