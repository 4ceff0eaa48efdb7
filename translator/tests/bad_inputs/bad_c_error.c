#include <mpi.h>
int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int x = ;
    return 0;
}

/* The translator must reject this file with exactly these errors:
// expect: bad_c_error.c:5:13: error: expected expression
*/
