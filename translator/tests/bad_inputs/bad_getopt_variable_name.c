// expect: bad_getopt_variable_name.c:4:5: error: the program defines 'optind', the C library's getopt variable, which Bamboo makes per task; rename this variable
#include <mpi.h>

int optind = 1;           /* would take the place of the library's */
static int opterr;        /* the program's own: fine */

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    return optind + opterr;
}
