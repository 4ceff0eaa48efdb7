/* Windows of receives only, which the firing rule announces whole and the runtime posts at the
 * evaluation point, so that messages land in the receive buffers as they arrive:
 *  1. a ring that sends a block and receives the next one into the same buffer (the send
 *     block comes first and lends the buffer until the evaluation point: it must be taken
 *     back before a receive into it is posted there);
 *  2. messages shorter than their buffers, whose tails must stay as they were, received with
 *     MPI_Irecv and completed after the window, in a loop over both neighbours;
 *  3. two receives into the same buffer, which cannot both be posted ahead: the window's
 *     receives are then posted by their calls, and the second one's data stays;
 *  4. the same with the first one's data read in between (the translator announces those
 *     receives as messages only).
 * Every rank checks what it received and prints a sum.
 *   announced_receives [STEPS] */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

enum { COUNT = 100, SHORT = 60 };  /* small enough that plain MPI sends them eagerly */

static double value(int rank, int step, int i) { return rank * 100000.0 + step * 1000.0 + i % 11; }

int main(int argc, char **argv)
{
    int rank, size;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    const int left = (rank + size - 1) % size, right = (rank + 1) % size;
    const int steps = argc > 1 ? atoi(argv[1]) : 5;
    double *ring = malloc(COUNT * sizeof *ring), *out = malloc(COUNT * sizeof *out);
    double *from[2] = {malloc(COUNT * sizeof(double)), malloc(COUNT * sizeof(double))};
    double *shared = malloc(COUNT * sizeof *shared);
    int nbr[2] = {left, right};
    long wrong = 0;
    double sum = 0;
    MPI_Request receives[2];

    for (int i = 0; i < COUNT; i++) ring[i] = value(rank, 0, i);
#pragma bamboo olap
    for (int step = 0; step < steps; step++) {
#pragma bamboo send
        MPI_Send(ring, COUNT, MPI_DOUBLE, right, 1, MPI_COMM_WORLD);
#pragma bamboo receive
        MPI_Recv(ring, COUNT, MPI_DOUBLE, left, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        const int origin = (rank - step - 1 + (step + 1) * size) % size;
        for (int i = 0; i < COUNT; i++) {
            wrong += ring[i] != value(origin, 0, i);
            sum += ring[i];
        }
    }

    for (int i = 0; i < COUNT; i++) from[0][i] = from[1][i] = -1.0;
#pragma bamboo olap
    for (int step = 0; step < steps; step++) {
        for (int i = 0; i < SHORT; i++) out[i] = value(rank, step, i);
#pragma bamboo send
        for (int d = 0; d < 2; d++) MPI_Send(out, SHORT, MPI_DOUBLE, nbr[d], 2 + d, MPI_COMM_WORLD);
#pragma bamboo receive
        for (int d = 0; d < 2; d++)
            MPI_Irecv(from[d], COUNT, MPI_DOUBLE, nbr[1 - d], 2 + d, MPI_COMM_WORLD, &receives[d]);
        MPI_Waitall(2, receives, MPI_STATUSES_IGNORE);
        for (int d = 0; d < 2; d++) {
            for (int i = 0; i < SHORT; i++) wrong += from[d][i] != value(nbr[1 - d], step, i);
            for (int i = SHORT; i < COUNT; i++) wrong += from[d][i] != -1.0;
        }
    }

#pragma bamboo olap
    for (int step = 0; step < steps; step++) {
        for (int i = 0; i < COUNT; i++) out[i] = value(rank, step, i);
#pragma bamboo send
        {
            MPI_Send(out, COUNT, MPI_DOUBLE, right, 4, MPI_COMM_WORLD);
            MPI_Send(out, COUNT, MPI_DOUBLE, left, 5, MPI_COMM_WORLD);
        }
#pragma bamboo receive
        {
            MPI_Recv(shared, COUNT, MPI_DOUBLE, right, 5, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            MPI_Recv(shared, COUNT, MPI_DOUBLE, left, 4, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        }
        for (int i = 0; i < COUNT; i++) wrong += shared[i] != value(left, step, i);
    }

#pragma bamboo olap
    for (int step = 0; step < steps; step++) {
        for (int i = 0; i < COUNT; i++) out[i] = value(rank, step, i);
#pragma bamboo send
        {
            MPI_Send(out, COUNT, MPI_DOUBLE, right, 6, MPI_COMM_WORLD);
            MPI_Send(out, COUNT, MPI_DOUBLE, left, 7, MPI_COMM_WORLD);
        }
        double first = 0;
#pragma bamboo receive
        {
            MPI_Recv(shared, COUNT, MPI_DOUBLE, left, 6, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            first = shared[COUNT - 1];
            MPI_Recv(shared, COUNT, MPI_DOUBLE, right, 7, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        }
        wrong += first != value(left, step, COUNT - 1);
        for (int i = 0; i < COUNT; i++) wrong += shared[i] != value(right, step, i);
    }

    printf("rank %d: %ld wrong values, sum %.1f\n", rank, wrong, sum);
    MPI_Finalize();
    return wrong != 0;
}
