/* What every application of apps/ shares: its output contract and timing.
 *
 * An application prints, from rank 0 of MPI_COMM_WORLD,
 *   - one line "verification: NAME <parameters> <values> PASSED|FAILED|SKIPPED ..."
 *     (apps/common/check-app compares it between variants), and
 *   - one line "time <seconds>" for the timed part, which test harnesses ignore;
 * and exits non-zero when its check failed. Nothing here has mutable static storage: under
 * Bamboo the ranks of a process share it. */
#ifndef BAMBOO_APPS_APP_H
#define BAMBOO_APPS_APP_H

#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

/* Whether this build moves messages: MPI-nocomm does not (nocomm.h), so its results cannot
 * be checked. */
static inline int app_communicates(void)
{
#ifdef BAMBOO_NOCOMM
    return 0;
#else
    return 1;
#endif
}

/* The integer argument argv[index], or `fallback` when there is none; a value that is not a
 * positive integer ends the program with a usage line. */
static inline int app_int_arg(int argc, char **argv, int index, int fallback, const char *usage)
{
    if (index >= argc)
        return fallback;
    char *end;
    long value = strtol(argv[index], &end, 10);
    if (*end != '\0' || value <= 0 || value > 1000000000) {
        fprintf(stderr, "usage: %s %s\n", argv[0], usage);
        exit(2);
    }
    return (int)value;
}

/* The start of every program: MPI_Init, and this rank and the number of ranks (of
 * MPI_COMM_WORLD), which the set-up reads. */
static inline void app_start(int *argc, char ***argv, int *rank, int *size)
{
    MPI_Init(argc, argv);
    MPI_Comm_rank(MPI_COMM_WORLD, rank);
    MPI_Comm_size(MPI_COMM_WORLD, size);
}

/* Ends the program, on every rank, when its arguments do not fit the ranks (rank 0 has said
 * why): exit status 2, as for a bad argument. */
static inline void app_refuse(void)
{
    MPI_Finalize();
    exit(2);
}

/* Rank 0 prints the verification line: `what` says which parameters and values were checked,
 * `passed` whether they are right. Returns the program's exit status (every rank calls it). */
static inline int app_verified(const char *what, int passed)
{
    int rank;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank == 0) {
        if (app_communicates())
            printf("verification: %s %s\n", what, passed ? "PASSED" : "FAILED");
        else
            printf("verification: %s SKIPPED (communication off)\n", what);
        fflush(stdout);
    }
    return app_communicates() && !passed;
}

/* Rank 0 prints "time <seconds>": the slowest rank's time from `start`. */
static inline void app_report_time(double start)
{
    double mine = MPI_Wtime() - start, slowest = 0;
    MPI_Allreduce(&mine, &slowest, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
    int rank;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank == 0) {
        printf("time %.6f\n", slowest);
        fflush(stdout);
    }
}

#endif
