#include <mpi.h>
int main(int argc, char **argv)
{
    double x = 0;
    MPI_Init(&argc, &argv);
#pragma bamboo olap
    for (int i = 0; i < 3; i++) {
        MPI_Send(&x, 1, MPI_DOUBLE, 1, 0, MPI_COMM_WORLD);
    }
    return 0;
}

/* The translator must reject this file with exactly these errors:
// expect: bad_region_no_blocks.c:6:1: error: an olap region must contain at least one send or receive block
*/
