#include <mpi.h>
#include "globals.h"

void step(int rank, int size)
{
    double mine = rank + energy, from_left;
    MPI_Sendrecv(&mine, 1, MPI_DOUBLE, (rank + 1) % size, 0, &from_left, 1, MPI_DOUBLE,
                 (rank + size - 1) % size, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    energy += 0.5 * from_left;
    history[calls % 4] = energy;
    calls++;
}
