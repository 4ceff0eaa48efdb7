#include <mpi.h>
#pragma bamboo dimension 2
#pragma bamboo dimension 3
int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    return 0;
}

/* The translator must reject this file with exactly these errors:
// expect: bad_dimension_twice.c:3:1: error: duplicate dimension directive (first declared at line 2)
*/
