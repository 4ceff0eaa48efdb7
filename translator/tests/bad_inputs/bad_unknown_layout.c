#include <mpi.h>
#pragma bamboo dimension 2
int main(int argc, char **argv)
{
    double x = 0;
    MPI_Init(&argc, &argv);
#pragma bamboo olap layout Ring X
    for (int i = 0; i < 3; i++) {
#pragma bamboo send
        MPI_Send(&x, 1, MPI_DOUBLE, 0, 0, MPI_COMM_WORLD);
    }
    return 0;
}

/* The translator must reject this file with exactly these errors:
// expect: bad_unknown_layout.c:7:28: error: unknown layout 'Ring' (expected NearestNeighbor, NN, OneNeighborBackward or MinHeap)
*/
