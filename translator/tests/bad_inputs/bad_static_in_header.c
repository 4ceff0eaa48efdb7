#include <mpi.h>
#include "bad_static_in_header.h"
int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    return next_id();
}

/* The translator must reject this file with exactly these errors:
// expect: bad_static_in_header.h:3:16: error: static variable 'id' of next_id() is defined in a header, which the translator does not rewrite; each task needs its own copy: move the function into a .c file
*/
