/* forward.c written by hand in MPI: its ground truth. */
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
    MPI_Sendrecv(mine, 3, MPI_LONG, next, 0, once, 3, MPI_LONG, prev, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Sendrecv(once, 3, MPI_LONG, next, 1, twice, 3, MPI_LONG, prev, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    printf("rank %d once %ld %ld %ld twice %ld %ld %ld\n", rank, once[0], once[1], once[2], twice[0],
           twice[1], twice[2]);
    MPI_Finalize();
    return 0;
}
