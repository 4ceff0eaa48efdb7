/* Resident memory with every task alive: all tasks report to rank 0 and wait for its reply;
 * meanwhile rank 0 reads the process's VmRSS. Run at VF=1 and a larger VF: the difference
 * divided by the extra tasks is the memory each task costs.   prints "RESULT rss_kib X" */
#include <stdio.h>
#include <string.h>

#include "bamboo.h"

static long rss_kib(void) {
    FILE *f = fopen("/proc/self/status", "r");
    char line[256];
    long kib = -1;
    while (f && fgets(line, sizeof line, f))
        if (strncmp(line, "VmRSS:", 6) == 0) sscanf(line + 6, "%ld", &kib);
    if (f) fclose(f);
    return kib;
}

int bamboo_main(int argc, char **argv) {
    MPI_Init(&argc, &argv);
    int rank, size, token = 0;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (rank == 0) {
        for (int r = 1; r < size; ++r) MPI_Recv(&token, 1, MPI_INT, MPI_ANY_SOURCE, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        printf("RESULT rss_kib %ld\n", rss_kib());
        for (int r = 1; r < size; ++r) MPI_Send(&token, 1, MPI_INT, r, 1, MPI_COMM_WORLD);
    } else {
        MPI_Send(&token, 1, MPI_INT, 0, 0, MPI_COMM_WORLD);
        MPI_Recv(&token, 1, MPI_INT, 0, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    }
    MPI_Finalize();
    return 0;
}
