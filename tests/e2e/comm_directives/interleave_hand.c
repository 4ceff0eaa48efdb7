/* interleave.c's transfers written by hand in MPI: its ground truth. */
#include <mpi.h>
#include <stdio.h>

#define PAIRS 6

int main(int argc, char **argv)
{
    int rank, size;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    int prev = (rank - 1 + size) % size, next = (rank + 1) % size;
    double out[2 * PAIRS], cells[2 * PAIRS];
    for (int i = 0; i < PAIRS; i++) {
        out[2 * i] = rank * 100 + i;
        out[2 * i + 1] = -(rank * 100 + i) - 0.5;
    }
    MPI_Sendrecv(out, 2 * PAIRS, MPI_DOUBLE, next, 0, cells, 2 * PAIRS, MPI_DOUBLE, prev, 0, MPI_COMM_WORLD,
                 MPI_STATUS_IGNORE);
    for (int i = 0; i < 2 * PAIRS; i++)
        printf("rank %d cell %d %g\n", rank, i, cells[i]);
    MPI_Finalize();
    return 0;
}
