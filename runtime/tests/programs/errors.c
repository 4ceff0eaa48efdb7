/* Programs that are wrong in one way each (--case NAME); the runtime must stop them with one
 * clear line and a non-zero exit, never hang. */
#include "bamboo.h"
#include "check.h"

/* Recursion deep enough for any stack; the volatile array keeps every frame alive. */
static int descend(int depth) {
    volatile char frame[4096];
    frame[0] = (char)depth;
    return depth > 1000000000 ? frame[0] : descend(depth + 1) + frame[0];
}

int bamboo_main(int argc, char **argv) {
    const char *which = "";
    for (int i = 1; i + 1 < argc; ++i)
        if (strcmp(argv[i], "--case") == 0) which = argv[i + 1];
    int rank = 0, size = 0, data[10] = {0};
    if (strcmp(which, "before-init") == 0) {
        MPI_Send(data, 1, MPI_INT, 0, 0, MPI_COMM_WORLD);
        return 0;
    }
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (strcmp(which, "bad-rank") == 0 && rank == 0) {
        MPI_Send(data, 1, MPI_INT, size, 0, MPI_COMM_WORLD);
    } else if (strcmp(which, "truncate") == 0) {
        if (rank == 0) MPI_Send(data, 10, MPI_INT, 1, 0, MPI_COMM_WORLD);
        if (rank == 1) MPI_Recv(data, 5, MPI_INT, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    } else if (strcmp(which, "truncate-wait") == 0) {
        MPI_Request request;
        if (rank == 0) MPI_Send(data, 10, MPI_INT, 1, 1, MPI_COMM_WORLD);
        if (rank == 1) {
            MPI_Irecv(data, 5, MPI_INT, 0, 1, MPI_COMM_WORLD, &request);
            MPI_Wait(&request, MPI_STATUS_IGNORE);
        }
    } else if (strcmp(which, "communicator") == 0) {
        MPI_Comm mine, stale;
        MPI_Comm_dup(MPI_COMM_SELF, &mine);
        stale = mine;
        MPI_Comm_free(&mine);
        MPI_Send(data, 1, MPI_INT, 0, 0, stale);
    } else if (strcmp(which, "bad-root") == 0) {
        MPI_Bcast(data, 1, MPI_INT, size, MPI_COMM_WORLD);
    } else if (strcmp(which, "bad-op") == 0) {
        MPI_Allreduce(data, data + 1, 1, MPI_INT, MPI_OP_NULL, MPI_COMM_WORLD);
    } else if (strcmp(which, "count-mismatch") == 0) {
        MPI_Bcast(data, rank == 0 ? 1 : 2, MPI_INT, 0, MPI_COMM_WORLD);
    } else if (strcmp(which, "stack-overflow") == 0 && rank == 1) {
        printf("%d\n", descend(0));
    }
    MPI_Finalize();
    return 0;
}
