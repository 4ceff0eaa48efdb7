#include <mpi.h>
#include <setjmp.h>
static jmp_buf escape;
static void give_up(int code)
{
    longjmp(escape, code);
}
int main(int argc, char **argv)
{
    double x = 0;
    MPI_Init(&argc, &argv);
    if (setjmp(escape))
        return 1;
#pragma bamboo olap
    for (int i = 0; i < 3; i++) {
#pragma bamboo receive
        {
            MPI_Recv(&x, 1, MPI_DOUBLE, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            if (x < 0)
                longjmp(escape, 1);
            if (x > 100)
                give_up(2);
        }
    }
    return 0;
}

/* The translator must reject this file with exactly these errors:
// expect: bad_longjmp_receive_block.c:20:17: error: receive block calls longjmp(); a receive block must run to its end, since its firing rule announced the messages it receives (jump after the block instead)
// expect: bad_longjmp_receive_block.c:22:17: error: receive block calls give_up(), which may leave the block with longjmp() (line 6); a receive block must run to its end, since its firing rule announced the messages it receives
*/
