#include <mpi.h>
int main(int argc, char **argv)
{
    double x = 0;
    MPI_Init(&argc, &argv);
#pragma bamboo olap layout NearestNeighbor X
    for (int i = 0; i < 3; i++) {
#pragma bamboo send
        MPI_Send(&x, 1, MPI_DOUBLE, 0, 0, MPI_COMM_WORLD);
    }
    return 0;
}

/* The translator must reject this file with exactly these errors:
// expect: bad_layout_no_dimension.c:6:28: error: a layout needs the embedding geometry's dimension: add '#pragma bamboo dimension N' before the first olap region
*/
