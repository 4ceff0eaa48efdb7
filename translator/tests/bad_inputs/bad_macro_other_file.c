#include <mpi.h>
#include "bad_macro_other_file.h"
int total;
int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    ADD_TOTAL(3);
    return 0;
}

/* The translator must reject this file with exactly these errors:
// expect: bad_macro_other_file.c:7:5: error: 'total' is used inside macro 'ADD_TOTAL' defined in bad_macro_other_file.h; a privatized variable can only be used through macros defined in the translated file
*/
