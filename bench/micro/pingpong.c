/* Ping-pong between ranks 0 and 1: one-way time and bandwidth for a message size.
 * Built twice from this one source: against bamboo.h (-DWITH_BAMBOO, entry bamboo_main) and
 * against plain MPI (entry main), so the runtime and raw MPI run the same code.
 *   pingpong BYTES ITERATIONS      prints "RESULT oneway_us X" and "RESULT bandwidth_GBps Y" */
#ifdef WITH_BAMBOO
#include "bamboo.h"
#define ENTRY bamboo_main
#else
#include <mpi.h>
#define ENTRY main
#endif
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int ENTRY(int argc, char **argv) {
    MPI_Init(&argc, &argv);
    int rank;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    long bytes = argc > 1 ? atol(argv[1]) : 8;
    int iterations = argc > 2 ? atoi(argv[2]) : 10000;
    int warmup = iterations / 10 + 1;
    char *buffer = malloc(bytes > 0 ? bytes : 1);
    memset(buffer, rank, bytes);
    double start = 0;
    for (int i = 0; i < warmup + iterations; ++i) {
        if (i == warmup) start = MPI_Wtime();
        if (rank == 0) {
            MPI_Send(buffer, (int)bytes, MPI_BYTE, 1, 0, MPI_COMM_WORLD);
            MPI_Recv(buffer, (int)bytes, MPI_BYTE, 1, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        } else if (rank == 1) {
            MPI_Recv(buffer, (int)bytes, MPI_BYTE, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            MPI_Send(buffer, (int)bytes, MPI_BYTE, 0, 0, MPI_COMM_WORLD);
        }
    }
    double oneway = (MPI_Wtime() - start) / iterations / 2;
    if (rank == 0) {
        printf("RESULT oneway_us %.5f\n", oneway * 1e6);
        printf("RESULT bandwidth_GBps %.4f\n", bytes / oneway / 1e9);
    }
    free(buffer);
    MPI_Finalize();
    return 0;
}
