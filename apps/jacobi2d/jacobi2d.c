/*
 * jacobi2d: Jacobi iteration for Laplace's equation on an N x N grid, 2D block
 * decomposition, ghost cells refreshed by point-to-point halo exchange each sweep.
 *
 * The program of seed 000 Fig. 2: an ordinary MPI program (mpicc ignores the
 * pragmas) that bamboocc turns into a data-driven task program.
 *
 *   jacobi2d N ITERATIONS
 *
 * Prints a checksum of the final grid (bit-identical for a given number of ranks)
 * and the time of the iteration loop.
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { TAG_UP, TAG_DOWN, TAG_LEFT, TAG_RIGHT, TAG_CHECKSUM };

/* Cells of a (rows+2) x (cols+2) array with one ghost layer on each side. */
#define AT(a, j, i) ((a)[(size_t)(j) * (cols + 2) + (i)])

/* The process grid: px columns x py rows, px the largest divisor of size <= sqrt(size). */
static void process_grid(int size, int *px, int *py)
{
    *px = 1;
    for (int d = 1; d * d <= size; d++)
        if (size % d == 0)
            *px = d;
    *py = size / *px;
}

/* First index and length of part `k` of `n` points split into `parts` nearly equal parts. */
static void split(int n, int parts, int k, int *first, int *len)
{
    *len = n / parts + (k < n % parts);
    *first = k * (n / parts) + (k < n % parts ? k : n % parts);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);

    if (argc < 3) {
        if (rank == 0)
            fprintf(stderr, "usage: %s N ITERATIONS\n", argv[0]);
        MPI_Finalize();
        return 1;
    }
    const int n = atoi(argv[1]);
    const int iterations = atoi(argv[2]);

    int px, py;
    process_grid(size, &px, &py);
    const int gx = rank % px, gy = rank / px;
    int col0, cols, row0, rows;
    split(n, px, gx, &col0, &cols);
    split(n, py, gy, &row0, &rows);
    if (rows < 1 || cols < 1) {
        if (rank == 0)
            fprintf(stderr, "jacobi2d: grid %d is too small for %d ranks\n", n, size);
        MPI_Finalize();
        return 1;
    }
    const int up = gy > 0 ? rank - px : -1;
    const int down = gy < py - 1 ? rank + px : -1;
    const int left = gx > 0 ? rank - 1 : -1;
    const int right = gx < px - 1 ? rank + 1 : -1;

    /* Fixed boundary: 1.0 along the top edge of the global grid, 0.0 elsewhere. */
    const size_t cells = (size_t)(rows + 2) * (cols + 2);
    double *u = calloc(cells, sizeof *u), *v = calloc(cells, sizeof *v);
    double *send_left = malloc(rows * sizeof *send_left), *send_right = malloc(rows * sizeof *send_right);
    double *recv_left = malloc(rows * sizeof *recv_left), *recv_right = malloc(rows * sizeof *recv_right);
    if (up < 0)
        for (int i = 0; i < cols + 2; i++)
            AT(u, 0, i) = AT(v, 0, i) = 1.0;

    MPI_Request sends[4];
    double start = MPI_Wtime();
#pragma bamboo olap
    for (int it = 0; it < iterations; it++) {
        int nsends = 0;
#pragma bamboo send
        {
            for (int j = 1; j <= rows; j++) {
                send_left[j - 1] = AT(u, j, 1);
                send_right[j - 1] = AT(u, j, cols);
            }
            if (up >= 0)
                MPI_Isend(&AT(u, 1, 1), cols, MPI_DOUBLE, up, TAG_UP, MPI_COMM_WORLD, &sends[nsends++]);
            if (down >= 0)
                MPI_Isend(&AT(u, rows, 1), cols, MPI_DOUBLE, down, TAG_DOWN, MPI_COMM_WORLD, &sends[nsends++]);
            if (left >= 0)
                MPI_Isend(send_left, rows, MPI_DOUBLE, left, TAG_LEFT, MPI_COMM_WORLD, &sends[nsends++]);
            if (right >= 0)
                MPI_Isend(send_right, rows, MPI_DOUBLE, right, TAG_RIGHT, MPI_COMM_WORLD, &sends[nsends++]);
        }
#pragma bamboo receive
        {
            if (up >= 0)
                MPI_Recv(&AT(u, 0, 1), cols, MPI_DOUBLE, up, TAG_DOWN, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            if (down >= 0)
                MPI_Recv(&AT(u, rows + 1, 1), cols, MPI_DOUBLE, down, TAG_UP, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            if (left >= 0)
                MPI_Recv(recv_left, rows, MPI_DOUBLE, left, TAG_RIGHT, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            if (right >= 0)
                MPI_Recv(recv_right, rows, MPI_DOUBLE, right, TAG_LEFT, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            for (int j = 1; j <= rows; j++) {
                if (left >= 0)
                    AT(u, j, 0) = recv_left[j - 1];
                if (right >= 0)
                    AT(u, j, cols + 1) = recv_right[j - 1];
            }
        }
        MPI_Waitall(nsends, sends, MPI_STATUSES_IGNORE);
        for (int j = 1; j <= rows; j++)
            for (int i = 1; i <= cols; i++)
                AT(v, j, i) = 0.25 * (AT(u, j - 1, i) + AT(u, j + 1, i) + AT(u, j, i - 1) + AT(u, j, i + 1));
        double *t = u;
        u = v;
        v = t;
    }
    double elapsed = MPI_Wtime() - start;

    /* Checksum: each rank's weighted sum, added up on rank 0 in rank order so that the
     * result does not depend on message timing. */
    double local = 0.0;
    for (int j = 1; j <= rows; j++)
        for (int i = 1; i <= cols; i++)
            local += AT(u, j, i) * (double)((row0 + j) * (n + 1) + col0 + i);
    if (rank == 0) {
        double total = local, part, slowest = elapsed;
        for (int r = 1; r < size; r++) {
            MPI_Recv(&part, 1, MPI_DOUBLE, r, TAG_CHECKSUM, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            total += part;
            MPI_Recv(&part, 1, MPI_DOUBLE, r, TAG_CHECKSUM, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            if (part > slowest)
                slowest = part;
        }
        printf("jacobi2d n=%d iterations=%d ranks=%d grid=%dx%d checksum=%.15e\n", n, iterations, size, px, py, total);
        printf("time %.6f s\n", slowest);
    } else {
        MPI_Send(&local, 1, MPI_DOUBLE, 0, TAG_CHECKSUM, MPI_COMM_WORLD);
        MPI_Send(&elapsed, 1, MPI_DOUBLE, 0, TAG_CHECKSUM, MPI_COMM_WORLD);
    }

    free(u);
    free(v);
    free(send_left);
    free(send_right);
    free(recv_left);
    free(recv_right);
    MPI_Finalize();
    return 0;
}
