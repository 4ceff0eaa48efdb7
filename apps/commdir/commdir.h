/* What the variants of apps/commdir share: the target a directive build lowers to, the
 * OpenSHMEM start and end that build needs, and the deterministic data every variant sends
 * and every receiver recomputes to check what arrived.
 *
 * One directive source builds for every target: -DCOMMDIR_TARGET=TARGET_COMM_MPI_2SIDE
 * (the default), TARGET_COMM_MPI_1SIDE or TARGET_COMM_SHMEM names the target in the
 * directives' target() clause. COMMDIR_SHMEM is 1 in the SHMEM build (found by pasting the
 * target's name, so that no second macro is needed), which includes <shmem.h> and starts
 * and ends OpenSHMEM beside MPI (MPI still does the set-up, the reductions and the timing).
 *
 * The communication code of every variant lies between the lines
 *     / * comm begin * /   and   / * comm end * /
 * (without the spaces): bench/commdir/run counts the lines between them for the code-size
 * table. */
#ifndef BAMBOO_APPS_COMMDIR_H
#define BAMBOO_APPS_COMMDIR_H

#include <stdint.h>
#include <string.h>

#include "../common/app.h"

#ifndef COMMDIR_TARGET
#define COMMDIR_TARGET TARGET_COMM_MPI_2SIDE
#endif
#define COMMDIR_PASTE_(a, b) a##b
#define COMMDIR_PASTE(a, b) COMMDIR_PASTE_(a, b)
#define COMMDIR_IS_TARGET_COMM_SHMEM 1
#if COMMDIR_PASTE(COMMDIR_IS_, COMMDIR_TARGET)
#define COMMDIR_SHMEM 1
#include <shmem.h>
#else
#define COMMDIR_SHMEM 0
#endif

/* MPI_Init (app_start), and shmem_init in the SHMEM build. */
static inline void commdir_start(int *argc, char ***argv, int *rank, int *size)
{
    app_start(argc, argv, rank, size);
#if COMMDIR_SHMEM
    shmem_init();
    if (shmem_my_pe() != *rank || shmem_n_pes() != *size) {
        fprintf(stderr, "commdir: SHMEM PE %d of %d is MPI rank %d of %d\n", shmem_my_pe(), shmem_n_pes(),
                *rank, *size);
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
#endif
}

/* shmem_finalize in the SHMEM build, then MPI_Finalize unless that finalized MPI too (Open
 * MPI's OpenSHMEM does: a second MPI_Finalize aborts the job). */
static inline void commdir_finish(void)
{
#if COMMDIR_SHMEM
    shmem_finalize();
#endif
    int finalized = 0;
    MPI_Finalized(&finalized);
    if (!finalized)
        MPI_Finalize();
}

/* splitmix64's finalizer: the generator of every value sent. */
static inline uint64_t commdir_mix(uint64_t x)
{
    x += 0x9e3779b97f4a7c15ULL;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
    return x ^ (x >> 31);
}

/* The key of value `index` of field `field` of message (`round`, `who`). */
static inline uint64_t commdir_key(uint64_t round, uint64_t who, uint64_t field, uint64_t index)
{
    return commdir_mix(commdir_mix(commdir_mix(round) ^ who) ^ field) ^ (index * 0x2545f4914f6cdd1dULL);
}

/* A double in [-1, 1), exact in binary, of a key. */
static inline double commdir_real(uint64_t key)
{
    return (double)(commdir_mix(key) >> 11) * 0x1.0p-52 - 1.0;
}

static inline int commdir_int(uint64_t key)
{
    return (int)(commdir_mix(key) >> 40);
}

/* A checksum contribution of `bytes` bytes: order-free (sums of mixed 8-byte words), so a
 * sum over ranks (MPI_UINT64_T, wrapping) is the same whatever order the ranks add in. */
static inline uint64_t commdir_hash(const void *data, size_t bytes, uint64_t salt)
{
    const unsigned char *p = data;
    uint64_t sum = 0;
    size_t i = 0;
    for (; i + 8 <= bytes; i += 8) {
        uint64_t word;
        memcpy(&word, p + i, 8);
        sum += commdir_mix(word ^ commdir_mix(salt + i));
    }
    if (i < bytes) {
        uint64_t word = 0;
        memcpy(&word, p + i, bytes - i);
        sum += commdir_mix(word ^ commdir_mix(salt + i));
    }
    return sum;
}

/* The machine-wide sums of a rank's checksum and count of wrong values. */
static inline void commdir_totals(uint64_t *checksum, long long *wrong)
{
    uint64_t c = *checksum;
    long long w = *wrong;
    MPI_Allreduce(&c, checksum, 1, MPI_UINT64_T, MPI_SUM, MPI_COMM_WORLD);
    MPI_Allreduce(&w, wrong, 1, MPI_LONG_LONG, MPI_SUM, MPI_COMM_WORLD);
}

/* Rank 0 prints "time <seconds>": the slowest rank's sum of timed sections. */
static inline void commdir_report_time(double mine)
{
    double slowest = 0;
    int rank;
    MPI_Allreduce(&mine, &slowest, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank == 0) {
        printf("time %.6f\n", slowest);
        fflush(stdout);
    }
}

#endif
