/* A token travels around the ring several times; every rank counts the visits in a
 * global and adds its rank to the token. Plain blocking Send/Recv, no annotations. */
#include <mpi.h>
#include <stdio.h>

int visits;                 /* a mutable global: each rank has its own */
static long checksum = 7;   /* an initialized static global */

int main(int argc, char **argv)
{
    int rank, size;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    const int laps = 3;
    long token = 0;
    for (int lap = 0; lap < laps; lap++) {
        if (rank == 0) {
            token += 1;
            if (size > 1) {
                MPI_Send(&token, 1, MPI_LONG, 1, lap, MPI_COMM_WORLD);
                MPI_Recv(&token, 1, MPI_LONG, size - 1, lap, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            }
        } else {
            MPI_Recv(&token, 1, MPI_LONG, rank - 1, lap, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            token = (token * 3 + rank) % 1000000007;  /* never overflows (undefined in C) */
            MPI_Send(&token, 1, MPI_LONG, (rank + 1) % size, lap, MPI_COMM_WORLD);
        }
        visits++;
        checksum = checksum * 31 + token % 1000003;
    }
    printf("rank %d of %d: visits=%d token=%ld checksum=%ld\n", rank, size, visits, token, checksum);
    MPI_Finalize();
    return 0;
}
