#include <mpi.h>
int main(int argc, char **argv)
{
    double x = 0;
    MPI_Init(&argc, &argv);
#pragma bamboo olap
#pragma bamboo olap
    for (int i = 0; i < 3; i++) {
#pragma bamboo receive
        MPI_Recv(&x, 1, MPI_DOUBLE, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    }
    return 0;
}

/* The translator must reject this file with exactly these errors:
// expect: bad_olap_twice.c:7:1: error: duplicate olap directive: the statement after it is already an olap region (directive at line 6); remove one of them
*/
