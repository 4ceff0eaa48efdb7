#include <mpi.h>
int main(int argc, char **argv)
{
    double x = 0;
    MPI_Init(&argc, &argv);
    switch (argc) {
    case 1:
#pragma bamboo olap
        for (int i = 0; i < 3; i++) {
#pragma bamboo receive
            MPI_Recv(&x, 1, MPI_DOUBLE, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    default:
            x += 1;
        }
    }
    return 0;
}

/* The translator must reject this file with exactly these errors:
// expect: bad_case_into_region.c:12:5: error: 'default' label of the switch at line 6 stands inside the olap region at line 8: the switch would jump into the region, which is entered at its start only; keep the region within one case
*/
