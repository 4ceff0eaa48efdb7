#include <mpi.h>
int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
#pragma bamboo overlap
    for (int i = 0; i < 3; i++) {
    }
    return 0;
}

/* The translator must reject this file with exactly these errors:
// expect: bad_unknown_directive.c:5:16: error: unknown bamboo directive 'overlap' (expected olap, send, receive, dimension or priority)
*/
