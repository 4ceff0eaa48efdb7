/* Non-blocking point-to-point on a periodic 1D ring: Isend/Irecv with Waitall,
 * Waitany, Test and Testall polling loops, Iprobe, Sendrecv and MPI_PROC_NULL.
 * main(void) and MPI_Init(NULL, NULL) on purpose. */
#include <mpi.h>
#include <stdio.h>

int main(void)
{
    int rank, size, flag;
    MPI_Initialized(&flag);
    if (flag)
        return 2;
    MPI_Init(NULL, NULL);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    const int left = (rank + size - 1) % size, right = (rank + 1) % size;

    /* Waitall over two receives and two sends. */
    double out[2] = {rank + 0.5, rank * 2.0}, in[2] = {0, 0};
    MPI_Request req[4];
    MPI_Irecv(&in[0], 1, MPI_DOUBLE, left, 1, MPI_COMM_WORLD, &req[0]);
    MPI_Irecv(&in[1], 1, MPI_DOUBLE, right, 2, MPI_COMM_WORLD, &req[1]);
    MPI_Isend(&out[0], 1, MPI_DOUBLE, right, 1, MPI_COMM_WORLD, &req[2]);
    MPI_Isend(&out[1], 1, MPI_DOUBLE, left, 2, MPI_COMM_WORLD, &req[3]);
    MPI_Waitall(4, req, MPI_STATUSES_IGNORE);
    printf("rank %d: waitall got %.1f from left, %.1f from right, request null: %d\n", rank, in[0], in[1],
           req[0] == MPI_REQUEST_NULL && req[3] == MPI_REQUEST_NULL);

    /* Waitany: which one completes first may vary, what arrives may not. */
    int a = -1, b = -1, seen = 0;
    MPI_Irecv(&a, 1, MPI_INT, left, 3, MPI_COMM_WORLD, &req[0]);
    MPI_Irecv(&b, 1, MPI_INT, right, 4, MPI_COMM_WORLD, &req[1]);
    MPI_Send(&rank, 1, MPI_INT, right, 3, MPI_COMM_WORLD);
    MPI_Send(&rank, 1, MPI_INT, left, 4, MPI_COMM_WORLD);
    for (int k = 0; k < 2; k++) {
        int index;
        MPI_Status status;
        MPI_Waitany(2, req, &index, &status);
        seen |= 1 << index;
        if (status.MPI_TAG != 3 + index)
            printf("rank %d: waitany status tag %d for index %d\n", rank, status.MPI_TAG, index);
    }
    printf("rank %d: waitany saw %d, got %d and %d\n", rank, seen, a, b);

    /* Polling with Test and Testall must let the peers run. */
    long v = -1;
    MPI_Irecv(&v, 1, MPI_LONG, left, 5, MPI_COMM_WORLD, &req[0]);
    long mine = 1000L * rank;
    MPI_Isend(&mine, 1, MPI_LONG, right, 5, MPI_COMM_WORLD, &req[1]);
    int done = 0;
    while (!done)
        MPI_Test(&req[0], &done, MPI_STATUS_IGNORE);
    done = 0;
    while (!done)
        MPI_Testall(1, &req[1], &done, MPI_STATUSES_IGNORE);
    printf("rank %d: test got %ld\n", rank, v);

    /* Iprobe until the message is there, then receive it. */
    if (rank == 0) {
        for (int from = 1; from < size; from++) {
            int there = 0;
            MPI_Status status;
            while (!there)
                MPI_Iprobe(from, 6, MPI_COMM_WORLD, &there, &status);
            int count, value;
            MPI_Get_count(&status, MPI_INT, &count);
            MPI_Recv(&value, 1, MPI_INT, from, 6, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            printf("iprobe: from %d count %d value %d\n", status.MPI_SOURCE, count, value);
        }
    } else {
        int value = rank * rank;
        MPI_Send(&value, 1, MPI_INT, 0, 6, MPI_COMM_WORLD);
    }

    /* Sendrecv shifting along an open chain: the ends talk to MPI_PROC_NULL. */
    int up = rank + 1 < size ? rank + 1 : MPI_PROC_NULL, down = rank > 0 ? rank - 1 : MPI_PROC_NULL;
    int got = -7;
    MPI_Status status;
    MPI_Sendrecv(&rank, 1, MPI_INT, up, 7, &got, 1, MPI_INT, down, 7, MPI_COMM_WORLD, &status);
    int count;
    MPI_Get_count(&status, MPI_INT, &count);
    printf("rank %d: sendrecv got %d (source is null: %d, count %d)\n", rank, got,
           status.MPI_SOURCE == MPI_PROC_NULL, count);

    double t0 = MPI_Wtime(), t1 = MPI_Wtime();
    MPI_Finalize();
    return t1 >= t0 ? 0 : 1;
}
