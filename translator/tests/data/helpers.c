#include <mpi.h>
#include <stdlib.h>

int nsteps = 3;
int counter;
#define BUMP() (counter++)
#define NBR(k) (neighbors[(k)])
int neighbors[2];

static void recv_from(double *buf, int n, int src)
{
    static int calls = 0;
    calls++;
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

int main(void)
{
    int rank, size;
    double a[8], b[8];
    MPI_Request req[2];
    MPI_Init(NULL, NULL);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    neighbors[0] = rank - 1;
    neighbors[1] = rank + 1 < size ? rank + 1 : -1;
    int step;
#pragma bamboo olap
    for (step = 0; step < nsteps; step++) {
#pragma bamboo priority step + 1
#pragma bamboo send
        {
            int k;
            for (k = 0; k < 2; k++)
                if (NBR(k) >= 0)
                    MPI_Isend(a, 8, MPI_DOUBLE, NBR(k), step, MPI_COMM_WORLD, &req[k]);
        }
#pragma bamboo receive
        {
            int k, src;
            for (k = 0; k < 2; k++) {
                src = neighbors[k];
                if (src >= 0)
                    MPI_Irecv(b, 8, MPI_DOUBLE, src, step, MPI_COMM_WORLD, &req[k]);
            }
            MPI_Waitall(2, req, MPI_STATUSES_IGNORE);
        }
#pragma bamboo receive
        recv_from(b, 8, rank - 2);
#pragma bamboo receive
        recv_tree(b, 8, rank, 2);
        BUMP();
    }
    MPI_Finalize();
}
