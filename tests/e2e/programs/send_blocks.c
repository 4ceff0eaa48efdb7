/* Send blocks whose messages to one process the runtime may join into one MPI message: each
 * rank sends to the next three ranks, in one send block, a run of messages on one tag whose
 * sizes put every case in one run: empty and tiny ones, several that fit a control message
 * together, ones too large to join with the one before (30,000 B), and one large enough to
 * travel apart from its header (40,000 B), which sends what was held before it. The receive
 * block takes them in MPI's order per sender, half with MPI_ANY_TAG, and checks each.
 *   send_blocks [ROUNDS] */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

static const int sizes[] = {0, 8, 30000, 40000, 16, 30000, 30000, 1, 24};
enum { NSIZES = sizeof sizes / sizeof sizes[0], PEERS = 3, LARGEST = 40000 };

static unsigned char content(int from, int round, int peer, int m, int i)
{
    return (unsigned char)(from * 31 + round * 7 + peer * 5 + m * 3 + i);
}

int main(int argc, char **argv)
{
    int rank, size;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    const int me = rank, ranks = size; /* never written through a pointer: the firing rule reads them */
    const int rounds = argc > 1 ? atoi(argv[1]) : 4;
    unsigned char *out = malloc((size_t)PEERS * NSIZES * LARGEST);
    unsigned char *in = malloc(LARGEST);
    MPI_Request sends[PEERS * NSIZES];
    long wrong = 0, bytes_in = 0;
    for (int round = 0; round < rounds; round++) {
#pragma bamboo olap
        {
#pragma bamboo send
            {
                for (int p = 1; p <= PEERS; p++) {
                    for (int m = 0; m < NSIZES; m++) {
                        unsigned char *data = out + ((size_t)(p - 1) * NSIZES + m) * LARGEST;
                        for (int i = 0; i < sizes[m]; i++)
                            data[i] = content(rank, round, p, m, i);
                        MPI_Isend(data, sizes[m], MPI_BYTE, (rank + p) % size, 7, MPI_COMM_WORLD,
                                  &sends[(p - 1) * NSIZES + m]);
                    }
                }
            }
#pragma bamboo receive
            {
                for (int p = 1; p <= PEERS; p++) {
                    const int from = (me - p + ranks * PEERS) % ranks;
                    for (int m = 0; m < NSIZES; m++) {
                        MPI_Status status;
                        int bytes;
                        MPI_Recv(in, LARGEST, MPI_BYTE, from, m % 2 ? MPI_ANY_TAG : 7, MPI_COMM_WORLD, &status);
                        MPI_Get_count(&status, MPI_BYTE, &bytes);
                        int ok = bytes == sizes[m] && status.MPI_TAG == 7 && status.MPI_SOURCE == from;
                        for (int i = 0; ok && i < bytes; i++)
                            ok = in[i] == content(from, round, p, m, i);
                        if (!ok && wrong++ < 3)
                            printf("rank %d: message %d of round %d from rank %d out of order or damaged "
                                   "(%d bytes)\n", rank, m, round, from, bytes);
                        bytes_in += bytes;
                    }
                }
            }
            MPI_Waitall(PEERS * NSIZES, sends, MPI_STATUSES_IGNORE);
        }
    }
    printf("rank %d received %ld bytes in %d rounds; %ld messages out of order or damaged\n", rank, bytes_in,
           rounds, wrong);
    free(out);
    free(in);
    MPI_Finalize();
    return 0;
}
