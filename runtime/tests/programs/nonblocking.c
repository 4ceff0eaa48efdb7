/* Isend/Irecv with Waitall, Waitany, Test and Testall polling, null requests and ignored
 * statuses. Each rank exchanges `words` ints with both neighbours; values are a function of
 * (sender, phase, index) so the receiver can recompute them. */
#include "bamboo.h"
#include "check.h"

static int value(int sender, int phase, int i) { return sender * 100003 + phase * 1009 + i; }

static void fill(int *buf, int words, int sender, int phase) {
    for (int i = 0; i < words; ++i) buf[i] = value(sender, phase, i);
}

static int verify(const int *buf, int words, int sender, int phase, int rank) {
    int failures = 0;
    for (int i = 0; i < words && failures < 3; ++i)
        CHECK(failures, rank, buf[i] == value(sender, phase, i), "phase %d from %d word %d: %d",
              phase, sender, i, buf[i]);
    return failures;
}

int bamboo_main(int argc, char **argv) {
    MPI_Init(&argc, &argv);
    int rank, size, failures = 0;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    const int words = int_arg(argc, argv, "--words", 16);
    int left = (rank + size - 1) % size, right = (rank + 1) % size;
    int *to_left = malloc(sizeof(int) * words), *to_right = malloc(sizeof(int) * words);
    int *from_left = malloc(sizeof(int) * words), *from_right = malloc(sizeof(int) * words);
    MPI_Request requests[4];
    MPI_Status statuses[4];

    /* Phase 1: Waitall over receives posted before the sends. */
    fill(to_left, words, rank, 1);
    fill(to_right, words, rank, 1);
    MPI_Irecv(from_left, words, MPI_INT, left, 1, MPI_COMM_WORLD, &requests[0]);
    MPI_Irecv(from_right, words, MPI_INT, right, 2, MPI_COMM_WORLD, &requests[1]);
    MPI_Isend(to_right, words, MPI_INT, right, 1, MPI_COMM_WORLD, &requests[2]);
    MPI_Isend(to_left, words, MPI_INT, left, 2, MPI_COMM_WORLD, &requests[3]);
    MPI_Waitall(4, requests, statuses);
    for (int i = 0; i < 4; ++i)
        CHECK(failures, rank, requests[i] == MPI_REQUEST_NULL, "request %d not nulled by Waitall", i);
    CHECK(failures, rank, statuses[0].MPI_SOURCE == left && statuses[0].MPI_TAG == 1, "status 0");
    CHECK(failures, rank, statuses[1].MPI_SOURCE == right && statuses[1].MPI_TAG == 2, "status 1");
    int count = -1;
    MPI_Get_count(&statuses[1], MPI_INT, &count);
    CHECK(failures, rank, count == words, "Waitall count %d", count);
    failures += verify(from_left, words, left, 1, rank) + verify(from_right, words, right, 1, rank);

    /* Phase 2: Waitany, with a null request in the array, statuses ignored elsewhere. */
    fill(to_left, words, rank, 2);
    fill(to_right, words, rank, 2);
    MPI_Isend(to_right, words, MPI_INT, right, 3, MPI_COMM_WORLD, &requests[2]);
    MPI_Isend(to_left, words, MPI_INT, left, 4, MPI_COMM_WORLD, &requests[3]);
    requests[0] = MPI_REQUEST_NULL;
    MPI_Irecv(from_left, words, MPI_INT, left, 3, MPI_COMM_WORLD, &requests[1]);
    MPI_Irecv(from_right, words, MPI_INT, right, 4, MPI_COMM_WORLD, &requests[0]);
    int seen = 0;
    for (int k = 0; k < 2; ++k) {
        int index = -1;
        MPI_Status status;
        MPI_Waitany(2, requests, &index, &status);
        CHECK(failures, rank, index == 0 || index == 1, "Waitany index %d", index);
        if (index == 0 || index == 1) {
            seen |= 1 << index;
            CHECK(failures, rank, requests[index] == MPI_REQUEST_NULL, "Waitany did not null");
            CHECK(failures, rank, status.MPI_TAG == (index == 0 ? 4 : 3), "Waitany tag %d", status.MPI_TAG);
        }
    }
    int index = 7;
    MPI_Waitany(2, requests, &index, MPI_STATUS_IGNORE);
    CHECK(failures, rank, seen == 3 && index == MPI_UNDEFINED, "Waitany seen %d, last index %d", seen, index);
    MPI_Waitall(2, requests + 2, MPI_STATUSES_IGNORE);
    failures += verify(from_left, words, left, 2, rank) + verify(from_right, words, right, 2, rank);

    /* Phase 3: Test polling; the receive is posted before the neighbour sends. */
    fill(to_right, words, rank, 3);
    MPI_Irecv(from_left, words, MPI_INT, left, 5, MPI_COMM_WORLD, &requests[0]);
    MPI_Send(to_right, words, MPI_INT, right, 5, MPI_COMM_WORLD);
    int flag = 0;
    MPI_Status status;
    while (!flag) MPI_Test(&requests[0], &flag, &status);
    CHECK(failures, rank, requests[0] == MPI_REQUEST_NULL && status.MPI_SOURCE == left, "Test");
    MPI_Test(&requests[0], &flag, &status); /* a null request tests complete */
    CHECK(failures, rank, flag == 1, "Test on a null request");
    MPI_Wait(&requests[0], MPI_STATUS_IGNORE);
    failures += verify(from_left, words, left, 3, rank);

    /* Phase 4: Testall polling over receive and send. */
    fill(to_left, words, rank, 4);
    MPI_Irecv(from_right, words, MPI_INT, right, 6, MPI_COMM_WORLD, &requests[0]);
    MPI_Isend(to_left, words, MPI_INT, left, 6, MPI_COMM_WORLD, &requests[1]);
    flag = 0;
    while (!flag) MPI_Testall(2, requests, &flag, statuses);
    CHECK(failures, rank, statuses[0].MPI_SOURCE == right && statuses[0].MPI_TAG == 6, "Testall status");
    failures += verify(from_right, words, right, 4, rank);

    free(to_left);
    free(to_right);
    free(from_left);
    free(from_right);
    if (rank == 0 && failures == 0) printf("nonblocking ok: %d ranks, %d ints\n", size, words);
    MPI_Finalize();
    return failures != 0;
}
