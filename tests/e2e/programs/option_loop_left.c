/* A limit of getopt per task: rank 0 leaves its option loop before getopt returns -1, so it
 * keeps the process's option parser, and then waits for the others, which wait for the
 * parser. Fine under MPI; under Bamboo a deadlock, which must be reported, not hang. */
#include <mpi.h>
#include <stdio.h>
#include <unistd.h>

int main(int argc, char **argv)
{
    int rank, c, verbose = 0;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    while ((c = getopt(argc, argv, "qv")) != -1) {
        if (c == 'v') verbose++;
        if (c == 'q' && rank == 0) goto parsed;
    }
parsed:
    MPI_Barrier(MPI_COMM_WORLD);
    printf("rank %d: verbose %d\n", rank, verbose);
    MPI_Finalize();
    return 0;
}
