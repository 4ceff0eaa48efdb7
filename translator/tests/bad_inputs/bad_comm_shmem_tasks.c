/* A SHMEM target cannot become Bamboo tasks: the error names the clause. */
#include <mpi.h>
#include <shmem.h>

static double in[4];

int main(int argc, char **argv)
{
    double out[4] = {1, 2, 3, 4};
    int rank;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
#pragma comm_p2p sbuf(out) rbuf(in) sender(rank) receiver(rank) target(TARGET_COMM_SHMEM)
    { }
    MPI_Finalize();
    return 0;
}
// expect: bad_comm_shmem_tasks.c:13:72: error: TARGET_COMM_SHMEM cannot run on Bamboo tasks (the runtime is MPI): lower the directives alone with `bamboo translate --comm-only` or `bamboocc --bamboo-comm-only`, and build with oshcc
