/* Erroneous uses of MPI's send modes and persistent requests, one per --case: each must end
 * the job with a report, not hang or go on.
 *   ssend-ring      every rank MPI_Ssends to its right before it receives: a deadlock
 *                   under MPI too, since no synchronous send can complete
 *   bsend-too-big   a buffered send larger than the attached buffer
 *   start-active    MPI_Start of a persistent request already started */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(int argc, char **argv)
{
    int rank, size, token = 0;
    const char *which = argc > 2 && strcmp(argv[1], "--case") == 0 ? argv[2] : "";
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    int right = (rank + 1) % size, left = (rank + size - 1) % size;
    if (strcmp(which, "ssend-ring") == 0) {
        MPI_Ssend(&token, 1, MPI_INT, right, 5, MPI_COMM_WORLD);
        MPI_Recv(&token, 1, MPI_INT, left, 5, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    } else if (strcmp(which, "bsend-too-big") == 0) {
        static char attached[64];
        int data[100] = {0};
        MPI_Buffer_attach(attached, sizeof attached);
        MPI_Bsend(data, 100, MPI_INT, right, 6, MPI_COMM_WORLD);
        MPI_Recv(data, 100, MPI_INT, left, 6, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    } else if (strcmp(which, "start-active") == 0) {
        MPI_Request request;
        MPI_Recv_init(&token, 1, MPI_INT, left, 7, MPI_COMM_WORLD, &request);
        MPI_Start(&request);
        MPI_Start(&request);
    }
    printf("rank %d never gets here\n", rank);
    MPI_Finalize();
    return 0;
}
