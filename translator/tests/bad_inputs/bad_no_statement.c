#include <mpi.h>
int main(int argc, char **argv)
{
    double x = 0;
    MPI_Init(&argc, &argv);
#pragma bamboo olap
    for (int i = 0; i < 3; i++) {
#pragma bamboo send
        MPI_Send(&x, 1, MPI_DOUBLE, 0, 0, MPI_COMM_WORLD);
#pragma bamboo receive
    }
    return 0;
}

/* The translator must reject this file with exactly these errors:
// expect: bad_no_statement.c:10:1: error: '#pragma bamboo receive' must be followed by a statement in the same block (it applies to the statement after it)
*/
