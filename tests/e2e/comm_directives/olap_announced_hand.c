/* olap_announced.c's halo exchange written by hand in MPI: its ground truth. */
#include <mpi.h>
#include <stdio.h>

#define CELLS 8
#define STEPS 20

int main(int argc, char **argv)
{
    int rank, size;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    int left = (rank - 1 + size) % size, right = (rank + 1) % size;
    double u[CELLS + 2], v[CELLS + 2];
    for (int i = 0; i < CELLS + 2; i++)
        u[i] = rank * CELLS + i;
    for (int step = 0; step < STEPS; step++) {
        MPI_Sendrecv(&u[CELLS], 1, MPI_DOUBLE, right, 0, &u[0], 1, MPI_DOUBLE, left, 0, MPI_COMM_WORLD,
                     MPI_STATUS_IGNORE);
        MPI_Sendrecv(&u[1], 1, MPI_DOUBLE, left, 1, &u[CELLS + 1], 1, MPI_DOUBLE, right, 1, MPI_COMM_WORLD,
                     MPI_STATUS_IGNORE);
        for (int i = 1; i <= CELLS; i++)
            v[i] = u[i] + 0.25 * (u[i - 1] - 2 * u[i] + u[i + 1]);
        for (int i = 1; i <= CELLS; i++)
            u[i] = v[i];
    }
    double sum = 0;
    for (int i = 1; i <= CELLS; i++)
        sum += u[i];
    printf("rank %d sum %.9f first %.9f last %.9f\n", rank, sum, u[1], u[CELLS]);
    MPI_Finalize();
    return 0;
}
