#include <mpi.h>
typedef int (*sender)(const void *, int, MPI_Datatype, int, int, MPI_Comm);
int main(int argc, char **argv)
{
    sender s = MPI_Send;
    double x = 0;
    MPI_Init(&argc, &argv);
    s(&x, 1, MPI_DOUBLE, 0, 0, MPI_COMM_WORLD);
    return 0;
}

/* The translator must reject this file with exactly these errors:
// expect: bad_mpi_address.c:5:16: error: MPI_Send is used other than as a direct call (the Bamboo runtime replaces MPI calls by macros; call it directly)
*/
