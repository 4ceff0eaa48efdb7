/* Every rank waits for its left neighbour before sending: a deadlock under MPI too.
 * Bamboo must report the waiting tasks and exit non-zero instead of hanging. */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv)
{
    int rank, size, token = 0;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Recv(&token, 1, MPI_INT, (rank + size - 1) % size, 42, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Send(&token, 1, MPI_INT, (rank + 1) % size, 42, MPI_COMM_WORLD);
    printf("rank %d never gets here\n", rank);
    MPI_Finalize();
    return 0;
}
