#include <mpi.h>
int main(int argc, char **argv, char **envp)
{
    MPI_Init(&argc, &argv);
    return envp != 0;
}

/* The translator must reject this file with exactly these errors:
// expect: bad_main_args.c:2:1: error: main with 3 parameters is not supported; use int main(int argc, char **argv) or int main(void)
*/
