/* Rank 0 collects messages of different lengths from everyone with MPI_ANY_SOURCE and
 * MPI_ANY_TAG, using Probe, Get_count and the status fields; it prints them in rank
 * order so that the output does not depend on arrival order. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv)
{
    int rank, size;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    for (int round = 0; round < 3; round++) {
        /* Each round starts when rank 0 says so, so that a wildcard receive can only
         * match this round's messages. */
        if (rank == 0)
            for (int r = 1; r < size; r++)
                MPI_Send(&round, 1, MPI_INT, r, 1, MPI_COMM_WORLD);
        if (rank == 0) {
            int *lengths = calloc(size, sizeof *lengths), *tags = calloc(size, sizeof *tags);
            long *sums = calloc(size, sizeof *sums);
            for (int n = 1; n < size; n++) {
                MPI_Status status;
                MPI_Probe(MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &status);
                int count;
                MPI_Get_count(&status, MPI_INT, &count);
                int *data = malloc((count + 1) * sizeof *data);
                MPI_Recv(data, count, MPI_INT, status.MPI_SOURCE, status.MPI_TAG, MPI_COMM_WORLD, &status);
                lengths[status.MPI_SOURCE] = count;
                tags[status.MPI_SOURCE] = status.MPI_TAG;
                for (int i = 0; i < count; i++)
                    sums[status.MPI_SOURCE] += data[i];
                free(data);
            }
            for (int r = 1; r < size; r++)
                printf("round %d: from %d tag %d count %d sum %ld\n", round, r, tags[r], lengths[r], sums[r]);
            free(lengths);
            free(tags);
            free(sums);
        } else {
            int go;
            MPI_Recv(&go, 1, MPI_INT, 0, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            int count = rank % 5 + go;
            int data[8];
            for (int i = 0; i < count; i++)
                data[i] = rank * 100 + i * round;
            MPI_Send(data, count, MPI_INT, 0, 10 + rank % 3, MPI_COMM_WORLD);
        }
    }
    /* Messages from one sender with one tag are received in the order they were sent. */
    int go = 3;
    if (rank == 0) {
        for (int r = 1; r < size; r++)
            MPI_Send(&go, 1, MPI_INT, r, 1, MPI_COMM_WORLD);
        int *next = calloc(size, sizeof *next), broken = 0;
        for (int n = 0; n < 3 * (size - 1); n++) {
            int value;
            MPI_Status status;
            MPI_Recv(&value, 1, MPI_INT, MPI_ANY_SOURCE, 99, MPI_COMM_WORLD, &status);
            if (value != status.MPI_SOURCE * 3 + next[status.MPI_SOURCE]++)
                broken++;
        }
        printf("ordered receives: %d out of order\n", broken);
        free(next);
    } else {
        MPI_Recv(&go, 1, MPI_INT, 0, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        for (int k = 0; k < 3; k++) {
            int value = rank * 3 + k;
            MPI_Send(&value, 1, MPI_INT, 0, 99, MPI_COMM_WORLD);
        }
    }
    MPI_Finalize();
    return 0;
}
