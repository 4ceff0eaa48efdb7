#include <mpi.h>
#include "state.h"

double history[4];
static int local_counter;   /* same name as a static in main.c: a different variable */

void stencil_step(int rank, int size)
{
    double mine = rank + steps * 0.25, from_left = 0.0, from_right = 0.0;
    int left = (rank + size - 1) % size, right = (rank + 1) % size;
    MPI_Sendrecv(&mine, 1, MPI_DOUBLE, right, 0, &from_left, 1, MPI_DOUBLE, left, 0,
                 MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Sendrecv(&mine, 1, MPI_DOUBLE, left, 1, &from_right, 1, MPI_DOUBLE, right, 1,
                 MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    history[steps % 4] = (from_left + mine + from_right) / 3.0;
    steps++;
    local_counter++;
}

int stencil_calls(void) { return local_counter; }
