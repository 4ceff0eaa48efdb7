/* MPI_Comm_split_type.
 *   MPI_COMM_TYPE_SHARED  the ranks of one host (every rank here: the tests run on one host),
 *                         ordered by key, then by rank, as MPI_Comm_split orders them
 *   MPI_UNDEFINED         MPI_COMM_NULL for the ranks that give it
 * Collectives on the new communicators show who is in them and in what order. */
#include "conformance.h"

#define WORLD MPI_COMM_WORLD

/* `parent_rank`: the rank in the communicator split, which orders ties of key. */
static int describe(MPI_Comm comm, const char *what, int rank, int key, int parent_rank)
{
    int bad = 0, crank, csize, members[64], keys[64], parents[64];
    MPI_Comm_rank(comm, &crank);
    MPI_Comm_size(comm, &csize);
    MPI_Allgather(&rank, 1, MPI_INT, members, 1, MPI_INT, comm);
    MPI_Allgather(&key, 1, MPI_INT, keys, 1, MPI_INT, comm);
    MPI_Allgather(&parent_rank, 1, MPI_INT, parents, 1, MPI_INT, comm);
    for (int i = 1; i < csize; i++)
        bad += expect(keys[i - 1] < keys[i] || (keys[i - 1] == keys[i] && parents[i - 1] < parents[i]),
                      "%s: ranks %d and %d out of key order", what, members[i - 1], members[i]);
    say("%s rank %d: rank %d of %d, members hash %08x", what, rank, crank, csize,
        hash_ints(HASH_INIT, members, (size_t)csize));
    return bad;
}

int main(int argc, char **argv)
{
    int rank, size, bad = 0;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(WORLD, &rank);
    MPI_Comm_size(WORLD, &size);

    MPI_Comm shared;
    MPI_Comm_split_type(WORLD, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &shared);
    bad += describe(shared, "shared", rank, 0, rank);
    MPI_Comm_free(&shared);

    /* Keys reverse the order; odd ranks stay out. */
    int key = size - rank;
    MPI_Comm_split_type(WORLD, rank % 2 ? MPI_UNDEFINED : MPI_COMM_TYPE_SHARED, key, MPI_INFO_NULL, &shared);
    if (rank % 2) {
        bad += expect(shared == MPI_COMM_NULL, "undefined: rank %d got a communicator", rank);
        say("undefined rank %d: MPI_COMM_NULL", rank);
    } else {
        bad += describe(shared, "shared by reverse key", rank, key, rank);
        MPI_Comm_free(&shared);
    }

    /* Ties of key keep the parent's order, here of a communicator in reverse world order. */
    MPI_Comm reversed;
    MPI_Comm_split(WORLD, 0, size - rank, &reversed);
    MPI_Comm_split_type(reversed, MPI_COMM_TYPE_SHARED, rank % 3, MPI_INFO_NULL, &shared);
    int parent_rank;
    MPI_Comm_rank(reversed, &parent_rank);
    bad += describe(shared, "shared of reversed", rank, rank % 3, parent_rank);
    MPI_Comm_free(&shared);
    MPI_Comm_free(&reversed);

    int status = report_failures(rank, bad);
    MPI_Finalize();
    return status;
}
