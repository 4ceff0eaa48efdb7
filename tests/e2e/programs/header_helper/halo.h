/* A helper that receives, defined in a header that both files of the program include: each
 * translated file gets its own firing-rule companion of it. */
#ifndef HALO_H
#define HALO_H
#include <mpi.h>

enum { HALO_TAG = 11 };

/* My neighbours' values, where I have neighbours (-1: none). */
static void halo_receive(double halo[2], const int neighbor[2], int step)
{
    for (int side = 0; side < 2; side++)
        if (neighbor[side] >= 0)
            MPI_Recv(&halo[side], 1, MPI_DOUBLE, neighbor[side], HALO_TAG + step, MPI_COMM_WORLD,
                     MPI_STATUS_IGNORE);
}

/* My value to the neighbours I have. */
static void halo_send(const double *value, const int neighbor[2], int step)
{
    for (int side = 0; side < 2; side++)
        if (neighbor[side] >= 0)
            MPI_Send(value, 1, MPI_DOUBLE, neighbor[side], HALO_TAG + step, MPI_COMM_WORLD);
}

/* Steps of smoothing in smooth.c, each exchanging with both neighbours. */
double smooth(double value, const int neighbor[2], int steps);
#endif
