/* Faces of a 2D block exchanged with the four neighbours of a periodic process grid, as a
 * stencil code does: rows as they lie in memory, columns as an MPI vector datatype on both
 * sides, sent with MPI_Isend in a send block and received in a receive block of an olap
 * region. `face_exchange N STEPS [DELAY_MS]`: each rank prints a checksum of its N x N block.
 * With DELAY_MS, the ranks of the second half sleep that long before they first send. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#define AT(a, j, i) ((a)[(j) * (n + 2) + (i)])

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int n = argc > 1 ? atoi(argv[1]) : 16, steps = argc > 2 ? atoi(argv[2]) : 5;
    int delay_ms = argc > 3 ? atoi(argv[3]) : 0;
    int size, rank, dims[2] = {0, 0}, periods[2] = {1, 1};
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Dims_create(size, 2, dims);
    MPI_Comm grid;
    MPI_Cart_create(MPI_COMM_WORLD, 2, dims, periods, 0, &grid);
    MPI_Comm_rank(grid, &rank);
    int up, down, left, right;
    MPI_Cart_shift(grid, 0, 1, &up, &down);
    MPI_Cart_shift(grid, 1, 1, &left, &right);
    MPI_Datatype column;
    MPI_Type_vector(n, 1, n + 2, MPI_DOUBLE, &column);
    MPI_Type_commit(&column);

    double *u = malloc((size_t)(n + 2) * (n + 2) * sizeof *u), *v = malloc((size_t)(n + 2) * (n + 2) * sizeof *v);
    for (int j = 0; j < n + 2; j++)
        for (int i = 0; i < n + 2; i++)
            AT(u, j, i) = rank * 1000 + j * 31 + i;
    MPI_Request sends[4];
#pragma bamboo olap
    for (int step = 0; step < steps; step++) {
        if (step == 0 && rank >= size / 2) usleep(1000 * delay_ms);
#pragma bamboo send
        {
            MPI_Isend(&AT(u, 1, 1), n, MPI_DOUBLE, up, 0, grid, &sends[0]);
            MPI_Isend(&AT(u, n, 1), n, MPI_DOUBLE, down, 1, grid, &sends[1]);
            MPI_Isend(&AT(u, 1, 1), 1, column, left, 2, grid, &sends[2]);
            MPI_Isend(&AT(u, 1, n), 1, column, right, 3, grid, &sends[3]);
        }
#pragma bamboo receive
        {
            MPI_Recv(&AT(u, n + 1, 1), n, MPI_DOUBLE, down, 0, grid, MPI_STATUS_IGNORE);
            MPI_Recv(&AT(u, 0, 1), n, MPI_DOUBLE, up, 1, grid, MPI_STATUS_IGNORE);
            MPI_Recv(&AT(u, 1, n + 1), 1, column, right, 2, grid, MPI_STATUS_IGNORE);
            MPI_Recv(&AT(u, 1, 0), 1, column, left, 3, grid, MPI_STATUS_IGNORE);
        }
        MPI_Waitall(4, sends, MPI_STATUSES_IGNORE);
        for (int j = 1; j <= n; j++)
            for (int i = 1; i <= n; i++)
                AT(v, j, i) = 0.25 * (AT(u, j - 1, i) + AT(u, j + 1, i) + AT(u, j, i - 1) + AT(u, j, i + 1));
        double *t = u;
        u = v;
        v = t;
    }
    double checksum = 0;
    for (int j = 1; j <= n; j++)
        for (int i = 1; i <= n; i++)
            checksum += AT(u, j, i) * (j * (n + 2) + i);
    printf("rank %d: checksum %.10e\n", rank, checksum);
    MPI_Type_free(&column);
    MPI_Comm_free(&grid);
    free(u);
    free(v);
    MPI_Finalize();
    return 0;
}
