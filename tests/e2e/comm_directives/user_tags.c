/* A program's own MPI_ANY_TAG receive beside comm directives (docs/comm-directives.md), against
 * user_tags_hand.c: the receive is posted before a region whose transfer completes later
 * (place_sync(BEGIN_NEXT_PARAM_REGION)), and the program's own message to it is sent after
 * the region's. The region's message comes first from the same sender, but travels on the
 * directives' own communicator, so the program's receive gets the program's message (tag 5)
 * and the region's receive the region's. */
#include <mpi.h>
#include <stdio.h>

#ifndef TARGET
#define TARGET TARGET_COMM_MPI_2SIDE
#endif

static double region_in[4], back_in[4];

int main(int argc, char **argv)
{
    int rank, size;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    int prev = (rank - 1 + size) % size, next = (rank + 1) % size;

    double mine_in[4], mine_out[4], region_out[4], back_out[4];
    for (int i = 0; i < 4; i++) {
        mine_out[i] = 100 + 10 * rank + i;
        region_out[i] = -10 * rank - i;
        back_out[i] = 0.5 * rank + i;
    }
    MPI_Request mine;
    MPI_Status status;
    MPI_Irecv(mine_in, 4, MPI_DOUBLE, prev, MPI_ANY_TAG, MPI_COMM_WORLD, &mine);
#pragma comm_parameters sender(prev) receiver(next) place_sync(BEGIN_NEXT_PARAM_REGION) target(TARGET)
    {
#pragma comm_p2p sbuf(region_out) rbuf(region_in)
        { }
    }
    MPI_Send(mine_out, 4, MPI_DOUBLE, next, 5, MPI_COMM_WORLD);
    MPI_Wait(&mine, &status);
#pragma comm_parameters sender(next) receiver(prev) target(TARGET)
    {
#pragma comm_p2p sbuf(back_out) rbuf(back_in)
        { }
    }
    printf("rank %d mine %g %g tag %d region %g %g back %g %g\n", rank, mine_in[0], mine_in[3],
           status.MPI_TAG, region_in[0], region_in[3], back_in[0], back_in[3]);
    MPI_Finalize();
    return 0;
}
