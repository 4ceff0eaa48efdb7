/* Rank 1, the root, leaves out a broadcast on a communicator of MPI_Comm_split that every
 * other rank joins: they wait for it forever. The report must name the collective, its
 * place, the message each task waits for and the communicator. */
#include "bamboo.h"

int bamboo_main(int argc, char **argv) {
    MPI_Init(&argc, &argv);
    int rank, value = 0;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm all;
    MPI_Comm_split(MPI_COMM_WORLD, 0, rank, &all); /* line 11 */
    if (rank != 1) MPI_Bcast(&value, 1, MPI_INT, 1, all); /* line 12 */
    MPI_Comm_free(&all);
    MPI_Finalize();
    return 0;
}
