#include <mpi.h>
int main(int argc, char **argv)
{
    double x = 1;
    MPI_Request request;
    MPI_Init(&argc, &argv);
    MPI_Ibcast(&x, 1, MPI_DOUBLE, 0, MPI_COMM_WORLD, &request);
    MPI_Finalize();
    return 0;
}

/* The translator must reject this file with exactly these errors:
// expect: bad_unsupported_mpi.c:7:5: error: MPI_Ibcast is not supported by the Bamboo runtime yet
*/
