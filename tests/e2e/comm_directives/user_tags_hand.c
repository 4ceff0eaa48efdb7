/* user_tags.c in hand-written MPI: the region's transfers on a duplicate of MPI_COMM_WORLD. */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv)
{
    int rank, size;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    int prev = (rank - 1 + size) % size, next = (rank + 1) % size;
    MPI_Comm region;
    MPI_Comm_dup(MPI_COMM_WORLD, &region);

    double mine_in[4], mine_out[4], region_in[4], region_out[4], back_in[4], back_out[4];
    for (int i = 0; i < 4; i++) {
        mine_out[i] = 100 + 10 * rank + i;
        region_out[i] = -10 * rank - i;
        back_out[i] = 0.5 * rank + i;
    }
    MPI_Request mine, transfers[2];
    MPI_Status status;
    MPI_Irecv(mine_in, 4, MPI_DOUBLE, prev, MPI_ANY_TAG, MPI_COMM_WORLD, &mine);
    MPI_Irecv(region_in, 4, MPI_DOUBLE, prev, 0, region, &transfers[0]);
    MPI_Isend(region_out, 4, MPI_DOUBLE, next, 0, region, &transfers[1]);
    MPI_Send(mine_out, 4, MPI_DOUBLE, next, 5, MPI_COMM_WORLD);
    MPI_Wait(&mine, &status);
    MPI_Waitall(2, transfers, MPI_STATUSES_IGNORE);
    MPI_Sendrecv(back_out, 4, MPI_DOUBLE, prev, 0, back_in, 4, MPI_DOUBLE, next, 0, region,
                 MPI_STATUS_IGNORE);
    printf("rank %d mine %g %g tag %d region %g %g back %g %g\n", rank, mine_in[0], mine_in[3],
           status.MPI_TAG, region_in[0], region_in[3], back_in[0], back_in[3]);
    MPI_Comm_free(&region);
    MPI_Finalize();
    return 0;
}
