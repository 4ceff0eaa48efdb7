#include <mpi.h>
int main(int argc, char **argv)
{
    double x = 0;
    MPI_Request r;
    MPI_Init(&argc, &argv);
#pragma bamboo olap
    for (int i = 0; i < 3; i++) {
#pragma bamboo send
        {
            MPI_Isend(&x, 1, MPI_DOUBLE, 1, 0, MPI_COMM_WORLD, &r);
            MPI_Wait(&r, MPI_STATUS_IGNORE);
        }
    }
    return 0;
}

/* The translator must reject this file with exactly these errors:
// expect: bad_send_block_wait.c:12:13: error: send block contains MPI_Wait, a wait; a send block holds sends only (move it to a receive block)
*/
