/* A message storm on a late receiver: every rank of the first half sends COUNT messages of
   BYTES to rank size-1, which starts receiving DELAY_MS late and takes them with specific
   sources or, with `any`, MPI_ANY_SOURCE / MPI_ANY_TAG. Every message carries its sender and
   number; the receiver checks MPI's order per sender. Each process reports its peak memory
   on stderr (not part of the output compared with plain MPI).
   storm COUNT BYTES DELAY_MS specific|any */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

int main(int argc, char **argv) {
    int rank, size;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (argc < 5) {
        if (rank == 0) fprintf(stderr, "usage: storm COUNT BYTES DELAY_MS specific|any\n");
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    long count = atol(argv[1]);
    int ints = atoi(argv[2]) / (int)sizeof(int);
    int delay_ms = atoi(argv[3]);
    int any = strcmp(argv[4], "any") == 0;
    int producers = size / 2, consumer = size - 1;
    int *message = malloc(ints * sizeof(int));

    if (rank < producers) {
        for (long i = 0; i < count; i++) {
            message[0] = rank;
            for (int k = 1; k < ints; k++) message[k] = (int)i;
            MPI_Send(message, ints, MPI_INT, consumer, (int)(i % 3), MPI_COMM_WORLD);
        }
    } else if (rank == consumer) {
        long *next = calloc(producers, sizeof(long));
        long wrong = 0;
        usleep(delay_ms * 1000);
        for (long m = 0; m < count * producers; m++) {
            int source = any ? MPI_ANY_SOURCE : (int)(m % producers);
            int tag = any ? MPI_ANY_TAG : (int)(next[source] % 3);
            MPI_Status status;
            MPI_Recv(message, ints, MPI_INT, source, tag, MPI_COMM_WORLD, &status);
            int from = status.MPI_SOURCE;
            if (message[0] != from || status.MPI_TAG != next[from] % 3 || message[ints - 1] != (int)next[from]) {
                if (wrong++ < 3)
                    printf("rank %d: message %ld from rank %d carries number %d, tag %d\n", rank, next[from],
                           from, message[ints - 1], status.MPI_TAG);
            }
            next[from]++;
        }
        printf("rank %d received %ld messages from each of %d ranks; %ld out of order\n", rank, count,
               producers, wrong);
        free(next);
    }
    MPI_Barrier(MPI_COMM_WORLD);
    struct rusage usage;
    getrusage(RUSAGE_SELF, &usage);
    fprintf(stderr, "storm: rank %d peak memory %ld KiB\n", rank, usage.ru_maxrss);
    free(message);
    MPI_Finalize();
    return 0;
}
