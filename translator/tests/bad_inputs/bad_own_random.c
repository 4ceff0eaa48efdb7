// expect: bad_own_random.c:6:15: error: the program defines its own random(); Bamboo replaces random() with a per-task version, so rename this function
#include <mpi.h>

static unsigned state = 12345;

static double random(void)
{
    state = state * 1103515245u + 12345u;
    return (state >> 8) / 16777216.0;
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    double x = random();
    MPI_Finalize();
    return x < 0;
}
