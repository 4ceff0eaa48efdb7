/* Faults in one task (rank 1) while the others wait in a barrier (without --case, every
 * rank only prints that it survived):
 *   --case segv       a write to address 16
 *   --case fpe        an integer division by zero
 *   --case trap       an illegal instruction (__builtin_trap)
 *   --case big-frame  a 1 MiB stack frame (on a stack smaller than that)
 *   --case vla        a variable-length array of --bytes N bytes */
#include <mpi.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void write_to_page_zero(void)
{
    volatile uintptr_t address = 16;  /* volatile: the compiler may not assume the fault away */
    *(volatile int *)address = 1;
}

static int divide_by_zero(int n)
{
    volatile int zero = 0, dividend = n;
    return dividend / zero;
}

static int big_frame(int seed)
{
    volatile char frame[1 << 20];
    frame[0] = (char)seed;
    frame[sizeof frame - 1] = (char)seed;
    return frame[0] + frame[sizeof frame - 1];
}

static int variable_length_array(size_t bytes)
{
    volatile char array[bytes];
    array[0] = 1;
    array[bytes - 1] = 1;
    return array[0] + array[bytes - 1];
}

int main(int argc, char **argv)
{
    const char *which = "";
    size_t bytes = 1 << 20;
    for (int i = 1; i + 1 < argc; i++) {
        if (strcmp(argv[i], "--case") == 0) which = argv[i + 1];
        if (strcmp(argv[i], "--bytes") == 0) bytes = strtoul(argv[i + 1], NULL, 10);
    }
    int rank, result = 0;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank == 1) {
        if (strcmp(which, "segv") == 0) write_to_page_zero();
        else if (strcmp(which, "fpe") == 0) result = divide_by_zero(rank);
        else if (strcmp(which, "trap") == 0) __builtin_trap();
        else if (strcmp(which, "big-frame") == 0) result = big_frame(rank);
        else if (strcmp(which, "vla") == 0) result = variable_length_array(bytes);
    }
    if (*which)
        MPI_Barrier(MPI_COMM_WORLD);
    printf("rank %d survived (%d)\n", rank, result);
    MPI_Finalize();
    return 0;
}
