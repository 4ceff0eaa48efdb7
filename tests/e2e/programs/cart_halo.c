/* A halo exchange on a non-periodic 2D Cartesian grid of all ranks: `cart_halo REORDER
 * STEPS`. Each rank prints what it received, by its grid rank and coordinates, so the output
 * is the same however MPI_Cart_create numbers the grid. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int reorder = argc > 1 ? atoi(argv[1]) : 0, steps = argc > 2 ? atoi(argv[2]) : 1;
    int size, dims[2] = {0, 0}, periods[2] = {0, 0};
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Dims_create(size, 2, dims);
    MPI_Comm grid;
    MPI_Cart_create(MPI_COMM_WORLD, 2, dims, periods, reorder, &grid);
    int rank, coords[2];
    MPI_Comm_rank(grid, &rank);
    MPI_Cart_coords(grid, rank, 2, coords);
    long value = rank, sum = 0;
    for (int step = 0; step < steps; step++) {
        for (int dim = 0; dim < 2; dim++) {
            int down, up;
            long from_down = 0, from_up = 0;
            MPI_Cart_shift(grid, dim, 1, &down, &up);
            MPI_Sendrecv(&value, 1, MPI_LONG, up, 0, &from_down, 1, MPI_LONG, down, 0, grid, MPI_STATUS_IGNORE);
            MPI_Sendrecv(&value, 1, MPI_LONG, down, 1, &from_up, 1, MPI_LONG, up, 1, grid, MPI_STATUS_IGNORE);
            sum += from_down * 3 + from_up * 7 + step;
        }
        value = sum % 1000003;
    }
    printf("grid rank %d at (%d,%d): %ld\n", rank, coords[0], coords[1], sum);
    MPI_Comm_free(&grid);
    MPI_Finalize();
    return 0;
}
