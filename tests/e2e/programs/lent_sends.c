/* Blocking sends whose buffers the translator lends until the evaluation point (a send
 * block of sends only, right before its receive block): each rank sends its block to both
 * neighbours on a ring, then, once its receives are done, overwrites the block it sent at
 * once. A receive that took its data from the sender's buffer after that would see the
 * overwritten values: the sender must take back what is still lent before its receive block
 * runs. Every rank checks what it received and prints a sum.
 *   lent_sends [STEPS] */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

enum { COUNT = 1000 };

static double value(int rank, int step, int i) { return rank * 1000.0 + step * 10.0 + i % 7; }

int main(int argc, char **argv)
{
    int rank, size;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    const int left = (rank + size - 1) % size, right = (rank + 1) % size;
    const int steps = argc > 1 ? atoi(argv[1]) : 6;
    double *out = malloc(COUNT * sizeof *out);
    double *from_left = malloc(COUNT * sizeof *from_left), *from_right = malloc(COUNT * sizeof *from_right);
    for (int i = 0; i < COUNT; i++) out[i] = value(rank, 0, i);
    long wrong = 0;
    double sum = 0;
    MPI_Request receives[2];
#pragma bamboo olap
    for (int step = 0; step < steps; step++) {
#pragma bamboo receive
        {
            MPI_Irecv(from_left, COUNT, MPI_DOUBLE, left, 1, MPI_COMM_WORLD, &receives[0]);
            MPI_Irecv(from_right, COUNT, MPI_DOUBLE, right, 2, MPI_COMM_WORLD, &receives[1]);
        }
#pragma bamboo send
        {
            MPI_Send(out, COUNT, MPI_DOUBLE, right, 1, MPI_COMM_WORLD);
            MPI_Send(out, COUNT, MPI_DOUBLE, left, 2, MPI_COMM_WORLD);
        }
        MPI_Waitall(2, receives, MPI_STATUSES_IGNORE);
        for (int i = 0; i < COUNT; i++) out[i] = -1.0;  /* what a late receive would see */
        for (int i = 0; i < COUNT; i++) {
            if (from_left[i] != value(left, step, i) || from_right[i] != value(right, step, i)) wrong++;
            sum += from_left[i] + from_right[i];
        }
        for (int i = 0; i < COUNT; i++) out[i] = value(rank, step + 1, i);
    }
    printf("rank %d: %ld wrong values, sum %.1f\n", rank, wrong, sum);
    free(out);
    free(from_left);
    free(from_right);
    MPI_Finalize();
    return wrong != 0;
}
