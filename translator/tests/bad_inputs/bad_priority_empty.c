#include <mpi.h>
int main(int argc, char **argv)
{
#pragma bamboo priority
    MPI_Init(&argc, &argv);
    return 0;
}

/* The translator must reject this file with exactly these errors:
// expect: bad_priority_empty.c:4:24: error: priority directive needs an expression
*/
