/* A receive with a derived datatype that the program frees, and whose handle MPI may give
 * to a new datatype, before the message arrives: MPI says the receive completes normally. */
#include <mpi.h>
#include <stdio.h>
int main(int argc, char **argv) {
    int rank, size;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    int grid[4][4] = {{0}}, column[4] = {rank, rank + 10, rank + 20, rank + 30};
    MPI_Datatype col;
    MPI_Type_vector(4, 1, 4, MPI_INT, &col);
    MPI_Type_commit(&col);
    MPI_Request r;
    MPI_Irecv(&grid[0][1], 1, col, (rank + size - 1) % size, 0, MPI_COMM_WORLD, &r);
    MPI_Type_free(&col);
    MPI_Datatype other;  /* may reuse the freed handle */
    MPI_Type_contiguous(3, MPI_DOUBLE, &other);
    MPI_Type_commit(&other);
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Send(column, 4, MPI_INT, (rank + 1) % size, 0, MPI_COMM_WORLD);
    MPI_Wait(&r, MPI_STATUS_IGNORE);
    printf("rank %d column: %d %d %d %d, others %d %d\n", rank, grid[0][1], grid[1][1], grid[2][1], grid[3][1], grid[0][0], grid[3][2]);
    MPI_Type_free(&other);
    MPI_Finalize();
    return 0;
}
