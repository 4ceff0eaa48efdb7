#include <mpi.h>
#include <stdio.h>

#define MAIN
#include "tables.h"

int main(int argc, char **argv)
{
    int rank, size;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    /* Every rank changes the initialized globals its own way: shared by the tasks of a
     * process, the later tasks would start from the earlier ones' values. */
    weights[rank % 3] *= primes[rank % 6];
    double value = rank;
    for (int i = 0; i < nsteps; i++) {
        value = relax(rank, size, value);
        visits[0]++;
    }
    nsteps += rank % 3;
    printf("rank %d: %s steps %d weights %.3f %.3f %.3f value %.6f visits %d/%d\n", rank, label, nsteps,
           weights[0], weights[1], weights[2], value, visits[0], relax_visits());
    MPI_Finalize();
    return 0;
}
