/* A clause's expression is C, checked where the transfer evaluates it: clang's own error, at
 * the place in the directive (also on a continued line). */
#include <mpi.h>

static double in[4], out[4];

void exchange(int rank)
{
    for (int step = 0; step < 2; step++) {
#pragma comm_parameters sender(rank - 1) receiver(rnak + 1) \
        count(steps)
        {
#pragma comm_p2p sbuf(out) rbuf(in)
            { }
        }
    }
}
// expect: bad_comm_expression.c:10:51: error: use of undeclared identifier 'rnak'
// expect: bad_comm_expression.c:11:15: error: use of undeclared identifier 'steps'
