/* Comm directives in places where their synchronization cannot be placed. */
#include <mpi.h>

static double a[4], b[4];

int exchange(int rank, int steps)
{
    /* nothing after the directive */
    if (rank > 0) {
#pragma comm_p2p sbuf(a) rbuf(b) sender(rank) receiver(rank)
    }
    /* a declaration after it */
#pragma comm_p2p sbuf(a) rbuf(b) sender(rank) receiver(rank)
    int unused = 0;
    (void)unused;
    /* leaving a region early skips its synchronization */
    for (int s = 0; s < steps; s++) {
#pragma comm_parameters sender(rank) receiver(rank)
        {
#pragma comm_p2p sbuf(a) rbuf(b)
            {
                if (s == 3)
                    break;
            }
            if (s == 2)
                return -1;
            for (int k = 0; k < 2; k++)
                if (k == s)
                    break;   /* leaves only the inner loop: fine */
        }
    }
    /* regions do not nest */
#pragma comm_parameters sender(rank) receiver(rank)
    {
#pragma comm_parameters sender(rank) receiver(rank)
        {
#pragma comm_p2p sbuf(a) rbuf(b)
            { }
        }
    }
    /* nothing follows to synchronize at */
#pragma comm_parameters sender(rank) receiver(rank) place_sync(BEGIN_NEXT_PARAM_REGION)
    {
#pragma comm_p2p sbuf(a) rbuf(b)
        { }
    }
    /* outlives a region that is not in a block */
    if (rank == 0)
#pragma comm_parameters sender(rank) receiver(rank) place_sync(END_ADJ_PARAM_REGIONS)
    {
#pragma comm_p2p sbuf(a) rbuf(b)
        { }
    }
    return 0;
}
// expect: bad_comm_structure.c:10:1: error: #pragma comm_p2p must be followed by a statement: the computation that overlaps its transfer (use '{ }' for none)
// expect: bad_comm_structure.c:14:5: error: #pragma comm_p2p is followed by a declaration; it needs a statement: the computation that overlaps its transfer (use '{ }' for none)
// expect: bad_comm_structure.c:23:21: error: break leaves a comm_p2p computation and skips the transfer's completion
// expect: bad_comm_structure.c:26:17: error: return leaves a comm_parameters region and skips its synchronization
// expect: bad_comm_structure.c:35:1: error: comm_parameters region inside another (the one at line 33): regions do not nest
// expect: bad_comm_structure.c:42:53: error: place_sync(BEGIN_NEXT_PARAM_REGION): no comm_parameters region follows this one in its block
