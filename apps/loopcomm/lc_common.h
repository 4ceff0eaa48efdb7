/* What the NAS-style OpenSHMEM kernels of apps/loopcomm share: arguments, a deterministic
 * generator, reductions, timing and the output contract.
 *
 * Every program prints, from PE 0,
 *   problem KERNEL <sizes> iterations=I elements=E pes=P
 *   verification: KERNEL PASSED        (or FAILED, and every PE exits 1)
 *   check KERNEL <what was compared>
 *   time SECONDS                       (the timed iterations only, PE 0's clock between barriers)
 * E is the kernel's element count per iteration (README.md): bench/loopcomm/run divides the
 * time by I * E so that runs of different sizes compare.
 *
 * The communication loops are in the KERNEL_fine.c / KERNEL_hand.c files only; the code here
 * moves data only in bulk (verification gathers) and through collectives. */
#ifndef LC_COMMON_H
#define LC_COMMON_H

#include <math.h>
#include <shmem.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* The integer argument argv[index], or `fallback` when there is none; anything else than a
 * positive integer ends the program with a usage line (every PE parses the same arguments). */
static inline long lc_arg(int argc, char **argv, int index, long fallback, const char *usage)
{
    if (index >= argc)
        return fallback;
    char *end;
    long value = strtol(argv[index], &end, 10);
    if (*end != '\0' || value <= 0 || value > 1000000000L) {
        if (shmem_my_pe() == 0)
            fprintf(stderr, "usage: %s %s\n", argv[0], usage);
        shmem_finalize();
        exit(2);
    }
    return value;
}

/* Ends the program on every PE with status 2 (PE 0 says why). */
static inline void lc_refuse(const char *why)
{
    if (shmem_my_pe() == 0)
        fprintf(stderr, "error: %s\n", why);
    shmem_finalize();
    exit(2);
}

static inline int lc_is_power_of_two(long n)
{
    return n > 0 && (n & (n - 1)) == 0;
}

/* splitmix64 of a 64-bit counter: the same value for the same (stream, index) on every PE, so
 * that each PE generates its part and PE 0 the whole problem without communicating. */
static inline uint64_t lc_hash(uint64_t stream, uint64_t index)
{
    uint64_t z = stream * 0x9e3779b97f4a7c15ULL + index + 0x632be59bd9b4e019ULL;
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

/* A double in [0, 1) from (stream, index). */
static inline double lc_uniform(uint64_t stream, uint64_t index)
{
    return (double)(lc_hash(stream, index) >> 11) * (1.0 / 9007199254740992.0);
}

static inline void *lc_malloc(size_t bytes)
{
    void *p = malloc(bytes ? bytes : 1);
    if (!p) {
        fprintf(stderr, "PE %d: out of memory (%zu bytes)\n", shmem_my_pe(), bytes);
        exit(3);
    }
    return p;
}

/* shmem_malloc of `bytes` on every PE (a collective: every PE passes the same size). */
static inline void *lc_shmalloc(size_t bytes)
{
    void *p = shmem_malloc(bytes ? bytes : 8);
    if (!p) {
        fprintf(stderr, "PE %d: symmetric heap exhausted (%zu bytes; SMA_SYMMETRIC_SIZE)\n",
                shmem_my_pe(), bytes);
        exit(3);
    }
    return p;
}

/* Reductions over all PEs (collectives), on symmetric work arrays that lc_init allocates
 * (no static storage here: a header that a translator may not rewrite keeps none). Each call
 * ends in a barrier, so that the next may reuse the arrays. */
typedef struct lc_world {
    long psync[SHMEM_REDUCE_SYNC_SIZE];
    double dwork[SHMEM_REDUCE_MIN_WRKDATA_SIZE > 8 ? SHMEM_REDUCE_MIN_WRKDATA_SIZE : 8];
    long lwork[SHMEM_REDUCE_MIN_WRKDATA_SIZE > 8 ? SHMEM_REDUCE_MIN_WRKDATA_SIZE : 8];
    double dsrc, ddst;
    long lsrc, ldst;
} lc_world;

/* shmem_init, and the reductions' work arrays (symmetric). */
static inline lc_world *lc_init(void)
{
    shmem_init();
    lc_world *w = shmem_malloc(sizeof(lc_world));
    if (!w) {
        fprintf(stderr, "PE %d: symmetric heap exhausted\n", shmem_my_pe());
        exit(3);
    }
    for (int i = 0; i < SHMEM_REDUCE_SYNC_SIZE; i++)
        w->psync[i] = SHMEM_SYNC_VALUE;
    shmem_barrier_all();
    return w;
}

static inline double lc_sum(lc_world *w, double value)
{
    w->dsrc = value;
    shmem_barrier_all();
    shmem_double_sum_to_all(&w->ddst, &w->dsrc, 1, 0, 0, shmem_n_pes(), w->dwork, w->psync);
    shmem_barrier_all();
    return w->ddst;
}

static inline double lc_max(lc_world *w, double value)
{
    w->dsrc = value;
    shmem_barrier_all();
    shmem_double_max_to_all(&w->ddst, &w->dsrc, 1, 0, 0, shmem_n_pes(), w->dwork, w->psync);
    shmem_barrier_all();
    return w->ddst;
}

static inline long lc_lmax(lc_world *w, long value)
{
    w->lsrc = value;
    shmem_barrier_all();
    shmem_long_max_to_all(&w->ldst, &w->lsrc, 1, 0, 0, shmem_n_pes(), w->lwork, w->psync);
    shmem_barrier_all();
    return w->ldst;
}

static inline double lc_now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/* The first element of block b when n elements are cut into p blocks as evenly as possible. */
static inline long lc_block_first(long n, int p, int b)
{
    return n * b / p;
}

static inline long lc_block_size(long n, int p, int b)
{
    return lc_block_first(n, p, b + 1) - lc_block_first(n, p, b);
}

/* The end of every program: PE 0 prints the problem, verification, check and time lines;
 * every PE returns the exit status (0, or 1 when the verification failed). `ok` must be the
 * same on every PE. */
static inline int lc_finish(const char *kernel, const char *problem, long iterations, long elements,
                            int ok, const char *check, double seconds)
{
    if (shmem_my_pe() == 0) {
        printf("problem %s %s iterations=%ld elements=%ld pes=%d\n", kernel, problem, iterations,
               elements, shmem_n_pes());
        printf("verification: %s %s\n", kernel, ok ? "PASSED" : "FAILED");
        printf("check %s %s\n", kernel, check);
        printf("time %.6f\n", seconds);
        fflush(stdout);
    }
    shmem_barrier_all();
    shmem_finalize();
    return ok ? 0 : 1;
}

#endif
