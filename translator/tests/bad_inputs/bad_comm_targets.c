/* What the one-sided targets need of a buffer received into, and SHMEM under Bamboo. */
#include <mpi.h>
#include <stdlib.h>
#include <shmem.h>

static double global_in[8], global_out[8];
static double *heap_in;

void one_sided(int rank, double *param)
{
    double local_in[8];
    double *from_malloc = malloc(8 * sizeof(double));
    double *symmetric = shmem_malloc(8 * sizeof(double));
    heap_in = malloc(8 * sizeof(double));
    /* a window covers a named object: not memory behind a pointer */
#pragma comm_p2p sbuf(global_out) rbuf(param) sender(rank) receiver(rank) count(8) target(TARGET_COMM_MPI_1SIDE)
    { }
#pragma comm_parameters sender(rank) receiver(rank) target(TARGET_COMM_MPI_1SIDE)
    {
        double inside[8];
        /* declared after its window would open */
#pragma comm_p2p sbuf(global_out) rbuf(inside)
        { }
        /* one-sided transfers that depend on each other: the second completes the first */
#pragma comm_p2p sbuf(global_out) rbuf(global_in)
        { }
#pragma comm_p2p sbuf(global_in) rbuf(local_in)
        { }
    }
    /* SHMEM puts need symmetric memory */
#pragma comm_parameters sender(rank) receiver(rank) target(TARGET_COMM_SHMEM) count(8)
    {
#pragma comm_p2p sbuf(global_out) rbuf(local_in)
        { }
#pragma comm_p2p sbuf(global_out) rbuf(from_malloc)
        { }
#pragma comm_p2p sbuf(global_out) rbuf(heap_in)
        { }
#pragma comm_p2p sbuf(global_out) rbuf(param)
        { }
#pragma comm_p2p sbuf(local_in) rbuf(symmetric)
        { }
#pragma comm_p2p sbuf(global_out) rbuf(global_in)
        { }
    }
    free(from_malloc);
}
// expect: bad_comm_targets.c:16:40: error: rbuf 'param' with TARGET_COMM_MPI_1SIDE: its memory is through the pointer 'param'; the window covers a named object (an array, structure or variable), so name one
// expect: bad_comm_targets.c:22:40: error: rbuf 'inside' with TARGET_COMM_MPI_1SIDE: 'inside' is declared inside the comm_parameters region, but its window opens where the region starts; declare it before
// expect: bad_comm_targets.c:33:40: error: rbuf 'local_in' with TARGET_COMM_SHMEM is not symmetric: 'local_in' is a local variable (puts need a global or static object, or memory from shmem_malloc)
// expect: bad_comm_targets.c:35:40: error: rbuf 'from_malloc' with TARGET_COMM_SHMEM is not symmetric: 'from_malloc' is initialized otherwise than by shmem_malloc (puts need a global or static object, or memory from shmem_malloc)
// expect: bad_comm_targets.c:37:40: error: rbuf 'heap_in' with TARGET_COMM_SHMEM is not symmetric: 'heap_in' is assigned otherwise than by shmem_malloc (line 14) (puts need a global or static object, or memory from shmem_malloc)
// expect: bad_comm_targets.c:39:40: error: rbuf 'param' with TARGET_COMM_SHMEM is not symmetric: 'param' is a parameter: where it points is not known (puts need a global or static object, or memory from shmem_malloc)
// expect: bad_comm_targets.c:41:1: error: comm_p2p transfers a buffer of the comm_p2p at line 33 before their common synchronization; the SHMEM target completes a group only at its end: put them in separate comm_parameters regions
