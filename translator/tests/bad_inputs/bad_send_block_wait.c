#include <mpi.h>
int main(int argc, char **argv)
{
    double x = 0, y;
    MPI_Request r[2];
    MPI_Init(&argc, &argv);
#pragma bamboo olap
    for (int i = 0; i < 3; i++) {
#pragma bamboo receive
        MPI_Irecv(&y, 1, MPI_DOUBLE, 1, 0, MPI_COMM_WORLD, &r[1]);
#pragma bamboo send
        {
            MPI_Isend(&x, 1, MPI_DOUBLE, 1, 0, MPI_COMM_WORLD, &r[0]);
            MPI_Waitall(2, r, MPI_STATUSES_IGNORE);   /* also waits for the receive */
        }
    }
    return 0;
}

/* The translator must reject this file with exactly these errors:
// expect: bad_send_block_wait.c:13:65: error: send block reads 'r', which the receive block at line 9 writes; the send block moves before that receive block, and a send that uses received data belongs in a receive block
// expect: bad_send_block_wait.c:14:13: error: send block contains MPI_Waitall, a wait; a send block holds sends only (move it to a receive block)
*/
