/* Probe/Iprobe + Get_count on messages of sizes the receiver cannot know in advance;
 * MPI_PROC_NULL; MPI_COMM_SELF; a derived (strided) datatype on either side; counts that are
 * not a whole number of elements. */
#include "bamboo.h"
#include "check.h"

static int length_from(int sender) { return (sender % 5 + 1) * 3; }

int bamboo_main(int argc, char **argv) {
    MPI_Init(&argc, &argv);
    int rank, size, failures = 0;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    int left = (rank + size - 1) % size, right = (rank + 1) % size;

    /* Probe: the size of the message from the left is found, not known. */
    int out[16];
    for (int i = 0; i < length_from(rank); ++i) out[i] = rank + i;
    MPI_Send(out, length_from(rank), MPI_INT, right, 9, MPI_COMM_WORLD);
    MPI_Status status;
    MPI_Probe(MPI_ANY_SOURCE, 9, MPI_COMM_WORLD, &status);
    int count = -1;
    MPI_Get_count(&status, MPI_INT, &count);
    CHECK(failures, rank, status.MPI_SOURCE == left && count == length_from(left),
          "Probe: source %d count %d", status.MPI_SOURCE, count);
    int in[16];
    MPI_Recv(in, 16, MPI_INT, status.MPI_SOURCE, 9, MPI_COMM_WORLD, &status);
    MPI_Get_count(&status, MPI_INT, &count);
    CHECK(failures, rank, count == length_from(left), "Recv count %d", count);
    for (int i = 0; i < length_from(left); ++i)
        CHECK(failures, rank, in[i] == left + i, "Probe payload %d: %d", i, in[i]);

    /* Iprobe polling, and a byte count that is no whole number of ints. */
    char bytes[5] = {1, 2, 3, 4, 5};
    MPI_Send(bytes, 5, MPI_BYTE, left, 10, MPI_COMM_WORLD);
    int flag = 0;
    while (!flag) MPI_Iprobe(right, 10, MPI_COMM_WORLD, &flag, &status);
    MPI_Get_count(&status, MPI_INT, &count);
    CHECK(failures, rank, count == MPI_UNDEFINED, "5 bytes as ints: %d", count);
    MPI_Get_count(&status, MPI_BYTE, &count);
    CHECK(failures, rank, count == 5 && status.MPI_SOURCE == right, "Iprobe bytes %d", count);
    char got[8];
    MPI_Recv(got, 8, MPI_BYTE, right, 10, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    CHECK(failures, rank, got[0] == 1 && got[4] == 5, "byte payload");

    /* MPI_PROC_NULL: the send vanishes, the receive completes at once and empty. */
    MPI_Send(out, 3, MPI_INT, MPI_PROC_NULL, 11, MPI_COMM_WORLD);
    MPI_Recv(in, 3, MPI_INT, MPI_PROC_NULL, 11, MPI_COMM_WORLD, &status);
    MPI_Get_count(&status, MPI_INT, &count);
    CHECK(failures, rank, status.MPI_SOURCE == MPI_PROC_NULL && status.MPI_TAG == MPI_ANY_TAG && count == 0,
          "PROC_NULL receive: source %d tag %d count %d", status.MPI_SOURCE, status.MPI_TAG, count);

    /* MPI_COMM_SELF: a task talks to itself as rank 0 of 1. */
    int self_rank = -1, self_size = -1, note = 42 + rank, back = 0;
    MPI_Comm_rank(MPI_COMM_SELF, &self_rank);
    MPI_Comm_size(MPI_COMM_SELF, &self_size);
    CHECK(failures, rank, self_rank == 0 && self_size == 1, "COMM_SELF rank %d size %d", self_rank, self_size);
    MPI_Send(&note, 1, MPI_INT, 0, 12, MPI_COMM_SELF);
    MPI_Recv(&back, 1, MPI_INT, 0, 12, MPI_COMM_SELF, &status);
    CHECK(failures, rank, back == 42 + rank && status.MPI_SOURCE == 0, "COMM_SELF message %d", back);

    /* A column of a 4x3 matrix, sent with a strided datatype, received contiguous; then the
     * reverse. The datatype calls are the real MPI's (not part of the runtime's subset). */
    MPI_Datatype column;
    MPI_Type_vector(4, 1, 3, MPI_INT, &column);
    MPI_Type_commit(&column);
    int matrix[12], col[4];
    for (int i = 0; i < 12; ++i) matrix[i] = rank * 100 + i;
    MPI_Send(&matrix[1], 1, column, right, 13, MPI_COMM_WORLD);
    MPI_Recv(col, 4, MPI_INT, left, 13, MPI_COMM_WORLD, &status);
    MPI_Get_count(&status, MPI_INT, &count);
    CHECK(failures, rank, count == 4, "column count %d", count);
    for (int i = 0; i < 4; ++i)
        CHECK(failures, rank, col[i] == left * 100 + 1 + 3 * i, "column %d: %d", i, col[i]);
    for (int i = 0; i < 4; ++i) col[i] = rank * 10 + i;
    MPI_Send(col, 4, MPI_INT, right, 14, MPI_COMM_WORLD);
    for (int i = 0; i < 12; ++i) matrix[i] = -1;
    MPI_Recv(&matrix[2], 1, column, left, 14, MPI_COMM_WORLD, &status);
    for (int i = 0; i < 12; ++i) {
        int expected = (i % 3 == 2) ? left * 10 + i / 3 : -1;
        CHECK(failures, rank, matrix[i] == expected, "matrix[%d] = %d, expected %d", i, matrix[i], expected);
    }
    MPI_Type_free(&column);

    if (rank == 0 && failures == 0) printf("probe ok: %d ranks\n", size);
    MPI_Finalize();
    return failures != 0;
}
