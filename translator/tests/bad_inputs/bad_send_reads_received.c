#include <mpi.h>
int main(int argc, char **argv)
{
    double in = 0, out = 0;
    MPI_Init(&argc, &argv);
#pragma bamboo olap
    for (int i = 0; i < 3; i++) {
#pragma bamboo receive
        MPI_Recv(&in, 1, MPI_DOUBLE, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
#pragma bamboo send
        {
            out = in * 2;
            MPI_Send(&out, 1, MPI_DOUBLE, 1, 0, MPI_COMM_WORLD);
        }
    }
    return 0;
}

/* The translator must reject this file with exactly these errors:
// expect: bad_send_reads_received.c:12:19: error: send block reads 'in', which the receive block at line 8 receives into; the send block moves before that receive block, and a send that uses received data belongs in a receive block
*/
