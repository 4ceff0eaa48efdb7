/* Intercommunicators.
 *   MPI_Intercomm_create   between the even and the odd world ranks (groups of unequal size
 *                          when the world is odd), leaders named by world rank, a tag on
 *                          MPI_COMM_WORLD; and between the low and high halves
 *   MPI_Comm_test_inter, MPI_Comm_remote_size, MPI_Comm_remote_group, MPI_Comm_rank/size
 *   point-to-point         ranks name the remote group: MPI_ANY_SOURCE receives whose status
 *                          names the remote sender, MPI_Sendrecv across
 *   MPI_Comm_dup           of an intercommunicator: still one, and its messages never match
 *                          receives on the original
 *   MPI_Barrier, MPI_Bcast (MPI_ROOT, MPI_PROC_NULL, from either group), MPI_Allreduce
 *                          (each group gets the other's sum), MPI_Ibcast, MPI_Iallreduce,
 *                          MPI_Gather(v), MPI_Scatter(v), MPI_Reduce, MPI_Allgather(v),
 *                          MPI_Alltoall(v, w), MPI_Reduce_scatter(_block)
 *   MPI_Comm_split, MPI_Comm_create of an intercommunicator
 *   MPI_Intercomm_merge    with high given by the groups, and with the same high on both
 *                          sides; collectives on the merged communicator */
#include "conformance.h"

#define WORLD MPI_COMM_WORLD

static int world_ranks_of(MPI_Group group, int *out)
{
    MPI_Group world_group;
    int n;
    MPI_Comm_group(WORLD, &world_group);
    MPI_Group_size(group, &n);
    int *ranks = malloc(sizeof(int) * (n + 1));
    for (int i = 0; i < n; i++)
        ranks[i] = i;
    MPI_Group_translate_ranks(group, n, ranks, world_group, out);
    MPI_Group_free(&world_group);
    free(ranks);
    return n;
}

/* The data-moving collectives, the first group's rank 0 the root where there is one; every
 * rank prints a checksum of what it got. */
