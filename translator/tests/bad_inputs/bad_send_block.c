#include <mpi.h>
int main(int argc, char **argv)
{
    double x = 0, y = 0;
    MPI_Init(&argc, &argv);
#pragma bamboo olap
    for (int i = 0; i < 3; i++) {
#pragma bamboo send
        {
            MPI_Send(&x, 1, MPI_DOUBLE, 1, 0, MPI_COMM_WORLD);
            MPI_Recv(&y, 1, MPI_DOUBLE, 1, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        }
    }
    return 0;
}

/* The translator must reject this file with exactly these errors:
// expect: bad_send_block.c:11:13: error: send block contains MPI_Recv, a receive; a send block holds sends only (move it to a receive block)
*/
