/* Comm directives directly in a Bamboo olap region: olap_halo.c's heat equation, with its
 * halo exchange as a comm_parameters region of its own in the loop's body. Under Bamboo tasks
 * the lowering writes it as a send block and a receive block, so that the firing rule
 * announces the two receives (olap_halo.c, where the region stands inside a receive block,
 * cannot have them announced). olap_halo_hand.c is its ground truth too. */
#include <mpi.h>
#include <stdio.h>

#define CELLS 8
#define STEPS 20

int main(int argc, char **argv)
{
    int rank, size;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    int left = (rank - 1 + size) % size, right = (rank + 1) % size;
    double u[CELLS + 2], v[CELLS + 2], ghost_left = 0, ghost_right = 0;
    for (int i = 0; i < CELLS + 2; i++)
        u[i] = rank * CELLS + i;
#pragma bamboo olap
    for (int step = 0; step < STEPS; step++) {
#pragma comm_parameters target(TARGET_COMM_MPI_2SIDE)
        {
#pragma comm_p2p sender(left) receiver(right) sbuf(&u[CELLS]) rbuf(&ghost_left) count(1)
            { }
#pragma comm_p2p sender(right) receiver(left) sbuf(&u[1]) rbuf(&ghost_right) count(1)
            { }
        }
        u[0] = ghost_left;
        u[CELLS + 1] = ghost_right;
        for (int i = 1; i <= CELLS; i++)
            v[i] = u[i] + 0.25 * (u[i - 1] - 2 * u[i] + u[i + 1]);
        for (int i = 1; i <= CELLS; i++)
            u[i] = v[i];
    }
    double sum = 0;
    for (int i = 1; i <= CELLS; i++)
        sum += u[i];
    printf("rank %d sum %.9f first %.9f last %.9f\n", rank, sum, u[1], u[CELLS]);
    MPI_Finalize();
    return 0;
}
