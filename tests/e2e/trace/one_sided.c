/* One-sided operations for the trace to show: in one fence epoch each rank puts its number
 * into the next rank's window, gets the number the previous rank's window holds from the
 * start, and adds one to rank 0's counter (three cells: no two operations of the epoch touch
 * one). Every rank prints what it got and holds. */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv)
{
    int rank, size, got = -1;
    int cell[3] = {-1, 0, -1};  /* [0]: the previous rank's put; [1]: rank 0's counter; [2]: its number */
    MPI_Win win;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    cell[2] = rank;
    MPI_Win_create(cell, sizeof cell, sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &win);
    int next = (rank + 1) % size, previous = (rank + size - 1) % size, one = 1, mine = rank;
    MPI_Win_fence(0, win);
    MPI_Put(&mine, 1, MPI_INT, next, 0, 1, MPI_INT, win);
    MPI_Get(&got, 1, MPI_INT, previous, 2, 1, MPI_INT, win);
    MPI_Accumulate(&one, 1, MPI_INT, 0, 1, 1, MPI_INT, MPI_SUM, win);
    MPI_Win_fence(0, win);
    printf("rank %d got %d, holds %d and %d\n", rank, got, cell[0], cell[1]);
    MPI_Win_free(&win);
    MPI_Finalize();
    return 0;
}