static int data_collectives(MPI_Comm inter, const char *name, int world_rank, int in_second_group,
                            const int *members)
{
    int bad = 0, rank, size, remote_size;
    MPI_Comm_rank(inter, &rank);
    MPI_Comm_size(inter, &size);
    MPI_Comm_remote_size(inter, &remote_size);
    int big = size > remote_size ? size : remote_size;
    /* recv holds 4 blocks of the larger group, or the 6 of MPI_Reduce_scatter's whole vector */
    size_t recv_ints = 4 * big < 6 ? 6 : (size_t)(4 * big);
    int *send = malloc(sizeof(int) * 4 * big), *recv = calloc(recv_ints, sizeof(int));
    int *counts = malloc(sizeof(int) * big), *displs = malloc(sizeof(int) * big);
    int *rcounts = malloc(sizeof(int) * big), *rdispls = malloc(sizeof(int) * big);
    MPI_Datatype *types = malloc(sizeof(MPI_Datatype) * big);
    for (int i = 0; i < 4 * big; i++)
        send[i] = value_of(world_rank, i, 4);
    for (int r = 0; r < big; r++) {
        counts[r] = 1 + r % 3;  /* what remote rank r gets from / gives to this rank's group */
        displs[r] = 4 * r;
        types[r] = MPI_INT;
    }
    int root = in_second_group ? 0 : (rank == 0 ? MPI_ROOT : MPI_PROC_NULL);
    uint32_t h = HASH_INIT;
#define TAKE(n) (h = hash_ints(h, recv, (size_t)(n)), memset(recv, 0, sizeof(int) * recv_ints))
    MPI_Gather(send, 2, MPI_INT, recv, 2, MPI_INT, root, inter);
    TAKE(2 * remote_size);
    /* each rank of the second group gives 1 + rank % 3 */
    MPI_Gatherv(send, 1 + rank % 3, MPI_INT, recv, counts, displs, MPI_INT, root, inter);
    TAKE(4 * remote_size);
    MPI_Scatter(send, 3, MPI_INT, recv, 3, MPI_INT, root, inter);
    TAKE(3);
    MPI_Scatterv(send, counts, displs, MPI_INT, recv, 1 + rank % 3, MPI_INT, root, inter);
    TAKE(3);
    MPI_Reduce(send, recv, 4, MPI_INT, MPI_SUM, root, inter);
    if (root == MPI_ROOT) {
        long long want = 0;
        for (int r = 0; r < remote_size; r++)
            want += value_of(members[r], 3, 4);
        bad += expect(recv[3] == want, "%s: reduce gave %d, want %lld", name, recv[3], want);
    }
    TAKE(4);
    MPI_Allgather(send, 2, MPI_INT, recv, 2, MPI_INT, inter);
    for (int r = 0; r < remote_size; r++)
        bad += expect(recv[2 * r + 1] == value_of(members[r], 1, 4), "%s: allgather block %d", name, r);
    TAKE(2 * remote_size);
    MPI_Allgatherv(send, 1 + rank % 3, MPI_INT, recv, counts, displs, MPI_INT, inter);
    TAKE(4 * remote_size);
    for (int r = 0; r < remote_size; r++) {
        rcounts[r] = 1 + (r + rank) % 2;  /* rank a and remote rank b exchange 1 + (a + b) % 2 */
        rdispls[r] = 4 * r;
    }
    MPI_Alltoall(send, 2, MPI_INT, recv, 2, MPI_INT, inter);
    for (int r = 0; r < remote_size; r++)
        bad += expect(recv[2 * r] == value_of(members[r], 2 * rank, 4), "%s: alltoall block %d", name, r);
    TAKE(2 * remote_size);
    MPI_Alltoallv(send, rcounts, rdispls, MPI_INT, recv, rcounts, rdispls, MPI_INT, inter);
    TAKE(4 * remote_size);
    for (int r = 0; r < remote_size; r++)
        rdispls[r] *= (int)sizeof(int);  /* in bytes for MPI_Alltoallw */
    MPI_Alltoallw(send, rcounts, rdispls, types, recv, rcounts, rdispls, types, inter);
    TAKE(4 * remote_size);
    /* Each group gets the other's reduction of six elements, split by its own counts. */
    int six[6];
    for (int i = 0; i < 6; i++)
        six[i] = value_of(world_rank, i, 6);
    for (int r = 0; r < size; r++)
        rcounts[r] = 6 / size + (r < 6 % size);
    MPI_Reduce_scatter(six, recv, rcounts, MPI_INT, MPI_SUM, inter);
    TAKE(rcounts[rank]);
    if (size == remote_size) {
        MPI_Reduce_scatter_block(send, recv, 2, MPI_INT, MPI_MAX, inter);
        TAKE(2);
    }
#undef TAKE
    say("rank %d: %s data collectives hash %08x", world_rank, name, h);
    free(send);
    free(recv);
    free(counts);
    free(displs);
    free(rcounts);
    free(rdispls);
    free(types);
    return bad;
}

