/* Two comm_p2p in one region where the second sends what the first receives: the second must
 * wait for the first (the translator finds the shared buffer), so every rank ends with the
 * value of the rank two before it. forward_hand.c is the same in hand-written MPI. */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv)
{
    int rank, size;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    int prev = (rank - 1 + size) % size, next = (rank + 1) % size;
    long mine[3] = {rank, 10L * rank, 100L * rank}, once[3], twice[3];
#pragma comm_parameters sender(prev) receiver(next)
    {
#pragma comm_p2p sbuf(mine) rbuf(once)
        { }
#pragma comm_p2p sbuf(once) rbuf(twice)
        { }
    }
    printf("rank %d once %ld %ld %ld twice %ld %ld %ld\n", rank, once[0], once[1], once[2], twice[0],
           twice[1], twice[2]);
    MPI_Finalize();
    return 0;
}
