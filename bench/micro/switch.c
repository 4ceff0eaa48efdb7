/* Task switch time: every task of the process yields N times at an empty firing rule with
 * priority -1 (which yields at each evaluation point). With one worker, each yield switches
 * to the next task, so the elapsed time over all tasks' yields is the time per switch.
 *   switch N     (run with --bamboo-workers 1)  prints "RESULT switch_ns X" */
#include <stdio.h>
#include <stdlib.h>

#include "bamboo.h"

int bamboo_main(int argc, char **argv) {
    MPI_Init(&argc, &argv);
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    int n = argc > 1 ? atoi(argv[1]) : 1000000;
    bamboo_set_priority(-1);
    for (int i = 0; i < 1000; ++i) bamboo_fire(BAMBOO_AT); /* warm up */
    double start = MPI_Wtime();
    for (int i = 0; i < n; ++i) bamboo_fire(BAMBOO_AT);
    double elapsed = MPI_Wtime() - start;
    if (rank == 0) printf("RESULT switch_ns %.2f\n", elapsed / ((double)n * size) * 1e9);
    MPI_Finalize();
    return 0;
}