static int exercise(MPI_Comm inter, const char *name, int world_rank, int in_second_group)
{
    int bad = 0, flag, rank, size, remote_size;
    MPI_Comm_test_inter(inter, &flag);
    MPI_Comm_rank(inter, &rank);
    MPI_Comm_size(inter, &size);
    MPI_Comm_remote_size(inter, &remote_size);
    bad += expect(flag == 1, "%s: test_inter says %d", name, flag);

    MPI_Group remote;
    int members[64], n;
    MPI_Comm_remote_group(inter, &remote);
    n = world_ranks_of(remote, members);
    MPI_Group_free(&remote);
    uint32_t h = hash_ints(HASH_INIT, members, (size_t)n);
    say("rank %d: %s rank %d of %d, remote size %d, remote world ranks hash %08x", world_rank, name, rank, size,
        remote_size, h);

    /* Every rank sends to remote rank (its rank mod remote size); receives from anyone. */
    int out = value_of(world_rank, 0, 1), dest = rank % remote_size;
    MPI_Request request;
    MPI_Isend(&out, 1, MPI_INT, dest, 5, inter, &request);
    int expected = 0;
    for (int r = 0; r < remote_size; r++)  /* remote ranks r with r % size == rank send to us */
        if (r % size == rank)
            expected++;
    int sum_sources = 0;
    for (int k = 0; k < expected; k++) {
        int in;
        MPI_Status status;
        MPI_Recv(&in, 1, MPI_INT, MPI_ANY_SOURCE, 5, inter, &status);
        bad += expect(in == value_of(members[status.MPI_SOURCE], 0, 1), "%s: from remote %d got %d", name,
                      status.MPI_SOURCE, in);
        sum_sources += status.MPI_SOURCE;
    }
    MPI_Wait(&request, MPI_STATUS_IGNORE);
    say("rank %d: %s received %d, remote sources sum %d", world_rank, name, expected, sum_sources);

    /* A duplicate: a message on it must not match a receive on the original. */
    MPI_Comm dup;
    MPI_Comm_dup(inter, &dup);
    MPI_Comm_test_inter(dup, &flag);
    bad += expect(flag == 1, "%s: dup is not an intercommunicator", name);
    if (rank < remote_size) {
        int a = 1, b = 2, got_orig = 0, got_dup = 0;
        MPI_Request two[2];
        MPI_Irecv(&got_orig, 1, MPI_INT, rank, 6, inter, &two[0]);
        MPI_Irecv(&got_dup, 1, MPI_INT, rank, 6, dup, &two[1]);
        /* pairs: rank r of each group talks with rank r of the other */
        MPI_Send(&b, 1, MPI_INT, rank, 6, dup);
        MPI_Send(&a, 1, MPI_INT, rank, 6, inter);
        MPI_Waitall(2, two, MPI_STATUSES_IGNORE);
        bad += expect(got_orig == 1 && got_dup == 2, "%s: dup crossed (%d, %d)", name, got_orig, got_dup);
    }
    MPI_Barrier(dup);
    MPI_Comm_free(&dup);

    /* Broadcasts from rank 0 of each group in turn. */
    for (int root_group = 0; root_group < 2; root_group++) {
        int data[3] = {-1, -1, -1};
        if (root_group == in_second_group) {
            if (rank == 0)
                for (int i = 0; i < 3; i++)
                    data[i] = value_of(world_rank, i, 2);
            MPI_Bcast(data, 3, MPI_INT, rank == 0 ? MPI_ROOT : MPI_PROC_NULL, inter);
        } else {
            MPI_Bcast(data, 3, MPI_INT, 0, inter);
            bad += expect(data[2] == value_of(members[0], 2, 2), "%s: bcast got %d", name, data[2]);
        }
        say("rank %d: %s bcast from group %d: %d %d %d", world_rank, name, root_group, data[0], data[1], data[2]);
    }

    /* Each group gets the other's sum. */
    int mine = value_of(world_rank, 0, 3), theirs = -1, want = 0;
    MPI_Allreduce(&mine, &theirs, 1, MPI_INT, MPI_SUM, inter);
    for (int r = 0; r < remote_size; r++)
        want += value_of(members[r], 0, 3);
    bad += expect(theirs == want, "%s: allreduce gave %d, want %d", name, theirs, want);
    int nb_theirs = -1, token = rank == 0 ? 77 : -1;
    MPI_Request nb[2];
    MPI_Iallreduce(&mine, &nb_theirs, 1, MPI_INT, MPI_SUM, inter, &nb[0]);
    if (in_second_group)
        MPI_Ibcast(&token, 1, MPI_INT, 0, inter, &nb[1]);
    else
        MPI_Ibcast(&token, 1, MPI_INT, rank == 0 ? MPI_ROOT : MPI_PROC_NULL, inter, &nb[1]);
    MPI_Waitall(2, nb, MPI_STATUSES_IGNORE);
    bad += expect(nb_theirs == want, "%s: iallreduce gave %d", name, nb_theirs);
    if (in_second_group)
        bad += expect(token == 77, "%s: ibcast gave %d", name, token);
    MPI_Barrier(inter);
    say("rank %d: %s allreduce %d, nonblocking %d, token %d", world_rank, name, theirs, nb_theirs,
        in_second_group ? token : 0);

    bad += data_collectives(inter, name, world_rank, in_second_group, members);

    /* Split by rank parity on each side, and made from each group without its rank 0: both
     * still intercommunicators (or MPI_COMM_NULL where a side is empty). */
    MPI_Comm part;
    MPI_Comm_split(inter, rank % 2, -rank, &part);
    if (part != MPI_COMM_NULL) {
        int prank, psize, premote, sum = -1, one = world_rank;
        MPI_Comm_rank(part, &prank);
        MPI_Comm_size(part, &psize);
        MPI_Comm_remote_size(part, &premote);
        MPI_Allreduce(&one, &sum, 1, MPI_INT, MPI_SUM, part);
        say("rank %d: %s split part rank %d of %d, remote %d, remote world ranks sum %d", world_rank, name, prank,
            psize, premote, sum);
        MPI_Comm_free(&part);
    } else {
        say("rank %d: %s split part null", world_rank, name);
    }
    MPI_Group local_group, without_first;
    MPI_Comm_group(inter, &local_group);
    int first = 0;
    MPI_Group_excl(local_group, 1, &first, &without_first);
    MPI_Comm_create(inter, without_first, &part);
    if (part != MPI_COMM_NULL) {
        int prank, premote;
        MPI_Comm_rank(part, &prank);
        MPI_Comm_remote_size(part, &premote);
        MPI_Barrier(part);
        say("rank %d: %s created rank %d, remote %d", world_rank, name, prank, premote);
        MPI_Comm_free(&part);
    } else {
        say("rank %d: %s created null", world_rank, name);
    }
    MPI_Group_free(&without_first);
    MPI_Group_free(&local_group);

    /* Merged: the second group last, then both saying the same. */
    for (int same = 0; same < 2; same++) {
        MPI_Comm merged;
        MPI_Intercomm_merge(inter, same ? 1 : in_second_group, &merged);
        int mrank, msize, all[64];
        MPI_Comm_rank(merged, &mrank);
        MPI_Comm_size(merged, &msize);
        MPI_Allgather(&world_rank, 1, MPI_INT, all, 1, MPI_INT, merged);
        say("rank %d: %s merged (%s) rank %d of %d, members hash %08x", world_rank, name, same ? "same high" : "by group",
            mrank, msize, hash_ints(HASH_INIT, all, (size_t)msize));
        MPI_Comm_free(&merged);
    }
    return bad;
}

