#include <mpi.h>
int count;
int *count_ptr = &count;
int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    *count_ptr = 1;
    return 0;
}

/* The translator must reject this file with exactly these errors:
// expect: bad_static_init_address.c:3:19: error: the initializer of 'count_ptr' takes the address of privatized variable 'count' (each task has its own copy); set the pointer at run time instead
*/
