/* Ranks seeded with their rank draw from rand(); one rank never seeds and uses random().
 * Each rank must see the numbers its own process would see under plain MPI. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv)
{
    int rank, size;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    long sum = 0;
    if (rank % 3 == 2) {
        for (int i = 0; i < 100; i++)
            sum += random() % 1000;         /* never seeded: the default seed */
    } else {
        srand(rank * 7 + 1);
        for (int i = 0; i < 50; i++) {
            sum += rand() % 1000;
            if (i == 25) {   /* an unsuccessful probe lets the other tasks draw in between */
                int flag;
                MPI_Iprobe(MPI_ANY_SOURCE, 77, MPI_COMM_WORLD, &flag, MPI_STATUS_IGNORE);
            }
        }
        srandom(rank);
        sum += random() % 1000;
    }
    printf("rank %d of %d: %ld\n", rank, size, sum);
    MPI_Finalize();
    return 0;
}
