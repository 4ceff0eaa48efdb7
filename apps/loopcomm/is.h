/* IS: NAS IS's integer sort. Keys in [0, maxkey), bell-shaped (the mean of four uniform
 * values, as NAS IS); every iteration buckets this PE's keys by destination PE, each PE fetches
 * its bucket from every PE, and sorts what it got with a counting sort. PE b's keys are those
 * in [lc_block_first(maxkey, npes, b), lc_block_first(maxkey, npes, b + 1)): the middle PEs
 * get more keys than the outer ones, as in NAS IS.
 *
 * Distribution: PE q generates keys lc_block_first(nkeys, npes, q) ... of the global sequence.
 * Per iteration it writes them, bucket by bucket, into the symmetric array sendkeys, with
 * bucket_start[b] and bucket_count[b] (symmetric) saying where bucket b is. PE q then reads,
 * from each PE b, bucket_count[q] and bucket_start[q] and then bucket_count[q] contiguous
 * keys from sendkeys[bucket_start[q]]. The KERNEL_*.c file has that fetch (is_fetch);
 * everything else is here.
 *
 * As NAS IS changes two keys an iteration, iteration `it` sets each PE's first key to
 * (it * 7919 + that key's global index) mod maxkey before bucketing.
 *
 * Timed: `iterations` iterations. Verified exactly: PE 0 sorts the final keys serially,
 * gathers every PE's sorted keys and compares them element by element (and the counts).
 * Elements per iteration: nkeys. */
#ifndef LC_IS_H
#define LC_IS_H

#include "lc_common.h"

#define IS_USAGE "[keys (default 2097152)] [maxkey (default 524288)] [iterations (default 10)]"

typedef struct is_problem {
    long nkeys, maxkey, iterations;
    lc_world *world;   /* lc_init's */
    int me, npes;
    long first, nloc;   /* this PE's part of the generated keys */
    long lo, hi;        /* this PE's key range */
    int *keys;          /* this PE's generated keys */
    int *recv;          /* the keys fetched from every PE (capacity nkeys) */
    long *counts;       /* the counting sort's counts, hi - lo + 1 */
    long *cursor;       /* per destination PE, bucketing */
} is_problem;

static inline int is_key(const is_problem *pr, long index)
{
    double s = 0.0;
    for (int d = 0; d < 4; d++)
        s += lc_uniform(20 + d, (uint64_t)index);
    return (int)(s * 0.25 * (double)pr->maxkey);
}

/* The first key of the PE whose keys start at pr->first, as iteration `it` sets it. */
static inline int is_modified_key(const is_problem *pr, long it)
{
    return (int)((it * 7919 + pr->first) % pr->maxkey);
}

/* The destination PE of a key. */
static inline int is_owner(const is_problem *pr, int key)
{
    int b = (int)((long)key * pr->npes / pr->maxkey);
    while (b > 0 && key < lc_block_first(pr->maxkey, pr->npes, b))
        b--;
    while (b < pr->npes - 1 && key >= lc_block_first(pr->maxkey, pr->npes, b + 1))
        b++;
    return b;
}

static void is_setup(is_problem *pr, lc_world *world, int argc, char **argv)
{
    pr->world = world;
    pr->nkeys = lc_arg(argc, argv, 1, 2097152, IS_USAGE);
    pr->maxkey = lc_arg(argc, argv, 2, 524288, IS_USAGE);
    pr->iterations = lc_arg(argc, argv, 3, 10, IS_USAGE);
    pr->me = shmem_my_pe();
    pr->npes = shmem_n_pes();
    if (pr->nkeys > (1L << 28) || pr->maxkey < pr->npes)
        lc_refuse("IS needs keys <= 2^28 and maxkey >= the number of PEs");
    pr->first = lc_block_first(pr->nkeys, pr->npes, pr->me);
    pr->nloc = lc_block_size(pr->nkeys, pr->npes, pr->me);
    pr->lo = lc_block_first(pr->maxkey, pr->npes, pr->me);
    pr->hi = lc_block_first(pr->maxkey, pr->npes, pr->me + 1);
    pr->keys = lc_malloc(pr->nloc * sizeof(int));
    for (long i = 0; i < pr->nloc; i++)
        pr->keys[i] = is_key(pr, pr->first + i);
    pr->recv = lc_malloc(pr->nkeys * sizeof(int));
    pr->counts = lc_malloc((pr->hi - pr->lo + 1) * sizeof(long));
    pr->cursor = lc_malloc(pr->npes * sizeof(long));
}

