/* Messages of mixed sizes from every rank to the last one, which receives them in MPI's order
 * per sender, some with wildcards. Sizes cycle through 8 B, 3 KiB, 20 KiB and 40 KiB: between
 * processes a larger message may finish arriving after a smaller one sent behind it (the comm
 * engine must put them back in order), and the largest travel apart from their headers. The
 * sink takes one message from each sender in turn, every third with MPI_ANY_TAG.
 *   mixed_sizes [ROUNDS] */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

static const int sizes[] = {8, 3 << 10, 20 << 10, 40 << 10};
enum { NSIZES = sizeof sizes / sizeof sizes[0] };

int main(int argc, char **argv)
{
    int rank, size;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    const int rounds = argc > 1 ? atoi(argv[1]) : 50;
    const int sink = size - 1;
    unsigned char *buffer = malloc(sizes[NSIZES - 1]);
    if (rank != sink) {
        for (int m = 0; m < rounds * NSIZES; m++) {
            const int bytes = sizes[m % NSIZES];
            for (int i = 0; i < bytes; i++)
                buffer[i] = (unsigned char)(rank * 31 + m + i);
            MPI_Send(buffer, bytes, MPI_BYTE, sink, m % 2, MPI_COMM_WORLD);
        }
    } else {
        int *next = calloc(size, sizeof *next);
        long wrong = 0;
        for (int k = 0; k < (size - 1) * rounds * NSIZES; k++) {
            const int any = k % 3 == 2, from = k % (size - 1);
            MPI_Status status;
            MPI_Recv(buffer, sizes[NSIZES - 1], MPI_BYTE, from, any ? MPI_ANY_TAG : next[from] % 2, MPI_COMM_WORLD,
                     &status);
            const int source = status.MPI_SOURCE, m = next[source]++;
            int bytes;
            MPI_Get_count(&status, MPI_BYTE, &bytes);
            int ok = bytes == sizes[m % NSIZES] && status.MPI_TAG == m % 2;
            for (int i = 0; ok && i < bytes; i++)
                ok = buffer[i] == (unsigned char)(source * 31 + m + i);
            if (!ok && wrong++ < 3)
                printf("message %d from rank %d arrived out of order or damaged (%d bytes, tag %d)\n", m, source,
                       bytes, status.MPI_TAG);
        }
        printf("rank %d received %d messages from each of %d ranks; %ld out of order or damaged\n", rank,
               rounds * NSIZES, size - 1, wrong);
        free(next);
    }
    free(buffer);
    MPI_Finalize();
    return 0;
}
