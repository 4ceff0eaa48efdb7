#include <mpi.h>
int main(int argc, char **argv)
{
#pragma bamboo
    MPI_Init(&argc, &argv);
    return 0;
}

/* The translator must reject this file with exactly these errors:
// expect: bad_pragma_empty.c:4:1: error: empty bamboo directive (expected olap, send, receive, dimension or priority)
*/