/* Counting sort of keys[0..n) in [lo, hi) into out; counts has hi - lo + 1 places. */
static void is_counting_sort(const int *keys, long n, long lo, long hi, long *counts, int *out)
{
    memset(counts, 0, (hi - lo + 1) * sizeof(long));
    for (long i = 0; i < n; i++)
        counts[keys[i] - lo + 1]++;
    for (long k = 1; k <= hi - lo; k++)
        counts[k] += counts[k - 1];
    for (long i = 0; i < n; i++)
        out[counts[keys[i] - lo]++] = keys[i];
}

/* The kernel. sendkeys (nloc_max ints), bucket_count and bucket_start (npes ints each),
 * sorted (nkeys ints) and total (one long) are symmetric; fetch(pr) fills pr->recv with this
 * PE's keys from every PE and returns their number. */
static int is_main(is_problem *pr, int *sendkeys, int *bucket_count, int *bucket_start, int *sorted,
                   long *total, long (*fetch)(const is_problem *))
{
    const int npes = pr->npes;
    long got = 0;
    shmem_barrier_all();

    double start = lc_now();
    for (long it = 0; it < pr->iterations; it++) {
        if (pr->nloc > 0)
            pr->keys[0] = is_modified_key(pr, it);
        for (int b = 0; b < npes; b++)
            bucket_count[b] = 0;
        for (long i = 0; i < pr->nloc; i++)
            bucket_count[is_owner(pr, pr->keys[i])]++;
        long at = 0;
        for (int b = 0; b < npes; b++) {
            bucket_start[b] = (int)at;
            pr->cursor[b] = at;
            at += bucket_count[b];
        }
        for (long i = 0; i < pr->nloc; i++)
            sendkeys[pr->cursor[is_owner(pr, pr->keys[i])]++] = pr->keys[i];
        shmem_barrier_all();   /* every PE's buckets ready */
        got = fetch(pr);
        shmem_barrier_all();   /* every PE has its keys before the buckets change */
        is_counting_sort(pr->recv, got, pr->lo, pr->hi, pr->counts, sorted);
    }
    double seconds = lc_now() - start;

    /* verification: every PE's count to PE 0 (no loop), PE 0 compares with a serial sort */
    *total = got;
    shmem_barrier_all();
    long wrong = 0, keys_seen = 0;
    if (pr->me == 0) {
        is_problem all = *pr;
        all.first = 0;
        int *keys = lc_malloc(pr->nkeys * sizeof(int)), *want = lc_malloc(pr->nkeys * sizeof(int));
        long *counts = lc_malloc((pr->maxkey + 1) * sizeof(long));
        for (long i = 0; i < pr->nkeys; i++)
            keys[i] = is_key(pr, i);
        for (int b = 0; b < npes; b++)
            if (lc_block_size(pr->nkeys, npes, b) > 0) {
                all.first = lc_block_first(pr->nkeys, npes, b);
                keys[all.first] = is_modified_key(&all, pr->iterations - 1);
            }
        is_counting_sort(keys, pr->nkeys, 0, pr->maxkey, counts, want);
        int *part = lc_malloc(pr->nkeys * sizeof(int));
        for (int b = 0; b < npes; b++) {
            long n;
            shmem_long_get(&n, total, 1, b);
            if (n < 0 || keys_seen + n > pr->nkeys) {
                wrong += 1;
                break;
            }
            if (n > 0)
                shmem_int_get(part, sorted, n, b);
            for (long i = 0; i < n; i++)
                wrong += part[i] != want[keys_seen + i];
            keys_seen += n;
        }
        wrong += keys_seen != pr->nkeys;
        free(keys), free(want), free(counts), free(part);
    }
    wrong = lc_lmax(pr->world, wrong);   /* PE 0's, on every PE */
    keys_seen = lc_lmax(pr->world, keys_seen);
    int ok = wrong == 0;
    char problem[96], check[96];
    snprintf(problem, sizeof problem, "keys=%ld maxkey=%ld", pr->nkeys, pr->maxkey);
    snprintf(check, sizeof check, "keys_in_order=%ld of %ld wrong=%ld", keys_seen, pr->nkeys, wrong);
    return lc_finish("IS", problem, pr->iterations, pr->nkeys, ok, check, seconds);
}

#endif
