/* More than 2 GiB from rank 0 to rank 1: a message, then a one-sided put, each of 2^28 + 3
 * doubles. An MPI count is an int, so a runtime that moves such a payload between processes
 * as one MPI message of bytes cannot send it. Rank 1 checks every element. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

#define COUNT ((1L << 28) + 3)

static double value(long i) { return (double)(i % 1021) + 0.5; }

static long count_wrong(const double *data, double factor)
{
    long wrong = 0;
    for (long i = 0; i < COUNT; i++)
        wrong += data[i] != factor * value(i);
    return wrong;
}

int main(int argc, char **argv)
{
    int rank;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    double *data = malloc(COUNT * sizeof *data);
    if (!data) {
        printf("rank %d: cannot allocate %ld bytes\n", rank, COUNT * (long)sizeof *data);
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    if (rank == 0) {
        for (long i = 0; i < COUNT; i++) data[i] = value(i);
        MPI_Send(data, (int)COUNT, MPI_DOUBLE, 1, 7, MPI_COMM_WORLD);
    } else if (rank == 1) {
        MPI_Recv(data, (int)COUNT, MPI_DOUBLE, 0, 7, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        printf("message: %ld doubles, %ld wrong\n", COUNT, count_wrong(data, 1));
    }

    /* Rank 0's array, doubled, put into rank 1's window over its cleared array. */
    if (rank == 0)
        for (long i = 0; i < COUNT; i++) data[i] *= 2;
    else
        for (long i = 0; i < COUNT; i++) data[i] = 0;
    MPI_Win win;
    MPI_Win_create(data, rank == 1 ? COUNT * (MPI_Aint)sizeof *data : 0, sizeof *data, MPI_INFO_NULL,
                   MPI_COMM_WORLD, &win);
    MPI_Win_fence(0, win);
    if (rank == 0) MPI_Put(data, (int)COUNT, MPI_DOUBLE, 1, 0, (int)COUNT, MPI_DOUBLE, win);
    MPI_Win_fence(0, win);
    if (rank == 1) printf("put: %ld doubles, %ld wrong\n", COUNT, count_wrong(data, 2));
    MPI_Win_free(&win);
    free(data);
    MPI_Finalize();
    return 0;
}
