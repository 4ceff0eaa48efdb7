/* Two translated files that include the same header, with a helper that receives (halo.h),
 * and each calls it in a receive block: the program links, and computes what plain MPI
 * does. */
#include <stdio.h>
#include "halo.h"

int main(int argc, char **argv)
{
    int rank, size;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    const int neighbor[2] = {rank > 0 ? rank - 1 : -1, rank + 1 < size ? rank + 1 : -1};
    double value = rank * rank, halo[2] = {0, 0}, total = 0;
#pragma bamboo olap
    for (int step = 0; step < 3; step++) {
#pragma bamboo send
        halo_send(&value, neighbor, step);
#pragma bamboo receive
        halo_receive(halo, neighbor, step);
        total += halo[0] + halo[1];
    }
    value = smooth(value + total, neighbor, 5);
    printf("rank %d: total=%.6f smoothed=%.6f\n", rank, total, value);
    MPI_Finalize();
    return 0;
}
