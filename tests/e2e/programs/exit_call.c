/* Ranks leave through exit() from inside a helper, after MPI_Finalize, while others still
 * have work to do: exit() ends the calling rank only. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

static void finish(int rank, long value)
{
    printf("rank %d done: %ld\n", rank, value);
    MPI_Finalize();
    exit(0);
}

int main(int argc, char **argv)
{
    int rank, size;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    long value = rank;
    /* Even ranks hand their value to the next odd rank and leave at once. */
    if (rank % 2 == 0) {
        if (rank + 1 < size)
            MPI_Send(&value, 1, MPI_LONG, rank + 1, 0, MPI_COMM_WORLD);
        finish(rank, value);
    }
    long got;
    MPI_Recv(&got, 1, MPI_LONG, rank - 1, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    for (int i = 0; i < 1000; i++)
        value = (value * 31 + got + i) % 1000003;
    finish(rank, value);
    return 1;   /* not reached */
}
