/* Loops of one-element MPI_Put and MPI_Get, which the loop optimizer joins into one transfer
 * of a derived datatype, to neighbours whose window displacement unit differs from the
 * origin's (sizeof(int) on odd ranks, 1 on even ones): the target's strides are in the
 * target's unit. Includes mpi.h itself, as the loop optimizer asks. */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv) {
    int rank, size, *mem = NULL, out[4], in[4];
    MPI_Win win;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    int unit = rank % 2 ? (int)sizeof(int) : 1;
    MPI_Win_allocate((MPI_Aint)(8 * sizeof(int)), unit, MPI_INFO_NULL, MPI_COMM_WORLD, &mem, &win);
    for (int i = 0; i < 8; i++)
        mem[i] = rank * 100 + i;
    int right = (rank + 1) % size, left = (rank + size - 1) % size;
    /* one cell of the neighbours' parts, in their displacement units */
    MPI_Aint right_step = right % 2 ? 1 : (MPI_Aint)sizeof(int), left_step = left % 2 ? 1 : (MPI_Aint)sizeof(int);
    for (int i = 0; i < 4; i++)
        out[i] = rank * 10 + i;
    MPI_Win_fence(0, win);
    for (int i = 0; i < 4; i++)
        MPI_Get(&in[i], 1, MPI_INT, left, (4 + i) * left_step, 1, MPI_INT, win);
    MPI_Win_fence(0, win);
    for (int i = 0; i < 4; i++)
        MPI_Put(&out[i], 1, MPI_INT, right, i * right_step, 1, MPI_INT, win);
    MPI_Win_fence(0, win);
    printf("rank %d: cells %d %d %d %d, got %d %d %d %d\n", rank, mem[0], mem[1], mem[2], mem[3], in[0], in[1],
           in[2], in[3]);
    MPI_Win_free(&win);
    MPI_Finalize();
    return 0;
}
