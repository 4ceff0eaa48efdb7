/* Olap regions in the shapes the papers describe: a receive block before a send block
 * (the send block is moved up), guards and loops around receives, Irecv completed by
 * a Waitall in the region, receives in a helper function, a send that forwards
 * received data from inside a receive block, and a region on a plain statement. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

#define STEPS 6

static void receive_from(double *into, int from, int tag)
{
    if (from >= 0)
        MPI_Recv(into, 1, MPI_DOUBLE, from, tag, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
}

int main(int argc, char **argv)
{
    int rank, size;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    int neighbor[2] = {rank > 0 ? rank - 1 : -1, rank + 1 < size ? rank + 1 : -1};
    double value = rank + 1.0, halo[2] = {0, 0}, forwarded = 0.0;

    /* Table 1 of the papers: receive, then send, then compute. */
    MPI_Request halo_req[2];
#pragma bamboo olap
    for (int step = 0; step < STEPS; step++) {
        int posted = 0;
#pragma bamboo receive
        {
            for (int d = 0; d < 2; d++)
                if (neighbor[d] >= 0)
                    MPI_Irecv(&halo[d], 1, MPI_DOUBLE, neighbor[d], d, MPI_COMM_WORLD, &halo_req[posted++]);
        }
#pragma bamboo send
        {
            if (neighbor[0] >= 0)
                MPI_Send(&value, 1, MPI_DOUBLE, neighbor[0], 1, MPI_COMM_WORLD);
            if (neighbor[1] >= 0)
                MPI_Send(&value, 1, MPI_DOUBLE, neighbor[1], 0, MPI_COMM_WORLD);
        }
        MPI_Waitall(posted, halo_req, MPI_STATUSES_IGNORE);
        value = 0.5 * value + 0.25 * (halo[0] + halo[1]);
    }
    printf("rank %d: after %d steps value=%.12f\n", rank, STEPS, value);

    /* Irecv + Waitall inside the region, receives in a helper, forwarding received data. */
    MPI_Request req[2];
#pragma bamboo olap
    for (int step = 0; step < STEPS; step++) {
        int n = 0;
        double left_in = 0.0, right_in = 0.0;
#pragma bamboo send
        {
            if (neighbor[1] >= 0)
                MPI_Isend(&value, 1, MPI_DOUBLE, neighbor[1], 10, MPI_COMM_WORLD, &req[n++]);
        }
#pragma bamboo receive
        {
            MPI_Request in;
            if (neighbor[0] >= 0) {
                MPI_Irecv(&left_in, 1, MPI_DOUBLE, neighbor[0], 10, MPI_COMM_WORLD, &in);
                MPI_Wait(&in, MPI_STATUS_IGNORE);
            }
            receive_from(&right_in, neighbor[1], 11);
            if (neighbor[0] >= 0) /* forwards what it just received: stays in the receive block */
                MPI_Send(&left_in, 1, MPI_DOUBLE, neighbor[0], 11, MPI_COMM_WORLD);
        }
        MPI_Waitall(n, req, MPI_STATUSES_IGNORE);
        forwarded += right_in;
        value = 0.5 * (value + left_in);
    }
    printf("rank %d: value=%.12f forwarded=%.12f\n", rank, value, forwarded);

    /* A region on a plain statement: one evaluation point. */
    double sum = 0.0;
#pragma bamboo olap
    {
#pragma bamboo send
        {
            if (rank != 0)
                MPI_Send(&value, 1, MPI_DOUBLE, 0, 20, MPI_COMM_WORLD);
        }
#pragma bamboo receive
        {
            if (rank == 0)
                for (int r = 1; r < size; r++) {
                    double x;
                    MPI_Recv(&x, 1, MPI_DOUBLE, r, 20, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
                    sum += x * r;
                }
        }
    }
    if (rank == 0)
        printf("weighted sum %.12f\n", sum + value);
    MPI_Finalize();
    return 0;
}
