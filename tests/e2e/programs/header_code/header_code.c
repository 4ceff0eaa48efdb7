/* Privatized globals used through the program's headers: statements and initializer values
 * that a header brings into a function, and a header's macros (nested, beside a member and
 * a parameter of the same name). Each rank sets its own values, then trades them with its
 * neighbours, so a value shared between tasks would show. */
#include <mpi.h>
#include <stdio.h>
#include "owner.h"

int lgsize;
long bias = 4;

int main(int argc, char **argv) {
    int rank, size;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
#include "params.h"
    int weights[] = {
#include "weights.inc"
    };
    struct shard s = {rank + 5};
    int mine = OWNER_PLUS(1000 + rank, weights[2]), left;
    MPI_Sendrecv(&mine, 1, MPI_INT, (rank + 1) % size, 0, &left, 1, MPI_INT,
                 (rank + size - 1) % size, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    printf("rank %d: lgsize %d bias %ld weights %d %d owner %d left %d shard %d shifted %d\n",
           rank, lgsize, bias, weights[0], weights[1], VERTEX_OWNER(4096), left,
           SHARD_BITS(s), SHIFTED(rank));
    MPI_Finalize();
    return 0;
}
