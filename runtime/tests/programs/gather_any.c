/* ANY_SOURCE / ANY_TAG gather: every rank but 0 sends `per_rank` numbered messages to rank 0
 * with tags that vary; rank 0 takes them all with wildcards and checks each status against
 * the payload, MPI's non-overtaking order per source, and the total against n(n-1)/2. */
#include "bamboo.h"
#include "check.h"

int bamboo_main(int argc, char **argv) {
    MPI_Init(&argc, &argv);
    int rank, size, failures = 0;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    const int per_rank = int_arg(argc, argv, "--per-rank", 4);

    if (rank != 0) {
        for (int seq = 0; seq < per_rank; ++seq) {
            int payload[2] = {rank, seq};
            MPI_Send(payload, 2, MPI_INT, 0, (rank + seq) % 3, MPI_COMM_WORLD);
        }
    } else {
        int *next_seq = calloc(size, sizeof(int));
        long sum = 0;
        for (int i = 0; i < (size - 1) * per_rank; ++i) {
            int payload[2];
            MPI_Status status;
            MPI_Recv(payload, 2, MPI_INT, MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &status);
            int source = payload[0], seq = payload[1];
            CHECK(failures, rank, status.MPI_SOURCE == source, "status source %d, payload from %d",
                  status.MPI_SOURCE, source);
            CHECK(failures, rank, status.MPI_TAG == (source + seq) % 3, "tag %d for message %d of %d",
                  status.MPI_TAG, seq, source);
            CHECK(failures, rank, source > 0 && source < size && seq == next_seq[source],
                  "from %d got message %d, expected %d (order between two ranks must hold)", source,
                  seq, source > 0 && source < size ? next_seq[source] : -1);
            if (source > 0 && source < size) next_seq[source] = seq + 1;
            if (seq == 0) sum += source;
        }
        CHECK(failures, rank, sum == (long)size * (size - 1) / 2, "sum of sources %ld", sum);
        free(next_seq);
        if (failures == 0) printf("gather ok: %d messages from %d ranks\n", (size - 1) * per_rank, size - 1);
    }
    MPI_Finalize();
    return failures != 0;
}
