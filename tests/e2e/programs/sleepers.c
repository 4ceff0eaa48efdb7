/* Ranks that sleep, as codes do while they wait for a file or pace their output: sleep,
 * usleep and nanosleep, with their results, between messages around a ring. */
#include <errno.h>
#include <mpi.h>
#include <stdio.h>
#include <time.h>
#include <unistd.h>

int main(int argc, char **argv)
{
    int rank, size, token = 0;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    struct timespec pause = {0, 20 * 1000 * 1000 + rank};
    int slept = nanosleep(&pause, NULL);
    printf("rank %d: nanosleep %d\n", rank, slept);
    struct timespec bad = {0, 1000 * 1000 * 1000};
    int invalid = nanosleep(&bad, NULL);
    printf("rank %d: invalid nanosleep %d %s\n", rank, invalid, errno == EINVAL ? "EINVAL" : "?");
    printf("rank %d: usleep %d\n", rank, usleep(10000 * (rank % 3)));
    if (rank == 0) {
        printf("rank %d: sleep %u\n", rank, sleep(1));
        MPI_Send(&token, 1, MPI_INT, 1 % size, 0, MPI_COMM_WORLD);
        MPI_Recv(&token, 1, MPI_INT, size - 1, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    } else {
        MPI_Recv(&token, 1, MPI_INT, rank - 1, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        token += rank;
        MPI_Send(&token, 1, MPI_INT, (rank + 1) % size, 0, MPI_COMM_WORLD);
    }
    printf("rank %d: token %d\n", rank, token);
    MPI_Finalize();
    return 0;
}
