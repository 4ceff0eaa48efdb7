/* A program that asks for MPI_THREAD_MULTIPLE and calls MPI from a thread it started: Bamboo
 * provides MPI_THREAD_FUNNELED at most, which the program prints, and the thread's call must
 * end the job with a report that names the call and says why. */
#include <mpi.h>
#include <pthread.h>
#include <stdio.h>

static void *worker(void *arg) {
    int rank = -1;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    *(int *)arg = rank;
    return NULL;
}

int main(int argc, char **argv) {
    int provided = -1, rank, from_thread = -1;
    MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    printf("rank %d: provided %s\n", rank, provided == MPI_THREAD_MULTIPLE ? "multiple" :
           provided == MPI_THREAD_SERIALIZED ? "serialized" : provided == MPI_THREAD_FUNNELED ? "funneled" : "single");
    fflush(stdout);
    if (provided == MPI_THREAD_FUNNELED) {  /* erroneous from here on, as MPI says */
        pthread_t thread;
        pthread_create(&thread, NULL, worker, &from_thread);
        pthread_join(thread, NULL);
    }
    printf("rank %d: the thread saw rank %d\n", rank, from_thread);
    MPI_Finalize();
    return 0;
}
