/* Several translation units: extern globals defined in one file and used in another,
 * and a `static` global of the same name in both files. */
#include <mpi.h>
#include <stdio.h>
#include "state.h"

int steps = 0;
static int local_counter = 100;

int main(int argc, char **argv)
{
    int rank, size;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    for (int i = 0; i < 4; i++) {
        stencil_step(rank, size);
        local_counter += rank;
    }
    printf("rank %d: steps=%d calls=%d local=%d history=%.3f,%.3f,%.3f,%.3f\n", rank, steps,
           stencil_calls(), local_counter, history[0], history[1], history[2], history[3]);
    MPI_Finalize();
    return 0;
}
