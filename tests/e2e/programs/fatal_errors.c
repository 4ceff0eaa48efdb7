/* Erroneous calls where the error handler is MPI_ERRORS_ARE_FATAL (--case NAME):
 *   default    on MPI_COMM_WORLD, whose handler no one set
 *   restored   on a duplicate of MPI_COMM_WORLD, which inherited MPI_ERRORS_RETURN and was
 *              set back to MPI_ERRORS_ARE_FATAL, after an error on MPI_COMM_WORLD returned
 *   inherited  on a communicator split from one whose handler is MPI_ERRORS_ARE_FATAL, after
 *              MPI_COMM_WORLD's was set to MPI_ERRORS_RETURN
 *   called     MPI_Comm_call_errhandler on MPI_COMM_WORLD, whose handler no one set
 * Each must end the job, naming the task, the call and its place. */
#include <mpi.h>
#include <stdio.h>
#include <string.h>

int main(int argc, char **argv) {
    const char *which = argc > 2 && strcmp(argv[1], "--case") == 0 ? argv[2] : "";
    int rank, size, x = 0;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Comm comm = MPI_COMM_WORLD;
    if (strcmp(which, "restored") == 0) {
        MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
        MPI_Comm_dup(MPI_COMM_WORLD, &comm);
        if (MPI_Send(&x, 1, MPI_INT, size, 0, MPI_COMM_WORLD) != MPI_SUCCESS)
            printf("rank %d: the error on MPI_COMM_WORLD returned\n", rank);
        MPI_Comm_set_errhandler(comm, MPI_ERRORS_ARE_FATAL);
    } else if (strcmp(which, "inherited") == 0) {
        MPI_Comm fatal;
        MPI_Comm_dup(MPI_COMM_WORLD, &fatal);
        MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
        MPI_Comm_split(fatal, 0, rank, &comm);
    }
    if (rank == 0 && strcmp(which, "called") == 0)
        MPI_Comm_call_errhandler(MPI_COMM_WORLD, MPI_ERR_TAG);
    else if (rank == 0)
        MPI_Send(&x, 1, MPI_INT, size, 0, comm);
    MPI_Barrier(MPI_COMM_WORLD);
    printf("rank %d: never gets here\n", rank);
    MPI_Finalize();
    return 0;
}
