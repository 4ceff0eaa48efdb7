#include <mpi.h>
int main(int argc, char **argv)
{
    double x = 0;
    MPI_Init(&argc, &argv);
#pragma bamboo olap layout MinHeap
    for (int i = 0; i < 3; i++) {
#pragma bamboo send
        MPI_Send(&x, 1, MPI_DOUBLE, 0, 0, MPI_COMM_WORLD);
    }
#pragma bamboo dimension 2
    return 0;
}

/* The translator must reject this file with exactly these errors:
// expect: bad_dimension_after_layout.c:11:1: error: the dimension directive must come before the first olap region with a layout (line 6)
*/
