/* Ring exchange: every rank passes a token to its right neighbour, for several rounds, with
 * the round as the tag. Checks the world size against the expected one (so the runtime's
 * --bamboo-* arguments must have been removed from argv wherever they stood), the values
 * received, and the statuses. Payloads of --words ints exercise small and large messages. */
#include "bamboo.h"
#include "check.h"

int bamboo_main(int argc, char **argv) {
    MPI_Init(&argc, &argv);
    int rank, size, failures = 0;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);

    int expected_size = int_arg(argc, argv, "--expect-size", -1);
    int words = int_arg(argc, argv, "--words", 1);
    int rounds = int_arg(argc, argv, "--rounds", 5);
    CHECK(failures, rank, size == expected_size, "size %d, expected %d", size, expected_size);
    for (int i = 1; i < argc; ++i)
        CHECK(failures, rank, strncmp(argv[i], "--bamboo-", 9) != 0, "argv[%d] is %s", i, argv[i]);

    int right = (rank + 1) % size, left = (rank + size - 1) % size;
    int *out = malloc(sizeof(int) * words), *in = malloc(sizeof(int) * words);
    for (int round = 0; round < rounds; ++round) {
        for (int w = 0; w < words; ++w) out[w] = rank * 1000 + round * 7 + w;
        MPI_Status status;
        MPI_Send(out, words, MPI_INT, right, round, MPI_COMM_WORLD);
        MPI_Recv(in, words, MPI_INT, left, round, MPI_COMM_WORLD, &status);
        int count = -1;
        MPI_Get_count(&status, MPI_INT, &count);
        CHECK(failures, rank, status.MPI_SOURCE == left && status.MPI_TAG == round && count == words,
              "status source %d tag %d count %d", status.MPI_SOURCE, status.MPI_TAG, count);
        for (int w = 0; w < words; ++w)
            CHECK(failures, rank, in[w] == left * 1000 + round * 7 + w, "round %d word %d: got %d",
                  round, w, in[w]);
    }
    free(out);
    free(in);
    if (rank == 0 && failures == 0) printf("ring ok: %d ranks, %d rounds, %d ints\n", size, rounds, words);
    MPI_Finalize();
    return failures != 0;
}
