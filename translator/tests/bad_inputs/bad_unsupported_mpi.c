#include <mpi.h>
int main(int argc, char **argv)
{
    double x = 1;
    MPI_Comm child;
    MPI_Init(&argc, &argv);
    MPI_Comm_spawn("worker", MPI_ARGV_NULL, 1, MPI_INFO_NULL, 0, MPI_COMM_WORLD, &child, MPI_ERRCODES_IGNORE);
    MPI_Finalize();
    return 0;
}

/* The translator must reject this file with exactly these errors:
// expect: bad_unsupported_mpi.c:7:5: error: MPI_Comm_spawn is not supported by the Bamboo runtime yet
*/
