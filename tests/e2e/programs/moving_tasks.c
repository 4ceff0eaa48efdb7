/* Tasks that suspend often: with several workers and queues shared between them, a task
 * resumes on another worker than it suspended on. Wherever it runs, it must see its own
 * errno and its own globals. errno is set before each suspension and read right after it,
 * in one function, where a compiler keeps errno's address in a register across the call
 * (glibc declares __errno_location() const): after a move that address would be another
 * thread's errno, which another task has just set to its own value. */
#include <errno.h>
#include <mpi.h>
#include <stdio.h>
#include <unistd.h>

#define STEPS 300

static int token;          /* each rank's own value, set before and checked after suspending */
static double history[4];  /* and an array of them */

static int errno_survives_a_sleep(int value)
{
    errno = value;
    usleep(20); /* suspends the task only: others run, and set their own errno */
    return errno == value;
}

static int errno_survives_a_barrier(int value)
{
    errno = value;
    MPI_Barrier(MPI_COMM_WORLD);
    return errno == value;
}

int main(int argc, char **argv)
{
    int rank, size;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    int left = (rank + size - 1) % size, right = (rank + 1) % size;
    int errno_kept = 0, globals_kept = 0;
    double value = rank, from_left = 0.0;

#pragma bamboo olap
    for (int step = 0; step < STEPS; step++) {
        MPI_Request sent;
#pragma bamboo send
        {
            MPI_Isend(&value, 1, MPI_DOUBLE, right, step, MPI_COMM_WORLD, &sent);
        }
#pragma bamboo receive
        {
            MPI_Recv(&from_left, 1, MPI_DOUBLE, left, step, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        }
        MPI_Wait(&sent, MPI_STATUS_IGNORE);
        token = rank * 100000 + step;
        history[step % 4] = value;
        errno_kept += errno_survives_a_sleep(1 + rank * 1000 + step % 1000);
        globals_kept += token == rank * 100000 + step && history[step % 4] == value;
        value = 0.5 * (value + from_left);
    }
    for (int step = 0; step < STEPS / 10; step++) {
        token = -rank - step;
        errno_kept += errno_survives_a_barrier(2 + rank + step);
        globals_kept += token == -rank - step;
    }

    printf("rank %d: errno kept %d of %d, globals kept %d of %d, value %.12f\n", rank, errno_kept,
           STEPS + STEPS / 10, globals_kept, STEPS + STEPS / 10, value);
    MPI_Finalize();
    return 0;
}
