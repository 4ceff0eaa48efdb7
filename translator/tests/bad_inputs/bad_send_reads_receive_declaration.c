#include <mpi.h>
int main(int argc, char **argv)
{
    int x = 0;
    double b = 0, s = 0;
    MPI_Init(&argc, &argv);
#pragma bamboo olap
    for (int i = 0; i < 2; i++) {
#pragma bamboo receive
        int r = MPI_Recv(&b, 1, MPI_DOUBLE, MPI_PROC_NULL, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
#pragma bamboo send
        int q = MPI_Send(&s, 1, MPI_DOUBLE, MPI_PROC_NULL, r, MPI_COMM_WORLD);
        x += q;
    }
    MPI_Finalize();
    return x;
}

/* The translator must reject this file with exactly these errors:
// expect: bad_send_reads_receive_declaration.c:12:60: error: send block reads 'r', which the receive block at line 9 declares; the send block moves before that receive block, and a send that uses received data belongs in a receive block
*/
