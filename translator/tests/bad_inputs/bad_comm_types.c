/* Buffers the comm directives cannot transfer, and expressions of the wrong type: each is an
 * error at the buffer or clause, saying why. */
#include <mpi.h>

struct linked { int value; struct linked *next; };
struct packed_bits { int wide; unsigned flag : 1; };
struct header_and_data { int n; double data[]; };
union number { int i; double d; };

static struct linked chain_in, chain_out;
static struct packed_bits bits_in, bits_out;
static union number number_in, number_out;

void transfer(int rank, struct header_and_data *h, void *raw, double *d, int *ints, double where)
{
    /* a pointer inside a structure */
#pragma comm_p2p sbuf(chain_out) rbuf(chain_in) sender(rank) receiver(rank)
    { }
    /* a bit-field */
#pragma comm_p2p sbuf(bits_out) rbuf(bits_in) sender(rank) receiver(rank)
    { }
    /* a flexible array member, a union */
#pragma comm_p2p sbuf(*h) rbuf(number_in) sender(rank) receiver(rank) count(1)
    { }
    /* a void pointer */
#pragma comm_p2p sbuf(raw) rbuf(d) sender(rank) receiver(rank) count(4)
    { }
    /* doubles into ints; lists of different lengths */
#pragma comm_p2p sbuf(d) rbuf(ints) sender(rank) receiver(rank) count(4)
    { }
#pragma comm_p2p sbuf(d, ints) rbuf(d) sender(rank) receiver(rank) count(4)
    { }
    /* pointers and no count */
#pragma comm_p2p sbuf(d) rbuf(d) sender(rank) receiver(rank)
    { }
    /* a rank that is not an integer; not an object */
#pragma comm_p2p sbuf(d) rbuf(d) sender(where) receiver(rank) count(2)
    { }
#pragma comm_p2p sbuf(rank + 1) rbuf(d) sender(rank) receiver(rank) count(1)
    { }
    (void)number_out;
}
// expect: bad_comm_types.c:17:23: error: sbuf item 'chain_out' cannot be transferred: field 'next' of struct linked is a pointer: an address means nothing in another process (transfer what it points to as a buffer of its own)
// expect: bad_comm_types.c:17:39: error: rbuf item 'chain_in' cannot be transferred: field 'next' of struct linked is a pointer: an address means nothing in another process (transfer what it points to as a buffer of its own)
// expect: bad_comm_types.c:20:23: error: sbuf item 'bits_out' cannot be transferred: field 'flag' of struct packed_bits is a bit-field: MPI and SHMEM address whole bytes
// expect: bad_comm_types.c:20:38: error: rbuf item 'bits_in' cannot be transferred: field 'flag' of struct packed_bits is a bit-field: MPI and SHMEM address whole bytes
// expect: bad_comm_types.c:23:23: error: sbuf item '*h' cannot be transferred: field 'data' of struct header_and_data is a flexible array member: its length is not in the type
// expect: bad_comm_types.c:23:32: error: rbuf item 'number_in' cannot be transferred: 'union number' is a union: which member to transfer is not known
// expect: bad_comm_types.c:26:23: error: sbuf item 'raw' is a void pointer: the directive cannot know what it points to (cast it to the element type)
// expect: bad_comm_types.c:29:31: error: rbuf item 1 'ints' holds 'int' but sbuf item 1 'd' sends 'double'
// expect: bad_comm_types.c:31:32: error: sbuf has 2 buffer(s) and rbuf 1: they pair one to one
// expect: bad_comm_types.c:34:1: error: comm_p2p needs count(...): no buffer of sbuf or rbuf is an array or object whose size says how many elements to transfer
// expect: bad_comm_types.c:37:41: error: sender(where) must be an integer, not 'double'
// expect: bad_comm_types.c:39:23: error: sbuf item 'rank + 1' is not an object: give an array, a pointer to the first element, or a variable
