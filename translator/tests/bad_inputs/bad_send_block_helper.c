#include <mpi.h>
static void get(double *y, int from)
{
    MPI_Recv(y, 1, MPI_DOUBLE, from, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
}
static void exchange(double *x, double *y, int peer)
{
    MPI_Send(x, 1, MPI_DOUBLE, peer, 0, MPI_COMM_WORLD);
    get(y, peer);
}
int main(int argc, char **argv)
{
    double x = 0, y = 0;
    MPI_Init(&argc, &argv);
#pragma bamboo olap
    for (int i = 0; i < 3; i++) {
#pragma bamboo send
        exchange(&x, &y, 1);
    }
    return 0;
}

/* The translator must reject this file with exactly these errors:
// expect: bad_send_block_helper.c:18:9: error: send block calls exchange(), which does not only send (exchange() -> get(): MPI_Recv at line 4); a send block holds sends only
*/
