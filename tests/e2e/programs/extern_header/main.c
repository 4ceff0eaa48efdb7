#include <mpi.h>
#include <stdio.h>

#define EXTERN
#include "globals.h"

int main(int argc, char **argv)
{
    int rank, size;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    nsteps = 4;
    energy = rank * 0.25;
    for (int i = 0; i < nsteps; i++) step(rank, size);
    printf("rank %d: steps %d calls %d energy %.3f history %.3f %.3f %.3f %.3f report %.3f\n", rank,
           nsteps, calls, energy, history[0], history[1], history[2], history[3], report());
    MPI_Finalize();
    return 0;
}
