/* Firing rules as the translator emits them: sends first, then one bamboo_expect() per message
 * the receive block takes, then bamboo_fire(). When bamboo_fire() returns, every expected
 * message must already be in the mailbox (checked with MPI_Iprobe, which does not wait).
 * Ranks compute for different times so that messages arrive in varying order. Also checks
 * duplicate keys (two messages of one key), wildcard keys and ignored MPI_PROC_NULL keys. */
#include <time.h>

#include "bamboo.h"
#include "check.h"

static void compute(double seconds) {
    double end = MPI_Wtime() + seconds;
    while (MPI_Wtime() < end) {
    }
}

static int present(int source, int tag) {
    int flag = 0;
    MPI_Iprobe(source, tag, MPI_COMM_WORLD, &flag, MPI_STATUS_IGNORE);
    return flag;
}

int bamboo_main(int argc, char **argv) {
    MPI_Init(&argc, &argv);
    int rank, size, failures = 0;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    const int iterations = int_arg(argc, argv, "--iterations", 20);
    int left = (rank + size - 1) % size, right = (rank + 1) % size;

    for (int it = 0; it < iterations; ++it) {
        compute(((rank + it) % 3) * 0.0005);
        int mine[2] = {rank, it};
        MPI_Send(mine, 2, MPI_INT, left, it, MPI_COMM_WORLD);
        MPI_Send(mine, 2, MPI_INT, right, it, MPI_COMM_WORLD);

        bamboo_expect(left, it, MPI_COMM_WORLD);
        bamboo_expect(right, it, MPI_COMM_WORLD); /* same key twice when size <= 2 */
        bamboo_expect(MPI_PROC_NULL, it, MPI_COMM_WORLD);
        bamboo_fire(BAMBOO_AT);

        CHECK(failures, rank, present(left, it) && present(right, it),
              "iteration %d: the rule fired before the messages arrived", it);
        int a[2], b[2];
        MPI_Recv(a, 2, MPI_INT, left, it, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        MPI_Recv(b, 2, MPI_INT, right, it, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        CHECK(failures, rank, a[0] == left && b[0] == right && a[1] == it && b[1] == it,
              "iteration %d: got %d/%d and %d/%d", it, a[0], a[1], b[0], b[1]);
    }

    /* Wildcard keys: two messages with tag 99 from anyone. */
    compute((rank % 2) * 0.002);
    int token = rank;
    MPI_Send(&token, 1, MPI_INT, left, 99, MPI_COMM_WORLD);
    MPI_Send(&token, 1, MPI_INT, right, 99, MPI_COMM_WORLD);
    bamboo_expect(MPI_ANY_SOURCE, 99, MPI_COMM_WORLD);
    bamboo_expect(MPI_ANY_SOURCE, 99, MPI_COMM_WORLD);
    bamboo_fire(BAMBOO_AT);
    int sum = 0;
    for (int k = 0; k < 2; ++k) {
        CHECK(failures, rank, present(MPI_ANY_SOURCE, 99), "wildcard rule fired early (%d)", k);
        MPI_Recv(&token, 1, MPI_INT, MPI_ANY_SOURCE, 99, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        sum += token;
    }
    CHECK(failures, rank, sum == left + right, "wildcard sum %d", sum);

    /* An empty rule fires at once. */
    bamboo_fire(BAMBOO_AT);
    if (rank == 0 && failures == 0) printf("firing ok: %d ranks, %d iterations\n", size, iterations);
    MPI_Finalize();
    return failures != 0;
}
