#include <mpi.h>
int main(int argc, char **argv)
{
    double x = 0;
    MPI_Init(&argc, &argv);
#pragma bamboo send
    MPI_Send(&x, 1, MPI_DOUBLE, 1, 0, MPI_COMM_WORLD);
    return 0;
}

/* The translator must reject this file with exactly these errors:
// expect: bad_block_outside_region.c:6:1: error: a send block must be directly inside an olap region (a statement of the region's body)
*/