int main(int argc, char **argv)
{
    int rank, size, bad = 0;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(WORLD, &rank);
    MPI_Comm_size(WORLD, &size);
    if (size < 2) {
        say("rank %d: intercommunicators need two ranks", rank);
        MPI_Finalize();
        return 0;
    }
    /* Even and odd world ranks: the leaders are world ranks 0 and 1. */
    MPI_Comm group, inter;
    int odd = rank % 2;
    MPI_Comm_split(WORLD, odd, rank, &group);
    MPI_Intercomm_create(group, 0, WORLD, odd ? 0 : 1, 99, &inter);
    bad += exercise(inter, "even/odd", rank, odd);
    MPI_Comm_free(&inter);
    MPI_Comm_free(&group);

    /* Low and high halves, the high half's leader its last member. */
    int high = rank >= size / 2;
    MPI_Comm_split(WORLD, high, rank, &group);
    int group_size;
    MPI_Comm_size(group, &group_size);
    MPI_Intercomm_create(group, high ? group_size - 1 : 0, WORLD, high ? 0 : size - 1, 7, &inter);
    bad += exercise(inter, "halves", rank, high);
    MPI_Comm_free(&inter);
    MPI_Comm_free(&group);

    int status = report_failures(rank, bad);
    MPI_Finalize();
    return status;
}
