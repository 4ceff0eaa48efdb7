/* 2D Jacobi with a halo exchange, annotated for Bamboo. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

#define TAG 0

int n = 64;                 /* local block size, set from argv */
static int iterations = 10;
double residual;

static void pack(double *buf, const double *u, int count, int stride)
{
    for (int i = 0; i < count; i++)
        buf[i] = u[i * stride];
}

int main(int argc, char **argv)
{
    int rank, size, px, py, up, down, left, right;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (argc > 1)
        n = atoi(argv[1]);
    px = py = 1;
    while (px * px < size) px++;
    py = size / px;
    int x = rank % px, y = rank / px;
    up = y > 0 ? rank - px : -1;
    down = y < py - 1 ? rank + px : -1;
    left = x > 0 ? rank - 1 : -1;
    right = x < px - 1 ? rank + 1 : -1;
    int w = n + 2;
    double *u = calloc((size_t)w * w, sizeof *u), *v = calloc((size_t)w * w, sizeof *v);
    double *sbuf[4], *rbuf[4];
    int nbr[4] = {up, down, left, right};
    for (int d = 0; d < 4; d++) {
        sbuf[d] = malloc(n * sizeof(double));
        rbuf[d] = malloc(n * sizeof(double));
    }
    MPI_Request req[4];
#pragma bamboo dimension 2
#pragma bamboo olap layout NN X layout NN Y
    for (int it = 0; it < iterations; it++) {
#pragma bamboo receive
        {
            if (up >= 0)
                MPI_Recv(rbuf[0], n, MPI_DOUBLE, up, TAG, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            if (down >= 0)
                MPI_Recv(rbuf[1], n, MPI_DOUBLE, down, TAG, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            for (int d = 2; d < 4; d++)
                if (nbr[d] >= 0)
                    MPI_Irecv(rbuf[d], n, MPI_DOUBLE, nbr[d], TAG, MPI_COMM_WORLD, &req[d]);
        }
#pragma bamboo send
        {
            pack(sbuf[0], &u[w + 1], n, 1);
            pack(sbuf[1], &u[n * w + 1], n, 1);
            if (up >= 0) MPI_Send(sbuf[0], n, MPI_DOUBLE, up, TAG, MPI_COMM_WORLD);
            if (down >= 0) MPI_Send(sbuf[1], n, MPI_DOUBLE, down, TAG, MPI_COMM_WORLD);
            for (int d = 2; d < 4; d++)
                if (nbr[d] >= 0) {
                    pack(sbuf[d], &u[w + (d == 2 ? 1 : n)], n, w);
                    MPI_Send(sbuf[d], n, MPI_DOUBLE, nbr[d], TAG, MPI_COMM_WORLD);
                }
        }
        for (int d = 2; d < 4; d++)
            if (nbr[d] >= 0)
                MPI_Wait(&req[d], MPI_STATUS_IGNORE);
        residual = 0;
        for (int j = 1; j <= n; j++)
            for (int i = 1; i <= n; i++) {
                v[j * w + i] = 0.25 * (u[j * w + i - 1] + u[j * w + i + 1] + u[(j - 1) * w + i] + u[(j + 1) * w + i]);
                residual += v[j * w + i] - u[j * w + i];
            }
        double *t = u; u = v; v = t;
    }
    if (rank == 0)
        printf("residual %g\n", residual);
    MPI_Finalize();
    return 0;
}
