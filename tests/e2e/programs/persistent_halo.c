/* A 1D heat equation whose halo exchange is made of persistent requests, set up once and
 * started every step inside an olap region (the receives cannot be announced: MPI_Start
 * hides them from the translator, so they wait on their own), then an HPL-style panel
 * broadcast along a ring: synchronous sends (MPI_Issend, MPI_Ssend) forwarded by ranks that
 * poll for the panel with MPI_Iprobe while they compute. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

#define CELLS 64
#define STEPS 30
#define PANEL 200

static double field[CELLS + 2], next[CELLS + 2];

static double heat(int rank, int size, MPI_Request halo[4])
{
    for (int i = 1; i <= CELLS; i++)
        field[i] = (rank * CELLS + i) % 17;
    for (int step = 0; step < STEPS; step++) {
#pragma bamboo olap
        {
#pragma bamboo send
            MPI_Startall(2, &halo[2]);
#pragma bamboo receive
            {
                MPI_Startall(2, halo);
                MPI_Waitall(4, halo, MPI_STATUSES_IGNORE);
            }
            if (rank == 0) field[0] = field[1];
            if (rank == size - 1) field[CELLS + 1] = field[CELLS];
            for (int i = 1; i <= CELLS; i++)
                next[i] = field[i] + 0.25 * (field[i - 1] - 2 * field[i] + field[i + 1]);
            for (int i = 1; i <= CELLS; i++)
                field[i] = next[i];
        }
    }
    double sum = 0;
    for (int i = 1; i <= CELLS; i++)
        sum += field[i] * (i + rank * CELLS);
    return sum;
}

/* Rank `root` sends the panel to its right neighbour, which passes it on, until it has gone
 * round; each rank polls with MPI_Iprobe between slices of its own work. */
static long ring_broadcast(int rank, int size, int root, double *panel)
{
    int right = (rank + 1) % size, left = (rank + size - 1) % size;
    long work = 0;
    if (rank == root) {
        for (int i = 0; i < PANEL; i++)
            panel[i] = root * 1000 + i;
        if (size > 1) {
            MPI_Request request;
            MPI_Issend(panel, PANEL, MPI_DOUBLE, right, 70, MPI_COMM_WORLD, &request);
            MPI_Wait(&request, MPI_STATUS_IGNORE);
        }
        return work;
    }
    int there = 0;
    while (!there) {
        MPI_Iprobe(left, 70, MPI_COMM_WORLD, &there, MPI_STATUS_IGNORE);
        work++;  /* a slice of the rank's own update would go here */
    }
    MPI_Recv(panel, PANEL, MPI_DOUBLE, left, 70, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    if (right != root)
        MPI_Ssend(panel, PANEL, MPI_DOUBLE, right, 70, MPI_COMM_WORLD);
    return work;
}

int main(int argc, char **argv)
{
    int rank, size;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    int left = rank > 0 ? rank - 1 : MPI_PROC_NULL, right = rank < size - 1 ? rank + 1 : MPI_PROC_NULL;

    MPI_Request halo[4];
    MPI_Recv_init(&field[0], 1, MPI_DOUBLE, left, 1, MPI_COMM_WORLD, &halo[0]);
    MPI_Recv_init(&field[CELLS + 1], 1, MPI_DOUBLE, right, 2, MPI_COMM_WORLD, &halo[1]);
    MPI_Send_init(&field[CELLS], 1, MPI_DOUBLE, right, 1, MPI_COMM_WORLD, &halo[2]);
    MPI_Send_init(&field[1], 1, MPI_DOUBLE, left, 2, MPI_COMM_WORLD, &halo[3]);
    double sum = heat(rank, size, halo);
    for (int i = 0; i < 4; i++)
        MPI_Request_free(&halo[i]);
    printf("rank %d: heat weighted sum %.6f\n", rank, sum);

    double *panel = malloc(PANEL * sizeof *panel);
    for (int root = 0; root < size; root += size > 2 ? size / 2 : 1) {
        ring_broadcast(rank, size, root, panel);
        double check = 0;
        for (int i = 0; i < PANEL; i++)
            check += panel[i];
        printf("rank %d: panel of root %d sums to %.1f\n", rank, root, check);
    }
    free(panel);
    MPI_Finalize();
    return 0;
}
