/* Clauses of the comm directives that the seed's rules refuse. */
#include <mpi.h>

void exchange(int rank, double *a, double *b)
{
#pragma comm_p2p vsbuf(a) rbuf(b) sender(rank) receiver(rank) count(1)
    { }
// a comm_p2p may not say where its region synchronizes
#pragma comm_p2p sbuf(a) rbuf(b) sender(rank) receiver(rank) place_sync(END_PARAM_REGION)
    { }
// a target the directives do not know
#pragma comm_p2p sbuf(a) rbuf(b) sender(rank) receiver(rank) target(TARGET_MPI)
    { }
// one clause, twice
#pragma comm_p2p sbuf(a) rbuf(b) sender(rank) sender(rank) receiver(rank)
    { }
#pragma comm_p2p sbuf(a) rbuf(b) sender(rank) count(1)
    { }
// sendwhen alone
#pragma comm_p2p sbuf(a) rbuf(b) sender(rank) sendwhen(rank == 0) receiver(1) count(1)
    { }
// an empty count
#pragma comm_p2p sbuf(a) rbuf(b) sender(rank) count() receiver(1)
    { }
// written over two lines as the papers print it
#pragma comm_p2p sbuf(a) sender(rank) receiver(1)
    rbuf(b) count(1)
    { }
}
// expect: bad_comm_clauses.c:6:18: error: unknown clause 'vsbuf' (expected one of sender, receiver, sbuf, rbuf, sendwhen, receivewhen, target, count, place_sync, max_comm_iter)
// expect: bad_comm_clauses.c:9:62: error: clause 'place_sync' belongs on comm_parameters, not on comm_p2p
// expect: bad_comm_clauses.c:12:69: error: target must be one of TARGET_COMM_MPI_2SIDE, TARGET_COMM_MPI_1SIDE, TARGET_COMM_SHMEM, not 'TARGET_MPI'
// expect: bad_comm_clauses.c:15:47: error: clause 'sender' given twice
// expect: bad_comm_clauses.c:17:1: error: comm_p2p needs receiver (on the comm_p2p itself)
// expect: bad_comm_clauses.c:20:47: error: sendwhen without receivewhen: give both (who sends and who receives) or neither
// expect: bad_comm_clauses.c:23:47: error: clause 'count' has an empty argument
// expect: bad_comm_clauses.c:27:5: error: 'rbuf(' on the line after #pragma comm_p2p: a #pragma ends with its line; end the line before with '\' to continue the directive
