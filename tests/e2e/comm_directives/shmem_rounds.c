/* Many rounds of SHMEM comm directives at sizes from 8 B to 1 MiB (docs/comm-directives.md):
 * each round every PE puts a run of doubles to the next PE and checks, after the region, that
 * all of the previous PE's arrived. Prints one line per PE: the rounds and how many elements
 * were wrong. For the defect of shmem_quiet on this machine's UCX shared memory, which leaves
 * non-blocking puts undone (runtime/commdir/src/shmem_quiet.c). Build with -DUSE_SHMEM;
 * shmem_rounds_hand.c is its twin in hand-written MPI; bench/commdir/shmem-stress runs it
 * many times. */
#include <stdio.h>
#ifdef USE_SHMEM
#include <shmem.h>
#else
#include <mpi.h>
#endif

#ifndef TARGET
#define TARGET TARGET_COMM_SHMEM
#endif
#ifndef ROUNDS
#define ROUNDS 40
#endif
#define MOST 131072   /* doubles: 1 MiB */

static double in[MOST], out[MOST];

static double value(int pe, int round, long i) { return pe * 1e7 + round * 1e5 + i % 100003; }

int main(int argc, char **argv)
{
    int me, n;
#ifdef USE_SHMEM
    (void)argc; (void)argv;
    shmem_init();
    me = shmem_my_pe();
    n = shmem_n_pes();
#else
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    MPI_Comm_size(MPI_COMM_WORLD, &n);
#endif
    int prev = (me - 1 + n) % n, next = (me + 1) % n;
    static const long sizes[] = {1, 7, 128, 1024, 8192, 65536, MOST};
    const int kinds = (int)(sizeof sizes / sizeof sizes[0]);
    long wrong = 0;
    for (int round = 0; round < ROUNDS; round++) {
        long count = sizes[round % kinds];
        for (long i = 0; i < count; i++)
            out[i] = value(me, round, i);
#pragma comm_parameters sender(prev) receiver(next) count(count) target(TARGET)
        {
#pragma comm_p2p sbuf(out) rbuf(in)
            { }
        }
        for (long i = 0; i < count; i++)
            wrong += in[i] != value(prev, round, i);
    }
    printf("pe %d rounds %d wrong %ld\n", me, ROUNDS, wrong);
#ifdef USE_SHMEM
    shmem_finalize();
#else
    MPI_Finalize();
#endif
    return 0;
}
