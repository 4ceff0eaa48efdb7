#include <mpi.h>

#include "tables.h"

double relax(int rank, int size, double value)
{
    double from_left;
    MPI_Sendrecv(&value, 1, MPI_DOUBLE, (rank + 1) % size, 0, &from_left, 1, MPI_DOUBLE,
                 (rank + size - 1) % size, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    visits[1] += primes[visits[1] % 6];
    return weights[0] * value + weights[1] * from_left + weights[2] * visits[1];
}

/* This file's own copy of the static table. */
int relax_visits(void)
{
    return visits[1];
}
