// expect: bad_getopt_variable_name.c:6:35: error: 'optind' is the C library's getopt variable, which Bamboo makes per task with a macro; rename this member
// expect: bad_getopt_variable_name.c:8:30: error: 'optarg' is the C library's getopt variable, which Bamboo makes per task with a macro; rename this parameter
// expect: bad_getopt_variable_name.c:10:9: error: 'opterr' is the C library's getopt variable, which Bamboo makes per task with a macro; rename this variable
#include <mpi.h>

struct parser { char **words; int optind; };

static int count(const char *optarg)
{
    int opterr = 0;
    extern int optopt;   /* the library's: fine */
    return optarg[0] + opterr + optopt;
}

int main(int argc, char **argv)
{
    struct parser p = {argv, 1};
    MPI_Init(&argc, &argv);
    return count(argv[0]) + p.optind;
}
