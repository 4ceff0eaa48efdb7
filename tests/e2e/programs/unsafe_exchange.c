/* Exchanges that are not safe in MPI but work wherever MPI buffers small messages: each rank
 * sends to its right neighbour in a ring with MPI_Isend and waits for the send (MPI_Wait, or
 * an MPI_Test loop) before it receives from its left neighbour. Under Bamboo such a send to a
 * task of the same process is lent, and must be bought back for the ring to go round.
 * `unsafe_exchange wait|test ROUNDS` */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    int polls = argc > 1 && strcmp(argv[1], "test") == 0;
    int rounds = argc > 2 ? atoi(argv[2]) : 3;
    long token = rank, received = 0;
    for (int round = 0; round < rounds; round++) {
        MPI_Request request;
        MPI_Isend(&token, 1, MPI_LONG, (rank + 1) % size, round, MPI_COMM_WORLD, &request);
        if (polls) {
            int done = 0;
            while (!done)
                MPI_Test(&request, &done, MPI_STATUS_IGNORE);
        } else {
            MPI_Wait(&request, MPI_STATUS_IGNORE);
        }
        MPI_Recv(&received, 1, MPI_LONG, (rank + size - 1) % size, round, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        token = token * 31 + received;
    }
    printf("rank %d: %ld\n", rank, token);
    MPI_Finalize();
    return 0;
}
