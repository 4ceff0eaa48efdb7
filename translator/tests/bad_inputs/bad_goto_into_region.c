#include <mpi.h>
void exchange(double *x, int rounds)
{
    if (rounds > 2)
        goto inside;
#pragma bamboo olap
    for (int i = 0; i < rounds; i++) {
#pragma bamboo receive
        MPI_Recv(x, 1, MPI_DOUBLE, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        if (*x > 1)
            goto inside;  /* from inside the region: fine */
    inside:
        *x += 1;
    }
}
void exchange_computed(double *x, int rounds)
{
    void *resume = &&again;
    if (rounds > 2)
        goto *resume;
#pragma bamboo olap
    for (int i = 0; i < rounds; i++) {
#pragma bamboo receive
        MPI_Recv(x, 1, MPI_DOUBLE, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    again:
        *x += 1;
    }
}
int main(int argc, char **argv)
{
    double x = 0;
    MPI_Init(&argc, &argv);
    exchange(&x, argc);
    exchange_computed(&x, argc);
    return 0;
}

/* The translator must reject this file with exactly these errors:
// expect: bad_goto_into_region.c:5:9: error: 'goto inside' jumps into the olap region at line 6 (label at line 12); a region is entered at its start only: put the label before the '#pragma bamboo olap' line
// expect: bad_goto_into_region.c:18:20: error: '&&again' lets a computed goto jump into the olap region at line 21 (label at line 25); a region is entered at its start only: put the label before the '#pragma bamboo olap' line
*/
