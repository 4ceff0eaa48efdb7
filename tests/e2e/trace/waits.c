/* A receive that must wait: the last rank computes a while before it sends rank 0 the
 * message rank 0 is already waiting for (tag 7). Every rank prints what it received. */
#include <mpi.h>
#include <stdio.h>

static double busy(long steps)
{
    double x = 0;
    for (long i = 1; i <= steps; ++i) x += 1.0 / ((double)i * i);
    return x;
}

int main(int argc, char **argv)
{
    int rank, size, value = -1;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (rank == size - 1) {
        value = busy(20000000) > 1.6 ? 42 : 0;
        MPI_Send(&value, 1, MPI_INT, 0, 7, MPI_COMM_WORLD);
    } else if (rank == 0) {
        MPI_Recv(&value, 1, MPI_INT, size - 1, 7, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    }
    printf("rank %d has %d\n", rank, value);
    MPI_Finalize();
    return 0;
}
