#include "bad_header_mpi.h"
int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    sync_all();
    return 0;
}

/* The translator must reject this file with exactly these errors:
// expect: bad_header_mpi.h:2:52: error: MPI_Ibarrier is not supported by the Bamboo runtime yet
*/
