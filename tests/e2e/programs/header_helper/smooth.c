/* The smoothing steps of the header_helper program: a region whose receive block calls a
 * helper defined in halo.h. */
#include "halo.h"

double smooth(double value, const int neighbor[2], int steps)
{
    double halo[2] = {0, 0};
#pragma bamboo olap
    for (int step = 0; step < steps; step++) {
#pragma bamboo send
        for (int side = 0; side < 2; side++)
            if (neighbor[side] >= 0)
                MPI_Send(&value, 1, MPI_DOUBLE, neighbor[side], HALO_TAG + step, MPI_COMM_WORLD);
#pragma bamboo receive
        halo_receive(halo, neighbor, step);
        value = (halo[0] + 2 * value + halo[1]) / 4;
    }
    return value;
}
