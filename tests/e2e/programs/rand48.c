/* A Monte Carlo estimate with drand48 seeded per rank, the way simulation codes seed it,
 * and a rank that never seeds. Each rank must draw the numbers its own process would. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv)
{
    int rank, flag;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank % 4 != 3) srand48(12345 + rank);
    long inside = 0, big = 0;
    for (int i = 0; i < 2000; i++) {
        double x = drand48(), y = drand48();
        if (x * x + y * y <= 1.0) inside++;
        if (i % 500 == 0)   /* an unsuccessful probe lets the other tasks draw in between */
            MPI_Iprobe(MPI_ANY_SOURCE, 99, MPI_COMM_WORLD, &flag, MPI_STATUS_IGNORE);
    }
    big = lrand48() % 1000 + mrand48() % 1000;
    if (rank % 4 == 1) {
        unsigned short seed[3] = {1, 2, (unsigned short)rank};
        unsigned short *old = seed48(seed);
        printf("rank %d: old seed %u %u %u, next %ld\n", rank, old[0], old[1], old[2], lrand48());
    }
    if (rank % 4 == 2) {
        unsigned short param[7] = {1, 2, 3, 0xe66d, 0xdeec, 0x5, 0xb};
        unsigned short xsubi[3] = {4, 5, (unsigned short)rank};
        lcong48(param);
        long first = nrand48(xsubi);
        printf("rank %d: lcong48 %ld %ld %.6f\n", rank, first, jrand48(xsubi), erand48(xsubi));
    }
    double local = 4.0 * inside / 2000, total;
    MPI_Reduce(&local, &total, 1, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD);
    printf("rank %d: pi ~ %.4f, %ld\n", rank, local, big);
    MPI_Finalize();
    return 0;
}
