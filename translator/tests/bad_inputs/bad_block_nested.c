#include <mpi.h>
int main(int argc, char **argv)
{
    double x = 0;
    MPI_Init(&argc, &argv);
#pragma bamboo olap
    for (int i = 0; i < 3; i++) {
        if (i > 0) {
#pragma bamboo receive
            MPI_Recv(&x, 1, MPI_DOUBLE, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        }
    }
    return 0;
}

/* The translator must reject this file with exactly these errors:
// expect: bad_block_nested.c:9:1: error: a receive block must be directly inside an olap region (a statement of the region's body)
*/
