#include <mpi.h>
#include "bad_header_initializer.h"
int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    (*counter_at)++;
    return shared_counter;
}

/* A header's definitions are the templates of the tasks' copies; one that points at another
   privatized variable would point at its template.
// expect: bad_header_initializer.h:2:20: error: privatized variable 'shared_counter' is used in a header, which the translator does not rewrite; move the code into the .c file
*/
