/* The smoothing steps of the header_helper program: a region whose receive block calls a
 * helper defined in halo.h. */
#include "halo.h"

double smooth(double value, const int neighbor[2], int steps)
{
    double halo[2] = {0, 0};
#pragma bamboo olap
    for (int step = 0; step < steps; step++) {
#pragma bamboo send
        halo_send(&value, neighbor, step);
#pragma bamboo receive
        halo_receive(halo, neighbor, step);
        value = (halo[0] + 2 * value + halo[1]) / 4;
    }
    return value;
}
