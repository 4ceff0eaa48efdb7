#include "bad_header_mpi.h"
int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    spawn_one();
    return 0;
}

/* The translator must reject this file with exactly these errors:
// expect: bad_header_mpi.h:2:50: error: MPI_Comm_spawn is not supported by the Bamboo runtime yet
*/
