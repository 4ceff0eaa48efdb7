/* A message whose flight is known to be hidden or exposed. Run on 2 processes x VF 2 (ranks 0
 * and 1 on the first process, 2 and 3 on the second) over a slow link: rank 2 sends rank 0
 * BYTES, which crosses the link for a good while.
 *   overlap hidden BYTES   ranks 1 and 3 compute meanwhile, for longer than the flight lasts:
 *                          some task of each process computes all through it;
 *   overlap exposed BYTES  no rank computes: all through the flight every task waits or has
 *                          finished.
 * Every rank prints a line; rank 0 also the message's checksum. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* About `seconds` of computing, whatever the machine: the loop checks the clock. */
static double compute_for(double seconds)
{
    double x = 0, start = MPI_Wtime();
    long i = 1;
    while (MPI_Wtime() - start < seconds)
        for (int k = 0; k < 100000; ++k, ++i) x += 1.0 / ((double)i * i);
    return x;
}

int main(int argc, char **argv)
{
    int rank;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    int hidden = argc > 1 && strcmp(argv[1], "hidden") == 0;
    long bytes = argc > 2 ? atol(argv[2]) : 1 << 20;
    unsigned char *data = malloc(bytes);
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 2) {
        for (long i = 0; i < bytes; ++i) data[i] = (unsigned char)(i * 7);
        MPI_Send(data, (int)bytes, MPI_BYTE, 0, 1, MPI_COMM_WORLD);
    } else if (rank == 0) {
        MPI_Recv(data, (int)bytes, MPI_BYTE, 2, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        unsigned long sum = 0;
        for (long i = 0; i < bytes; ++i) sum += data[i];
        printf("rank 0 received %ld bytes, checksum %lu\n", bytes, sum);
    } else if (hidden) {
        printf("rank %d computed %s\n", rank, compute_for(4.0) > 1.6 ? "enough" : "too little");
    }
    if (rank != 0) printf("rank %d done\n", rank);
    free(data);
    MPI_Finalize();
    return 0;
}
