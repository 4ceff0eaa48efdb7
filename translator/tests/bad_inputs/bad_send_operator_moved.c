#include <mpi.h>
int main(int argc, char **argv)
{
    double x = 0, y = 0;
    MPI_Init(&argc, &argv);
#pragma bamboo olap
    for (int i = 0; i < 3; i++) {
#pragma bamboo receive
        { MPI_Recv(&y, 1, MPI_DOUBLE, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE); } _Pragma("bamboo send")
        { MPI_Send(&x, 1, MPI_DOUBLE, 0, 0, MPI_COMM_WORLD); }
    }
    return 0;
}

/* The translator must reject this file with exactly these errors:
// expect: bad_send_operator_moved.c:9:83: error: this send block moves before the receive block at line 8, with the lines it stands on, and other code stands on its first line: write `#pragma bamboo send` on a line of its own
*/
