#include <mpi.h>
#pragma bamboo dimension 1
int main(int argc, char **argv)
{
    double x = 0;
    MPI_Init(&argc, &argv);
#pragma bamboo olap layout NN X layout NN Y
    for (int i = 0; i < 3; i++) {
#pragma bamboo send
        MPI_Send(&x, 1, MPI_DOUBLE, 0, 0, MPI_COMM_WORLD);
    }
    return 0;
}

/* The translator must reject this file with exactly these errors:
// expect: bad_axis_outside.c:7:43: error: axis Y of layout NN is outside the 1-dimensional embedding geometry (dimension 1)
*/
