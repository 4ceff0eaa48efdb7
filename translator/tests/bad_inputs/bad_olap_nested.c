#include <mpi.h>
int main(int argc, char **argv)
{
    double x = 0, y = 0;
    MPI_Init(&argc, &argv);
#pragma bamboo olap
    for (int i = 0; i < 3; i++) {
#pragma bamboo receive
        MPI_Recv(&x, 1, MPI_DOUBLE, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        if (i > 0) {
#pragma bamboo olap
            for (int j = 0; j < 2; j++) {
#pragma bamboo receive
                MPI_Recv(&y, 1, MPI_DOUBLE, 0, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            }
        }
    }
    return 0;
}

/* The translator must reject this file with exactly these errors:
// expect: bad_olap_nested.c:11:1: error: an olap region cannot be nested inside another olap region (the region at line 6); remove one of the two directives
*/
