#include <mpi.h>

static void recv_from(double *buf, int n, int src)
{
    if (src >= 0)
        MPI_Recv(buf, n, MPI_DOUBLE, src, 7, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
}

static void recv_tree(double *buf, int n, int node, int depth)
{
    if (depth == 0)
        return;
    recv_from(buf, n, node);
    recv_tree(buf, n, node * 2, depth - 1);
}

void step_loop(int rank, int steps, double *b, const double *a)
{
    int src = 0, i;
#pragma bamboo olap
    while (steps-- > 0) {
#pragma bamboo receive
        {
            for (i = 0, src = rank; i < 2; i++)
                MPI_Recv(b, 8, MPI_DOUBLE, MPI_ANY_SOURCE, i, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            src = rank - 1;
            recv_from(b, 8, src);
            src += 2;
            recv_tree(b, 8, src, 3);
        }
#pragma bamboo send
        MPI_Send(a, 8, MPI_DOUBLE, rank + 1, 7, MPI_COMM_WORLD);
    }
}
