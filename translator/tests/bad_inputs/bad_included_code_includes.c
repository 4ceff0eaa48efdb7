#include <mpi.h>
int steps;
int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
#include "bad_included_code_includes.h"
    MPI_Finalize();
    return steps - 4;
}

/* The translator must reject this file with exactly these errors:
// expect: bad_included_code_includes.h:2:1: error: 'steps' is privatized, and bad_included_code_includes.h, included inside a function or an initializer, includes other files: the translator writes it out in place of its #include line and cannot follow those; include them outside the function
*/
