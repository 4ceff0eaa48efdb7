/* The last rank never joins the MPI_Ibarrier the others wait for: a deadlock under MPI too.
 * Bamboo must name the waiting tasks and their nonblocking collective, then exit non-zero. */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv)
{
    int rank, size;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (rank != size - 1) {
        MPI_Request request;
        MPI_Ibarrier(MPI_COMM_WORLD, &request);
        MPI_Wait(&request, MPI_STATUS_IGNORE);
        printf("rank %d never gets here\n", rank);
    }
    MPI_Finalize();
    return 0;
}
