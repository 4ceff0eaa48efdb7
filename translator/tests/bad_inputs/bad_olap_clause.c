#include <mpi.h>
int main(int argc, char **argv)
{
    double x = 0;
    MPI_Init(&argc, &argv);
#pragma bamboo olap fast
    for (int i = 0; i < 3; i++) {
#pragma bamboo send
        MPI_Send(&x, 1, MPI_DOUBLE, 0, 0, MPI_COMM_WORLD);
    }
    return 0;
}

/* The translator must reject this file with exactly these errors:
// expect: bad_olap_clause.c:6:21: error: unknown clause 'fast' in olap directive (expected 'layout NAME [AXIS...]')
*/
