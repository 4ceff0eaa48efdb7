#include <mpi.h>
#include <stdio.h>
static double scaled(double v) { return 2 * v; }
int main(int argc, char **argv)
{
    double x = 0, y = 1;
    MPI_Init(&argc, &argv);
#pragma bamboo olap
    for (int i = 0; i < 3; i++) {
#pragma bamboo send
        MPI_Send(&y, 1, MPI_DOUBLE, 0, 0, MPI_COMM_WORLD);
#pragma bamboo receive
        {
            x = scaled(x) + 1;
            printf("%g\n", x);
        }
    }
    return 0;
}

/* The translator must reject this file with exactly these errors:
// expect: bad_receive_block_no_receive.c:12:1: error: receive block contains no receive (MPI_Recv, MPI_Irecv, MPI_Sendrecv, a wait or a collective, directly or in a function it calls); put the receives of this window in it, or remove the directive
*/
