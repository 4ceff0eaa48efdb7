/* The C half of the mixed program: MPI from C, and a static counter each rank has its own of. */
#include <mpi.h>
#include <stdio.h>

static int calls;

int ring_sum(int value)
{
    int rank, size, from_left, sum;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Sendrecv(&value, 1, MPI_INT, (rank + 1) % size, 7, &from_left, 1, MPI_INT,
                 (rank + size - 1) % size, 7, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Allreduce(&value, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    calls++;
    printf("rank %d: C call %d got %d from the left\n", rank, calls, from_left);
    fflush(stdout);
    return sum;
}
