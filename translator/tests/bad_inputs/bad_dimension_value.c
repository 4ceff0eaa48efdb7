#include <mpi.h>
#pragma bamboo dimension two
int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    return 0;
}

/* The translator must reject this file with exactly these errors:
// expect: bad_dimension_value.c:2:26: error: dimension must be a positive integer, not 'two'
*/
