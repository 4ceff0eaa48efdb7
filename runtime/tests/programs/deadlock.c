/* A deliberate deadlock: ranks 0 and 1 each wait for the other; any other rank waits in a
 * firing rule for a message rank 0 never sends. The runtime must report every waiting task
 * and end the job with a non-zero exit within the deadlock timeout. */
#include "bamboo.h"

int bamboo_main(int argc, char **argv) {
    MPI_Init(&argc, &argv);
    int rank, size, value = 0;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (rank < 2) {
        MPI_Recv(&value, 1, MPI_INT, 1 - rank, 5, MPI_COMM_WORLD, MPI_STATUS_IGNORE); /* line 12 */
    } else {
        bamboo_expect(0, 3, MPI_COMM_WORLD);
        bamboo_expect(rank - 1, 4, MPI_COMM_WORLD);
        bamboo_fire(BAMBOO_AT); /* line 16 */
    }
    MPI_Finalize();
    return 0;
}
