/* 2D Jacobi, halo exchange with MPI_Irecv/MPI_Waitall, annotated for Bamboo. */
#include <mpi.h>
#include <stdlib.h>

static int n = 64, iterations = 100;

int main(int argc, char **argv)
{
    int rank, size;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    int px = 1;
    while (px * px < size) px++;
    int py = size / px, x = rank % px, y = rank / px;
    int nbr[4] = {y > 0 ? rank - px : -1, y < py - 1 ? rank + px : -1,
                  x > 0 ? rank - 1 : -1, x < px - 1 ? rank + 1 : -1};
    int w = n + 2;
    double *u = calloc((size_t)w * w, sizeof *u), *v = calloc((size_t)w * w, sizeof *v);
    double *in = malloc(4 * n * sizeof *in), *out = malloc(4 * n * sizeof *out);
    MPI_Request req[4];
    int nreq, d, i;
#pragma bamboo dimension 2
#pragma bamboo olap layout NN X layout NN Y
    for (int it = 0; it < iterations; it++) {
#pragma bamboo receive
        {
            nreq = 0;
            for (d = 0; d < 4; d++)
                if (nbr[d] >= 0)
                    MPI_Irecv(&in[d * n], n, MPI_DOUBLE, nbr[d], d ^ 1, MPI_COMM_WORLD, &req[nreq++]);
            MPI_Waitall(nreq, req, MPI_STATUSES_IGNORE);
            for (i = 0; i < n; i++) {           /* unpack the ghost cells */
                if (nbr[0] >= 0) u[i + 1] = in[i];
                if (nbr[1] >= 0) u[(n + 1) * w + i + 1] = in[n + i];
                if (nbr[2] >= 0) u[(i + 1) * w] = in[2 * n + i];
                if (nbr[3] >= 0) u[(i + 1) * w + n + 1] = in[3 * n + i];
            }
        }
#pragma bamboo send
        {
            for (i = 0; i < n; i++) {           /* pack the boundary */
                out[i] = u[w + i + 1];
                out[n + i] = u[n * w + i + 1];
                out[2 * n + i] = u[(i + 1) * w + 1];
                out[3 * n + i] = u[(i + 1) * w + n];
            }
            for (d = 0; d < 4; d++)
                if (nbr[d] >= 0)
                    MPI_Send(&out[d * n], n, MPI_DOUBLE, nbr[d], d, MPI_COMM_WORLD);
        }
        for (int j = 1; j <= n; j++)
            for (i = 1; i <= n; i++)
                v[j * w + i] = 0.25 * (u[j * w + i - 1] + u[j * w + i + 1] + u[(j - 1) * w + i] + u[(j + 1) * w + i]);
        double *t = u; u = v; v = t;
    }
    MPI_Finalize();
    return 0;
}
