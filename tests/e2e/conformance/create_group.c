/* MPI_Comm_create_group: collective over the group's members only.
 *   the even ranks make a communicator (tag 1) while the odd ranks make theirs (tag 2), and
 *   the ranks outside a group meanwhile exchange messages of their own
 *   a group in reverse world order: its ranks follow the group's order
 *   a group of one, and groups made one after the other on a sub-communicator
 * The new communicators are used for an allreduce and an allgather of world ranks; the
 * world's own collectives go on matching after calls only some of its ranks made. */
#include "conformance.h"

#define WORLD MPI_COMM_WORLD

static void describe(const char *what, int world_rank, MPI_Comm comm)
{
    int rank, size, sum, members[64];
    MPI_Comm_rank(comm, &rank);
    MPI_Comm_size(comm, &size);
    MPI_Allreduce(&world_rank, &sum, 1, MPI_INT, MPI_SUM, comm);
    MPI_Allgather(&world_rank, 1, MPI_INT, members, 1, MPI_INT, comm);
    say("rank %d: %s rank %d of %d, world ranks sum %d, members hash %08x", world_rank, what, rank, size, sum,
        hash_ints(HASH_INIT, members, (size_t)size));
}

int main(int argc, char **argv)
{
    int rank, size, bad = 0;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(WORLD, &rank);
    MPI_Comm_size(WORLD, &size);
    MPI_Group world_group, parity_group, reversed_group, alone_group;
    MPI_Comm_group(WORLD, &world_group);

    int n = 0, *ranks = malloc(sizeof(int) * (size_t)size);
    for (int r = rank % 2; r < size; r += 2)
        ranks[n++] = r;
    MPI_Group_incl(world_group, n, ranks, &parity_group);
    MPI_Comm parity;
    MPI_Comm_create_group(WORLD, parity_group, 1 + rank % 2, &parity);
    describe(rank % 2 ? "odd" : "even", rank, parity);

    /* The first half in reverse order; the others exchange a message meanwhile. */
    int half = (size + 1) / 2;
    if (rank < half) {
        for (int i = 0; i < half; i++)
            ranks[i] = half - 1 - i;
        MPI_Group_incl(world_group, half, ranks, &reversed_group);
        MPI_Comm reversed;
        MPI_Comm_create_group(WORLD, reversed_group, 5, &reversed);
        describe("reversed half", rank, reversed);
        MPI_Comm_free(&reversed);
        MPI_Group_free(&reversed_group);
    } else {
        int partner = half + (rank - half + 1) % (size - half), got = -1;
        MPI_Sendrecv(&rank, 1, MPI_INT, partner, 5, &got, 1, MPI_INT, MPI_ANY_SOURCE, 5, WORLD, MPI_STATUS_IGNORE);
        bad += expect(got >= half, "message beside create_group from %d", got);
        say("rank %d: outside the reversed half", rank);
    }

    /* Groups of one, made on the parity communicator, one after the other. */
    int prank;
    MPI_Comm_rank(parity, &prank);
    MPI_Group parity_comm_group;
    MPI_Comm_group(parity, &parity_comm_group);
    for (int round = 0; round < 2; round++) {
        MPI_Group_incl(parity_comm_group, 1, &prank, &alone_group);
        MPI_Comm alone;
        MPI_Comm_create_group(parity, alone_group, round, &alone);
        int alone_size;
        MPI_Comm_size(alone, &alone_size);
        bad += expect(alone_size == 1, "a group of one gave size %d", alone_size);
        MPI_Comm_free(&alone);
        MPI_Group_free(&alone_group);
    }
    MPI_Barrier(parity);
    say("rank %d: groups of one done", rank);

    /* Only some ranks took part in each call above: the world's collectives still match. */
    int total;
    MPI_Allreduce(&rank, &total, 1, MPI_INT, MPI_SUM, WORLD);
    bad += expect(total == size * (size - 1) / 2, "world allreduce after create_group gave %d", total);
    say("rank %d: world allreduce after: %d", rank, total);

    MPI_Group_free(&parity_comm_group);
    MPI_Comm_free(&parity);
    MPI_Group_free(&parity_group);
    MPI_Group_free(&world_group);
    free(ranks);
    int status = report_failures(rank, bad);
    MPI_Finalize();
    return status;
}
