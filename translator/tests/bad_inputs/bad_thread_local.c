#include <mpi.h>
_Thread_local int scratch;
int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    scratch = 1;
    return 0;
}

/* The translator must reject this file with exactly these errors:
// expect: bad_thread_local.c:2:19: error: thread-local variable 'scratch' cannot be privatized (tasks share worker threads); make it an ordinary global
*/
