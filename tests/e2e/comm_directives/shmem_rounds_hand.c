/* shmem_rounds.c in hand-written MPI: each round a blocking exchange around the ring. */
#include <mpi.h>
#include <stdio.h>

#define ROUNDS 40
#define MOST 131072

static double in[MOST], out[MOST];

static double value(int pe, int round, long i) { return pe * 1e7 + round * 1e5 + i % 100003; }

int main(int argc, char **argv)
{
    int me, n;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    MPI_Comm_size(MPI_COMM_WORLD, &n);
    int prev = (me - 1 + n) % n, next = (me + 1) % n;
    static const long sizes[] = {1, 7, 128, 1024, 8192, 65536, MOST};
    const int kinds = (int)(sizeof sizes / sizeof sizes[0]);
    long wrong = 0;
    for (int round = 0; round < ROUNDS; round++) {
        long count = sizes[round % kinds];
        for (long i = 0; i < count; i++)
            out[i] = value(me, round, i);
        MPI_Sendrecv(out, (int)count, MPI_DOUBLE, next, 0, in, (int)count, MPI_DOUBLE, prev, 0,
                     MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        for (long i = 0; i < count; i++)
            wrong += in[i] != value(prev, round, i);
    }
    printf("pe %d rounds %d wrong %ld\n", me, ROUNDS, wrong);
    MPI_Finalize();
    return 0;
}
