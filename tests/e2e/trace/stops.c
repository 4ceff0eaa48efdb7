/* A job that does not end well, as its first argument says, after a ring of messages that
 * every trace of it must hold:
 *   deadlock  rank 0 waits for a message (tag 99) that no rank sends: the deadlock report;
 *   fault     the last rank writes through a null pointer while rank 0 waits for it;
 *   hang      as deadlock, but nothing reports it: the test stops the job with SIGTERM;
 *   abort     the last rank calls MPI_Abort (error code 5) while rank 0 waits for it;
 *   ring      nothing more: the job ends well (the ground truth of what the others print).
 * The last rank faults or aborts two seconds after the ring, once the others have been idle
 * long enough to have written their parts as they stand: those stand in for the parts the
 * launcher's SIGTERM should make them write, if it sends none. */
#include <mpi.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

int main(int argc, char **argv)
{
    int rank, size, token = 0, next, previous;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    next = (rank + 1) % size;
    previous = (rank + size - 1) % size;
    if (rank == 0) {
        MPI_Send(&token, 1, MPI_INT, next, 1, MPI_COMM_WORLD);
        MPI_Recv(&token, 1, MPI_INT, previous, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    } else {
        MPI_Recv(&token, 1, MPI_INT, previous, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        ++token;
        MPI_Send(&token, 1, MPI_INT, next, 1, MPI_COMM_WORLD);
    }
    printf("rank %d passed the token on\n", rank);
    fflush(stdout);
    const char *how = argc > 1 ? argv[1] : "deadlock";
    if (strcmp(how, "ring") == 0) {
        MPI_Finalize();
        return 0;
    }
    if (rank == 0) {
        MPI_Recv(&token, 1, MPI_INT, size - 1, 99, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    } else if (rank == size - 1 && strcmp(how, "fault") == 0) {
        volatile int *nowhere = NULL;
        sleep(2);
        *nowhere = token;
    } else if (rank == size - 1 && strcmp(how, "abort") == 0) {
        sleep(2);
        MPI_Abort(MPI_COMM_WORLD, 5);
    }
    MPI_Finalize();
    return 0;
}
