#include <mpi.h>
int main(int argc, char **argv)
{
    int rank, size;
    double x = 1, total = 0;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
#pragma bamboo olap
    for (int it = 0; it < 3; it++) {
#pragma bamboo send
        {
            MPI_Send(&x, 1, MPI_DOUBLE, (rank + 1) % size, 0, MPI_COMM_WORLD);
            MPI_Allreduce(&x, &total, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
        }
#pragma bamboo receive
        MPI_Recv(&x, 1, MPI_DOUBLE, (rank + size - 1) % size, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    }
    MPI_Finalize();
    return 0;
}

/* The translator must reject this file with exactly these errors:
// expect: bad_send_block_collective.c:14:13: error: send block contains MPI_Allreduce, a collective; a send block holds sends only (move it to a receive block)
*/
