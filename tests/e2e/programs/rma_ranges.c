/* Where a one-sided operation may reach, beyond what plain Open MPI checks (it checks none):
 * into a window over the runtime's memory (MPI_Win_allocate), not a byte past the part; into
 * one over the program's memory (MPI_Win_create), from a first byte inside the part, as far
 * as the datatype reaches (a lower bound may carry it past count x extent, which MPICH's own
 * tests rely on). Prints what each put returned and where the data landed. */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv) {
    int rank, *mem, values[2] = {1, 2}, class = -1, memory[4] = {0, 0, 0, 0};
    MPI_Win allocated, created;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Win_allocate(sizeof(int), sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &mem, &allocated);
    MPI_Win_set_errhandler(allocated, MPI_ERRORS_RETURN);
    MPI_Win_fence(0, allocated);
    MPI_Error_class(MPI_Put(values, 2, MPI_INT, rank, 0, 2, MPI_INT, allocated), &class);
    printf("rank %d: two ints into a one-int allocated part: %s\n", rank,
           class == MPI_ERR_RMA_RANGE ? "MPI_ERR_RMA_RANGE" : "accepted");
    MPI_Win_fence(0, allocated);
    MPI_Win_free(&allocated);

    /* two ints one int after a lower bound of 0, extent one int: at displacement 0 of a two-int
     * part they reach one int past it */
    MPI_Datatype shifted, placed;
    int two = 2;
    MPI_Aint displacement = sizeof(int);
    MPI_Type_create_hindexed(1, &two, &displacement, MPI_INT, &shifted);
    MPI_Type_create_resized(shifted, 0, sizeof(int), &placed);
    MPI_Type_commit(&placed);
    MPI_Win_create(memory, 2 * sizeof(int), sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &created);
    MPI_Win_set_errhandler(created, MPI_ERRORS_RETURN);
    MPI_Win_fence(0, created);
    MPI_Error_class(MPI_Put(values, 2, MPI_INT, rank, 0, 1, placed, created), &class);
    MPI_Win_fence(0, created);
    printf("rank %d: ints past a two-int part over the program's memory: %s, memory %d %d %d\n", rank,
           class == MPI_SUCCESS ? "accepted" : "refused", memory[0], memory[1], memory[2]);
    MPI_Win_free(&created);
    MPI_Type_free(&placed);
    MPI_Type_free(&shifted);
    MPI_Finalize();
    return 0;
}
