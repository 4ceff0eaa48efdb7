/* Old C that gcc 12 compiles with warnings only, and bamboocc must too: implicit int,
 * K&R definitions, declarations without prototypes, implicit function declarations,
 * int/pointer conversions, `return;` in a function that returns a value, and a vendored
 * header's macro that hides an MPI function behind a cast. The neighbour exchange goes
 * through an implicitly declared function, so the translation has work to do. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

#define MPI_Type_create_subarray (void *)   /* as some vendored headers do */

static rounds = 3;                          /* implicit int */
long last_seen;

int scale(value, factor) int value; int factor; { return value * factor; }
int offset();                               /* no prototype */
int offset(base) { return base + 7; }       /* implicit int parameter */

int checked(int value) { if (value < 0) return; return value; }

long address_bits(void) { int *where = &rounds; return where != 0 ? 1 : 0; }

int main(int argc, char **argv) {
    int rank, size, err, sizes[1] = {4}, sub[1] = {2}, start[1] = {0};
    char *opaque;
    void (*announce)(void) = checked;       /* incompatible function pointer */
    MPI_Datatype t = MPI_INT;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    err = MPI_Type_create_subarray(1, sizes, sub, start, MPI_ORDER_C, MPI_INT, &t);
    (void)announce;
    opaque = rank - rank;                   /* integer to pointer */
    long token = rank;
    for (int r = 0; r < rounds; r++)
        token = exchange(token, rank, size, r);   /* implicit declaration */
    printf("rank %d: token %ld scale %d offset %d checked %d bits %ld err %s opaque %s\n",
           rank, token, scale(rank, 3), offset(rank), checked(rank), address_bits(),
           err ? "nonzero" : "zero", opaque ? "set" : "null");
    MPI_Finalize();
    return 0;
}

int exchange(long token, int rank, int size, int round) {
    long from_left;
    MPI_Sendrecv(&token, 1, MPI_LONG, (rank + 1) % size, round, &from_left, 1, MPI_LONG,
                 (rank + size - 1) % size, round, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    last_seen = from_left;
    return (int)((from_left * 5 + rank) % 1000003);
}
