/* Sections of one array in a loop (docs/comm-directives.md): each rank sends the next one
 * PAIRS pairs of values, each pair's first into an even cell of one array and its second into
 * the odd cell after it, two comm_p2p per iteration of one region. The two are independent
 * whatever the iteration (stride 2, offsets 0 and 1), so they share the region's completion;
 * taken as dependent, the one-sided and SHMEM targets refused the file. TARGET picks the
 * library; interleave_hand.c is the ground truth. */
#include <mpi.h>
#include <stdio.h>
#ifdef USE_SHMEM
#include <shmem.h>
#endif

#ifndef TARGET
#define TARGET TARGET_COMM_MPI_2SIDE
#endif
#define PAIRS 6

static double cells[2 * PAIRS];

int main(int argc, char **argv)
{
    int rank, size;
    MPI_Init(&argc, &argv);
#ifdef USE_SHMEM
    shmem_init();
#endif
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    int prev = (rank - 1 + size) % size, next = (rank + 1) % size;
    double firsts[PAIRS], seconds[PAIRS];
    for (int i = 0; i < PAIRS; i++) {
        firsts[i] = rank * 100 + i;
        seconds[i] = -(rank * 100 + i) - 0.5;
    }
#pragma comm_parameters sender(prev) receiver(next) count(1) max_comm_iter(PAIRS) target(TARGET)
    {
        for (int i = 0; i < PAIRS; i++) {
#pragma comm_p2p sbuf(&firsts[i]) rbuf(&cells[2 * i])
            { }
#pragma comm_p2p sbuf(&seconds[i]) rbuf(&cells[2 * i + 1])
            { }
        }
    }
    for (int i = 0; i < 2 * PAIRS; i++)
        printf("rank %d cell %d %g\n", rank, i, cells[i]);
#ifdef USE_SHMEM
    shmem_finalize();   /* Open MPI's finalizes MPI too */
#else
    MPI_Finalize();
#endif
    return 0;
}
