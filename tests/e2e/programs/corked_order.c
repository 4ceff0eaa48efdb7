/* Messages keep MPI's order when send blocks are corked: in single-thread mode a block's
 * messages may stay corked while the next tasks run and leave joined with theirs
 * (runtime/src/transport/cork.hpp), and a message that cannot join them (here one of
 * 32 KiB, which travels apart from its header) must send them first.
 *
 * The job's ranks form two halves (the two processes, on two). Every round each rank sends
 * its neighbour in its own half a tiny message and takes its other neighbour's, so that the
 * lower half runs its rounds on messages from its own process alone. A rank of the lower
 * half also sends the rank facing it in the upper half a 32 KiB message (every other int of
 * an array: packed, so that the send completes at once and the task goes on), then, in its
 * send block, tiny ones; the upper rank takes them with MPI_ANY_TAG and checks their order:
 * a large message that overtook the tiny ones of the round before would show.
 *   corked_order [ROUNDS] */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

enum { TINY = 3, LARGE_TAG = TINY, LARGE_INTS = 8 << 10 };

static int large_out[2 * LARGE_INTS], large_in[LARGE_INTS];

static int content(int from, int round, int m) { return from * 100000 + round * 10 + m; }

int main(int argc, char **argv)
{
    int rank, size;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    const int me = rank, ranks = size; /* never written through a pointer: the firing rule reads them */
    const int rounds = argc > 1 ? atoi(argv[1]) : 20;
    if (size % 2) {
        if (rank == 0)
            printf("corked_order needs an even number of ranks\n");
        MPI_Finalize();
        return 0;
    }
    const int half = size / 2, lower = rank < half, base = lower ? 0 : half;
    const int next = base + (rank - base + 1) % half, facing = (rank + half) % size;
    MPI_Datatype every_other;
    MPI_Type_vector(LARGE_INTS, 1, 2, MPI_INT, &every_other);
    MPI_Type_commit(&every_other);
    long wrong = 0;
    for (int round = 0; round < rounds; round++) {
        int local_out = content(rank, round, 0), local_in, tiny[TINY];
        MPI_Request sends[TINY + 2];
        int sent = 0;
        if (lower) {
            large_out[0] = content(rank, round, LARGE_TAG);
            MPI_Isend(large_out, 1, every_other, facing, LARGE_TAG, MPI_COMM_WORLD, &sends[sent++]);
        }
#pragma bamboo olap
        {
#pragma bamboo send
            {
                MPI_Isend(&local_out, 1, MPI_INT, next, 9, MPI_COMM_WORLD, &sends[sent++]);
                for (int m = 0; lower && m < TINY; m++) {
                    tiny[m] = content(rank, round, m);
                    MPI_Isend(&tiny[m], 1, MPI_INT, facing, m, MPI_COMM_WORLD, &sends[sent++]);
                }
            }
#pragma bamboo receive
            {
                const int h = ranks / 2, b = me < h ? 0 : h, previous = b + (me - b + h - 1) % h;
                MPI_Recv(&local_in, 1, MPI_INT, previous, 9, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
                if (local_in != content(previous, round, 0) && wrong++ < 3)
                    printf("rank %d: round %d's message from rank %d is wrong\n", rank, round, previous);
                for (int m = 0; me >= h && m <= TINY; m++) {
                    const int from = me - h, expected = m == 0 ? LARGE_TAG : m - 1;
                    MPI_Status status;
                    MPI_Recv(large_in, LARGE_INTS, MPI_INT, from, MPI_ANY_TAG, MPI_COMM_WORLD, &status);
                    if ((status.MPI_TAG != expected || large_in[0] != content(from, round, expected)) && wrong++ < 3)
                        printf("rank %d: message %d of round %d from rank %d out of order\n", rank, m, round, from);
                }
            }
        }
        MPI_Waitall(sent, sends, MPI_STATUSES_IGNORE);
    }
    printf("rank %d: %d rounds, %ld messages out of order\n", rank, rounds, wrong);
    MPI_Type_free(&every_other);
    MPI_Finalize();
    return 0;
}
