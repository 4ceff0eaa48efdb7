#include <mpi.h>
#include "bad_global_in_header.h"
int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    shared_counter++;
    return 0;
}

/* The translator must reject this file with exactly these errors:
// expect: bad_global_in_header.h:1:5: error: global variable 'shared_counter' is defined in a header; each task needs its own copy: define it in one .c file and declare it 'extern' in the header
*/
