/* Point-to-point traffic larger than a small --bamboo-buffer-limit, so that messages are
   lent (within a process) or announced (between processes) rather than buffered: blocking
   and nonblocking sends, contiguous and strided data, a Sendrecv ring, wildcards, probes of
   messages whose data is still with the sender, and a flood that one rank receives only
   after another pair of ranks has talked. Prints checksums, one line per rank and test. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

#define BIG (300 * 1024)  /* ints: 1.2 MB */

static unsigned long checksum(const int *v, int n) {
    unsigned long sum = 0;
    for (int i = 0; i < n; i++) sum = sum * 31 + (unsigned)v[i];
    return sum;
}

static void fill(int *v, int n, int seed) {
    for (int i = 0; i < n; i++) v[i] = seed * 1000003 + i;
}

int main(int argc, char **argv) {
    int rank, size;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    int right = (rank + 1) % size, left = (rank + size - 1) % size;
    int *out = malloc(2 * BIG * sizeof(int)), *in = malloc(2 * BIG * sizeof(int));

    /* 1. A ring of Isends of every size, received after a barrier (so all are unexpected). */
    int sizes[] = {0, 1, 256, 8 * 1024, BIG};
    MPI_Request sends[5];
    int *outs[5];
    for (int k = 0; k < 5; k++) {
        outs[k] = malloc((sizes[k] + 1) * sizeof(int));
        fill(outs[k], sizes[k], rank * 10 + k);
        MPI_Isend(outs[k], sizes[k], MPI_INT, right, k, MPI_COMM_WORLD, &sends[k]);
    }
    MPI_Barrier(MPI_COMM_WORLD);
    for (int k = 4; k >= 0; k--) {  /* in reverse: tags pick them out of order */
        MPI_Status status;
        int count;
        MPI_Probe(left, k, MPI_COMM_WORLD, &status);
        MPI_Get_count(&status, MPI_INT, &count);
        MPI_Recv(in, count, MPI_INT, left, k, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        printf("rank %d ring size %d: count %d checksum %lu\n", rank, sizes[k], count, checksum(in, count));
    }
    MPI_Waitall(5, sends, MPI_STATUSES_IGNORE);
    for (int k = 0; k < 5; k++) free(outs[k]);

    /* 2. Strided data both ways: every other int of 2*BIG, as a vector datatype. */
    MPI_Datatype strided;
    MPI_Type_vector(BIG, 1, 2, MPI_INT, &strided);
    MPI_Type_commit(&strided);
    fill(out, 2 * BIG, rank + 7);
    for (int i = 0; i < 2 * BIG; i++) in[i] = -1;
    MPI_Sendrecv(out, 1, strided, right, 99, in, 1, strided, left, 99, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    printf("rank %d strided: checksum %lu\n", rank, checksum(in, 2 * BIG));
    MPI_Type_free(&strided);

    /* 3. Everyone floods rank 0 with 12 big messages; rank 0 takes them with wildcards only
       after rank size-1 has heard from rank 1 (another pair, maybe the same processes). */
    if (size > 2) {
        int go = 0;
        if (rank == 1) {
            go = 5;
            MPI_Send(&go, 1, MPI_INT, size - 1, 7, MPI_COMM_WORLD);
        } else if (rank == size - 1) {
            MPI_Recv(&go, 1, MPI_INT, 1, 7, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            MPI_Send(&go, 1, MPI_INT, 0, 8, MPI_COMM_WORLD);
        }
        if (rank != 0) {
            for (int m = 0; m < 12; m++) {
                fill(out, BIG, rank * 100 + m);
                MPI_Send(out, BIG, MPI_INT, 0, 9, MPI_COMM_WORLD);
            }
        } else {
            MPI_Recv(&go, 1, MPI_INT, size - 1, 8, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            long total = 0;
            int *next = calloc(size, sizeof(int)), wrong = 0;
            for (int m = 0; m < 12 * (size - 1); m++) {
                MPI_Status status;
                MPI_Recv(in, BIG, MPI_INT, MPI_ANY_SOURCE, 9, MPI_COMM_WORLD, &status);
                fill(out, BIG, status.MPI_SOURCE * 100 + next[status.MPI_SOURCE]++);
                wrong += checksum(in, BIG) != checksum(out, BIG);
                total += 1;
            }
            printf("rank 0 flood: go %d, %ld messages, %d wrong\n", go, total, wrong);
            free(next);
        }
    }
    free(out);
    free(in);
    MPI_Finalize();
    return 0;
}
