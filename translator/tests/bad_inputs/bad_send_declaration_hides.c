#include <mpi.h>
int main(int argc, char **argv)
{
    int q = 0;
    double b = 0, s = 0;
    MPI_Init(&argc, &argv);
#pragma bamboo olap
    for (int i = 0; i < 2; i++) {
#pragma bamboo receive
        MPI_Recv(&b, 1, MPI_DOUBLE, MPI_PROC_NULL, q, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
#pragma bamboo send
        int q = MPI_Send(&s, 1, MPI_DOUBLE, MPI_PROC_NULL, 0, MPI_COMM_WORLD);
        s += q;
    }
    MPI_Finalize();
    return 0;
}

/* The translator must reject this file with exactly these errors:
// expect: bad_send_declaration_hides.c:10:52: error: receive block uses 'q', which the send block at line 11 declares anew; the send block moves before this receive block, where its declaration would hide the 'q' meant here: rename one of them
*/
