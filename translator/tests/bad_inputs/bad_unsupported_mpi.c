#include <mpi.h>
int main(int argc, char **argv)
{
    double x = 1, sum = 0;
    MPI_Init(&argc, &argv);
    MPI_Allreduce(&x, &sum, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    MPI_Finalize();
    return 0;
}

/* The translator must reject this file with exactly these errors:
// expect: bad_unsupported_mpi.c:6:5: error: MPI_Allreduce is not supported by the Bamboo runtime yet
*/
