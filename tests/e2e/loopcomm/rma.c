/* Loops of one-element MPI_Get and MPI_Put in fence and lock epochs: contiguous, strided,
 * reversed, 2-D rows, displacements in bytes (a window of unit 1) and in elements.  Built
 * with mpicc as written, and by bamboocc --bamboo-comm-only (one transfer of derived datatypes
 * after each loop), it must print the same at every rank count. */
#include <mpi.h>
#include <stdio.h>

#define N 240
#define ROWS 10
#define COLS 24

static double checksum(const double *a, int n)
{
    double s = 0;
    for (int i = 0; i < n; i++)
        s += a[i] * (1 + i % 7);
    return s;
}

int main(int argc, char **argv)
{
    int rank, size;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    double *x, *grid, got[N], t[ROWS * COLS];
    MPI_Win wx, wgrid;
    MPI_Win_allocate(N * sizeof(double), sizeof(double), MPI_INFO_NULL, MPI_COMM_WORLD, &x, &wx);
    MPI_Win_allocate(ROWS * COLS * sizeof(double), 1, MPI_INFO_NULL, MPI_COMM_WORLD, &grid,
                     &wgrid);
    for (int i = 0; i < N; i++)
        x[i] = rank * 1000 + i;
    for (int i = 0; i < ROWS * COLS; i++)
        grid[i] = rank * 100000 + i;
    for (int i = 0; i < N; i++)
        got[i] = -1;
    int next = (rank + 1) % size, n = N;

    MPI_Win_fence(0, wx);
    for (int i = 0; i < n; i++)   /* contiguous */
        MPI_Get(&got[i], 1, MPI_DOUBLE, next, i, 1, MPI_DOUBLE, wx);
    MPI_Win_fence(0, wx);
    printf("rank %d contiguous %.1f\n", rank, checksum(got, N));

    MPI_Win_fence(0, wx);
    for (int i = 0; i < n / 3; i++) {   /* strided, and reversed, into the same buffer */
        MPI_Get(&got[2 * i], 1, MPI_DOUBLE, next, 3 * i + 1, 1, MPI_DOUBLE, wx);
        MPI_Get(&got[2 * i + 1], 1, MPI_DOUBLE, next, n - 1 - i, 1, MPI_DOUBLE, wx);
    }
    MPI_Win_fence(0, wx);
    printf("rank %d strided %.1f\n", rank, checksum(got, N));

    /* 2-D: half the columns of every row, displacements in bytes */
    MPI_Win_fence(0, wgrid);
    for (int r = 0; r < ROWS; r++)
        for (int c = 0; c < COLS / 2; c++)
            MPI_Get(&t[c * ROWS + r], 1, MPI_DOUBLE, next,
                    (MPI_Aint)((r * COLS + c + COLS / 4) * sizeof(double)), 1, MPI_DOUBLE, wgrid);
    MPI_Win_fence(0, wgrid);
    printf("rank %d rows %.1f\n", rank, checksum(t, ROWS * COLS / 2));

    /* puts in a lock epoch: my values into a column of the next rank's grid */
    for (int r = 0; r < ROWS; r++)
        t[r] = rank + r * 0.25;
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Win_lock(MPI_LOCK_SHARED, next, 0, wgrid);
    for (int r = 0; r < ROWS; r++) {
        int err = MPI_Put(&t[r], 1, MPI_DOUBLE, next, (MPI_Aint)((r * COLS + 3) * sizeof(double)),
                          1, MPI_DOUBLE, wgrid);
        (void)err;
    }
    MPI_Win_unlock(next, wgrid);
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Win_lock(MPI_LOCK_SHARED, rank, 0, wgrid);
    printf("rank %d column %.1f\n", rank, checksum(grid, ROWS * COLS));
    MPI_Win_unlock(rank, wgrid);

    MPI_Win_free(&wx);
    MPI_Win_free(&wgrid);
    MPI_Finalize();
    return 0;
}
