/* Communicators and groups.
 *   MPI_COMM_SELF      rank and size, a message to oneself, collectives on it
 *   MPI_Comm_dup       a message on the duplicate never matches a receive on the
 *                      original (same source and tag on both, received in the opposite
 *                      order); 100 dup/use/free cycles; dup of a split communicator
 *   MPI_Comm_split     several colors with keys that reverse the order; MPI_UNDEFINED
 *                      giving MPI_COMM_NULL; equal keys ordered by parent rank; a split
 *                      of a split; two overlapping splits used one after the other
 *   MPI_Comm_compare   MPI_IDENT, MPI_CONGRUENT, MPI_SIMILAR, MPI_UNEQUAL
 *   MPI_Comm_create    members get the group's order, the others MPI_COMM_NULL
 *   MPI_Comm_free      handles become MPI_COMM_NULL
 *   MPI_Comm_group, MPI_Group_incl, MPI_Group_excl, MPI_Group_size, MPI_Group_rank
 *   (MPI_UNDEFINED for non-members), MPI_Group_translate_ranks (MPI_UNDEFINED,
 *   MPI_PROC_NULL), MPI_Group_compare, MPI_Group_free
 * and point-to-point on sub-communicators: MPI_ANY_SOURCE / MPI_ANY_TAG receives whose
 * status names the sender's rank in the sub-communicator, MPI_Probe, MPI_Get_count,
 * MPI_Sendrecv; collectives on every communicator created.
 * Member lists are printed in communicator rank order, as world ranks: they show both
 * who is in a communicator and the order MPI gave them. */
#include "conformance.h"

#define WORLD MPI_COMM_WORLD

static const char *comm_result(int r)
{
    return r == MPI_IDENT ? "ident" : r == MPI_CONGRUENT ? "congruent" : r == MPI_SIMILAR ? "similar"
         : r == MPI_UNEQUAL ? "unequal" : "?";
}

static int compare_comms(const char *what, MPI_Comm a, MPI_Comm b, int want)
{
    int got;
    MPI_Comm_compare(a, b, &got);
    return expect(got == want, "comm_compare %s: %s, want %s", what, comm_result(got), comm_result(want));
}

/* "members 5 2 8": the world ranks of comm's members in comm's rank order, gathered
 * through the communicator itself; also checks rank and size against expectations. */
static int describe(const char *name, int world_rank, MPI_Comm comm, const int *want_members, int want_size)
{
    int bad = 0, rank, size;
    MPI_Comm_rank(comm, &rank);
    MPI_Comm_size(comm, &size);
    int *members = malloc(size * sizeof *members);
    MPI_Allgather(&world_rank, 1, MPI_INT, members, 1, MPI_INT, comm);
    char line[512];
    int len = snprintf(line, sizeof line, "%s rank %d: subrank %d of %d, members", name, world_rank, rank, size);
    for (int i = 0; i < size && len < (int)sizeof line - 8; i++)
        len += snprintf(line + len, sizeof line - len, " %d", members[i]);
    say("%s", line);
    bad += expect(size == want_size, "%s: size %d, want %d", name, size, want_size);
    if (size == want_size)
        bad += check_ints(name, members, want_members, size);
    bad += expect(members[rank] == world_rank, "%s: member %d is %d, not me (%d)", name, rank, members[rank],
                  world_rank);

    /* A reduction and a broadcast on it too: the sum of its members' world ranks and
     * its rank 0's world rank. */
    int sum = 0, first = world_rank;
    MPI_Allreduce(&world_rank, &sum, 1, MPI_INT, MPI_SUM, comm);
    MPI_Bcast(&first, 1, MPI_INT, 0, comm);
    int want_sum = 0;
    for (int i = 0; i < size; i++)
        want_sum += members[i];
    bad += expect(sum == want_sum && first == members[0], "%s: allreduce %d (want %d), bcast %d (want %d)", name,
                  sum, want_sum, first, members[0]);
    free(members);
    return bad;
}

static int test_self(int rank, int size)
{
    int bad = 0, srank, ssize;
    MPI_Comm_rank(MPI_COMM_SELF, &srank);
    MPI_Comm_size(MPI_COMM_SELF, &ssize);
    int out = 1000 + rank, in = -1, sum = -1, bcast = rank;
    MPI_Request req;
    MPI_Isend(&out, 1, MPI_INT, 0, 9, MPI_COMM_SELF, &req);
    MPI_Status status;
    MPI_Recv(&in, 1, MPI_INT, MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_SELF, &status);
    MPI_Wait(&req, MPI_STATUS_IGNORE);
    MPI_Allreduce(&out, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_SELF);
    MPI_Bcast(&bcast, 1, MPI_INT, 0, MPI_COMM_SELF);
    int gathered[1] = {-1};
    MPI_Gather(&out, 1, MPI_INT, gathered, 1, MPI_INT, 0, MPI_COMM_SELF);
    MPI_Barrier(MPI_COMM_SELF);
    say("self rank %d: rank %d size %d, got %d from %d tag %d, allreduce %d, bcast %d, gather %d", rank, srank, ssize,
        in, status.MPI_SOURCE, status.MPI_TAG, sum, bcast, gathered[0]);
    bad += expect(srank == 0 && ssize == 1 && in == out && status.MPI_SOURCE == 0 && status.MPI_TAG == 9 &&
                      sum == out && bcast == rank && gathered[0] == out,
                  "self rank %d: wrong results", rank);

    MPI_Comm self_dup;
    MPI_Comm_dup(MPI_COMM_SELF, &self_dup);
    bad += compare_comms("self self", MPI_COMM_SELF, MPI_COMM_SELF, MPI_IDENT);
    bad += compare_comms("self dup", MPI_COMM_SELF, self_dup, MPI_CONGRUENT);
    bad += compare_comms("self world", MPI_COMM_SELF, WORLD, size == 1 ? MPI_CONGRUENT : MPI_UNEQUAL);
    MPI_Comm_free(&self_dup);
    return bad;
}

static int test_dup(int rank, int size)
{
    int bad = 0;
    MPI_Comm dup;
    MPI_Comm_dup(WORLD, &dup);
    bad += compare_comms("world dup", WORLD, dup, MPI_CONGRUENT);
    bad += compare_comms("dup dup", dup, dup, MPI_IDENT);

    /* Same destination, same tag, one message per communicator, sent dup first; the
     * receiver asks for the world one first, even with wildcards. */
    const int right = (rank + 1) % size, left = (rank + size - 1) % size;
    int on_dup = 100 + rank, on_world = 200 + rank, got_world = -1, got_dup = -1, got_any = -1;
    MPI_Request reqs[3];
    MPI_Isend(&on_dup, 1, MPI_INT, right, 5, dup, &reqs[0]);
    MPI_Isend(&on_world, 1, MPI_INT, right, 5, WORLD, &reqs[1]);
    MPI_Recv(&got_world, 1, MPI_INT, left, 5, WORLD, MPI_STATUS_IGNORE);
    MPI_Recv(&got_dup, 1, MPI_INT, left, 5, dup, MPI_STATUS_IGNORE);
    MPI_Waitall(2, reqs, MPI_STATUSES_IGNORE);

    MPI_Status status;
    MPI_Isend(&on_dup, 1, MPI_INT, right, 6, dup, &reqs[0]);
    MPI_Isend(&on_world, 1, MPI_INT, right, 6, WORLD, &reqs[1]);
    MPI_Recv(&got_any, 1, MPI_INT, MPI_ANY_SOURCE, MPI_ANY_TAG, WORLD, &status);
    MPI_Recv(&got_dup, 1, MPI_INT, MPI_ANY_SOURCE, MPI_ANY_TAG, dup, MPI_STATUS_IGNORE);
    MPI_Waitall(2, reqs, MPI_STATUSES_IGNORE);
    say("dup rank %d: world got %d, dup got %d, wildcard world got %d from %d tag %d", rank, got_world, got_dup,
        got_any, status.MPI_SOURCE, status.MPI_TAG);
    bad += expect(got_world == 200 + left && got_dup == 100 + left && got_any == 200 + left &&
                      status.MPI_SOURCE == left && status.MPI_TAG == 6,
                  "dup rank %d: messages crossed communicators", rank);

    /* Communicators come and go; their identifiers must not run out or be confused. */
    int total = 0;
    for (int k = 0; k < 100; k++) {
        MPI_Comm tmp;
        MPI_Comm_dup(k % 2 ? dup : WORLD, &tmp);
        int v = k + rank, s = 0;
        MPI_Allreduce(&v, &s, 1, MPI_INT, MPI_SUM, tmp);
        total += s;
        MPI_Comm_free(&tmp);
        bad += expect(tmp == MPI_COMM_NULL, "comm_free did not set MPI_COMM_NULL");
    }
    say("dup rank %d: 100 dup/allreduce/free cycles, total %d", rank, total);
    bad += expect(total == 100 * (size * (size - 1) / 2) + size * 4950, "dup cycles: total %d", total);
    MPI_Comm_free(&dup);
    bad += expect(dup == MPI_COMM_NULL, "comm_free did not set MPI_COMM_NULL");
    return bad;
}

/* The members of a split communicator as MPI must order them: by key, ties by parent
 * rank. key and color are given as arrays over the parent's ranks. */
static int expected_members(int parent_size, const int *color, const int *key, const int *parent_to_world, int mine,
                            int *members)
{
    int n = 0;
    for (int r = 0; r < parent_size; r++)
        if (color[r] == color[mine] && color[r] != MPI_UNDEFINED) {
            /* insertion keeps equal keys in parent-rank order */
            int at = n++;
            while (at > 0 && key[members[at - 1]] > key[r])
                members[at] = members[at - 1], at--;
            members[at] = r;
        }
    for (int i = 0; i < n; i++)
        members[i] = parent_to_world[members[i]];
    return n;
}

static int test_split(int rank, int size)
{
    int bad = 0;
    int *color = malloc(size * sizeof *color), *key = malloc(size * sizeof *key);
    int *members = malloc(size * sizeof *members), *world_ranks = malloc(size * sizeof *world_ranks);
    for (int r = 0; r < size; r++)
        world_ranks[r] = r;

    /* Three colors, keys reversing the order. */
    for (int r = 0; r < size; r++)
        color[r] = r % 3, key[r] = -r;
    MPI_Comm thirds;
    MPI_Comm_split(WORLD, color[rank], key[rank], &thirds);
    int n = expected_members(size, color, key, world_ranks, rank, members);
    bad += describe("split thirds", rank, thirds, members, n);

    /* Point-to-point inside it: everybody reports to subrank 0, which takes the
     * messages with wildcards. The status must name subranks, not world ranks. */
    int sub, subsize;
    MPI_Comm_rank(thirds, &sub);
    MPI_Comm_size(thirds, &subsize);
    if (sub == 0) {
        int seen = 0, sources = 0;
        for (int k = 1; k < subsize; k++) {
            MPI_Status status;
            int count = -1, value = -1;
            MPI_Probe(MPI_ANY_SOURCE, MPI_ANY_TAG, thirds, &status);
            MPI_Get_count(&status, MPI_INT, &count);
            MPI_Recv(&value, 1, MPI_INT, status.MPI_SOURCE, MPI_ANY_TAG, thirds, &status);
            bad += expect(count == 1 && status.MPI_TAG == 300 + status.MPI_SOURCE &&
                              value == members[status.MPI_SOURCE],
                          "split thirds p2p: from %d tag %d value %d count %d", status.MPI_SOURCE, status.MPI_TAG,
                          value, count);
            seen |= 1 << status.MPI_SOURCE;
            sources += status.MPI_SOURCE;
        }
        say("split thirds rank %d: subrank 0 heard from subranks mask %x (sum %d)", rank, seen, sources);
    } else {
        MPI_Send(&rank, 1, MPI_INT, 0, 300 + sub, thirds);
    }
    /* And a ring with Sendrecv, in subrank terms, once subrank 0's wildcards are done. */
    MPI_Barrier(thirds);
    int from = -1;
    MPI_Status status;
    MPI_Sendrecv(&sub, 1, MPI_INT, (sub + 1) % subsize, 7, &from, 1, MPI_INT, MPI_ANY_SOURCE, 7, thirds, &status);
    bad += expect(from == (sub + subsize - 1) % subsize && status.MPI_SOURCE == from,
                  "split thirds sendrecv: got %d from %d", from, status.MPI_SOURCE);

    /* A split of the split: by parity of the subrank, keys in subrank order. */
    int *sub_color = malloc(subsize * sizeof *sub_color), *sub_key = malloc(subsize * sizeof *sub_key);
    int *sub_members = malloc(subsize * sizeof *sub_members);
    for (int r = 0; r < subsize; r++)
        sub_color[r] = r % 2, sub_key[r] = r;
    MPI_Comm nested;
    MPI_Comm_split(thirds, sub_color[sub], sub_key[sub], &nested);
    n = expected_members(subsize, sub_color, sub_key, members, sub, sub_members);
    bad += describe("split nested", rank, nested, sub_members, n);
    MPI_Comm nested_dup;
    MPI_Comm_dup(nested, &nested_dup);
    bad += describe("split nested dup", rank, nested_dup, sub_members, n);
    bad += compare_comms("nested dup", nested, nested_dup, MPI_CONGRUENT);
    MPI_Comm_free(&nested_dup);
    MPI_Comm_free(&nested);
    free(sub_color), free(sub_key), free(sub_members);

    /* MPI_UNDEFINED: every fourth rank is left out; equal keys keep parent order. */
    for (int r = 0; r < size; r++)
        color[r] = r % 4 == 3 ? MPI_UNDEFINED : r % 2, key[r] = 0;
    MPI_Comm parity;
    MPI_Comm_split(WORLD, color[rank], key[rank], &parity);
    if (color[rank] == MPI_UNDEFINED) {
        bad += expect(parity == MPI_COMM_NULL, "split undefined: not MPI_COMM_NULL");
        say("split parity rank %d: MPI_COMM_NULL %d", rank, parity == MPI_COMM_NULL);
    } else {
        n = expected_members(size, color, key, world_ranks, rank, members);
        bad += describe("split parity", rank, parity, members, n);
        MPI_Comm_free(&parity);
    }

    /* Keys that tie in pairs and decrease: ties are broken by parent rank. */
    for (int r = 0; r < size; r++)
        color[r] = 0, key[r] = (size - r) / 2;
    MPI_Comm pairs;
    MPI_Comm_split(WORLD, 0, key[rank], &pairs);
    n = expected_members(size, color, key, world_ranks, rank, members);
    bad += describe("split pairs", rank, pairs, members, n);

    /* One color and reversed keys: the same group in another order. */
    MPI_Comm reversed;
    MPI_Comm_split(WORLD, 0, size - rank, &reversed);
    bad += compare_comms("world reversed", WORLD, reversed, size > 1 ? MPI_SIMILAR : MPI_CONGRUENT);
    bad += compare_comms("world thirds", WORLD, thirds, size > 1 ? MPI_UNEQUAL : MPI_CONGRUENT);
    bad += compare_comms("world pairs", WORLD, pairs, size > 1 ? MPI_SIMILAR : MPI_CONGRUENT);
    int results[3];
    MPI_Comm_compare(WORLD, reversed, &results[0]);
    MPI_Comm_compare(WORLD, thirds, &results[1]);
    MPI_Comm_compare(thirds, thirds, &results[2]);
    say("comm_compare rank %d: world/reversed %s, world/thirds %s, thirds/thirds %s", rank, comm_result(results[0]),
        comm_result(results[1]), comm_result(results[2]));

    /* Two overlapping splits, rows and columns of a 3-wide grid, used alternately: the
     * row sums, then the column sums of the row sums. */
    MPI_Comm rows, cols;
    MPI_Comm_split(WORLD, rank / 3, rank, &rows);
    MPI_Comm_split(WORLD, rank % 3, rank, &cols);
    int row_sum = 0, grid_sum = 0, col_max = -1;
    MPI_Allreduce(&rank, &row_sum, 1, MPI_INT, MPI_SUM, rows);
    MPI_Allreduce(&row_sum, &grid_sum, 1, MPI_INT, MPI_SUM, cols);
    MPI_Reduce(&rank, &col_max, 1, MPI_INT, MPI_MAX, 0, cols);
    int want_row = 0, want_grid = 0;
    for (int r = rank / 3 * 3; r < size && r < rank / 3 * 3 + 3; r++)
        want_row += r;
    for (int c = rank % 3; c < size; c += 3) {
        for (int r = c / 3 * 3; r < size && r < c / 3 * 3 + 3; r++)
            want_grid += r;
    }
    say("rows cols rank %d: row sum %d, column sum of row sums %d", rank, row_sum, grid_sum);
    if (rank < 3) {
        int want_max = rank;
        while (want_max + 3 < size)
            want_max += 3;
        say("rows cols rank %d: column max %d", rank, col_max);
        bad += expect(col_max == want_max, "column max %d, want %d", col_max, want_max);
    }
    bad += expect(row_sum == want_row && grid_sum == want_grid, "rows cols: %d %d, want %d %d", row_sum, grid_sum,
                  want_row, want_grid);

    MPI_Comm all[] = {thirds, pairs, reversed, rows, cols};
    for (int k = 0; k < 5; k++) {
        MPI_Comm_free(&all[k]);
        bad += expect(all[k] == MPI_COMM_NULL, "comm_free did not set MPI_COMM_NULL");
    }
    free(color), free(key), free(members), free(world_ranks);
    return bad;
}

static const char *group_result(int r)
{
    return r == MPI_IDENT ? "ident" : r == MPI_SIMILAR ? "similar" : r == MPI_UNEQUAL ? "unequal" : "?";
}

static int test_groups(int rank, int size)
{
    int bad = 0;
    MPI_Group world_group;
    MPI_Comm_group(WORLD, &world_group);
    int gsize, grank;
    MPI_Group_size(world_group, &gsize);
    MPI_Group_rank(world_group, &grank);
    bad += expect(gsize == size && grank == rank, "world group: size %d rank %d", gsize, grank);

    /* The even ranks, highest first. */
    const int nevens = (size + 1) / 2;
    int *evens = malloc(nevens * sizeof *evens), *ids = malloc(size * sizeof *ids), *out = malloc(size * sizeof *out);
    for (int i = 0; i < nevens; i++)
        evens[i] = 2 * (nevens - 1 - i);
    MPI_Group even_group;
    MPI_Group_incl(world_group, nevens, evens, &even_group);
    int esize, erank;
    MPI_Group_size(even_group, &esize);
    MPI_Group_rank(even_group, &erank);
    const int want_erank = rank % 2 ? MPI_UNDEFINED : nevens - 1 - rank / 2;
    bad += expect(esize == nevens && erank == want_erank, "even group: size %d rank %d", esize, erank);

    /* Everything but the multiples of 3, in world order. */
    const int nthrees = (size + 2) / 3;
    for (int i = 0; i < nthrees; i++)
        ids[i] = 3 * i;
    MPI_Group rest_group;
    MPI_Group_excl(world_group, nthrees, ids, &rest_group);
    int rsize, rrank;
    MPI_Group_size(rest_group, &rsize);
    MPI_Group_rank(rest_group, &rrank);
    const int want_rrank = rank % 3 == 0 ? MPI_UNDEFINED : rank - rank / 3 - 1;
    bad += expect(rsize == size - nthrees && rrank == want_rrank, "rest group: size %d rank %d", rsize, rrank);
    char erank_text[16], rrank_text[16];
    snprintf(erank_text, sizeof erank_text, "%d", erank);
    snprintf(rrank_text, sizeof rrank_text, "%d", rrank);
    say("groups rank %d: world %d/%d, evens %s/%d, rest %s/%d", rank, grank, gsize,
        erank == MPI_UNDEFINED ? "undefined" : erank_text, esize, rrank == MPI_UNDEFINED ? "undefined" : rrank_text,
        rsize);

    /* Translations: evens to world, world to rest (MPI_UNDEFINED for the multiples of
     * 3), and MPI_PROC_NULL stays MPI_PROC_NULL. */
    for (int i = 0; i < nevens; i++)
        ids[i] = i;
    MPI_Group_translate_ranks(even_group, nevens, ids, world_group, out);
    bad += check_ints("translate evens to world", out, evens, nevens);
    for (int i = 0; i < size; i++)
        ids[i] = i;
    MPI_Group_translate_ranks(world_group, size, ids, rest_group, out);
    char line[512];
    int len = snprintf(line, sizeof line, "translate rank %d: world to rest", rank);
    for (int i = 0; i < size; i++) {
        const int want = i % 3 == 0 ? MPI_UNDEFINED : i - i / 3 - 1;
        bad += expect(out[i] == want, "translate world %d to rest: %d, want %d", i, out[i], want);
        if (out[i] == MPI_UNDEFINED)
            len += snprintf(line + len, sizeof line - len, " u");
        else
            len += snprintf(line + len, sizeof line - len, " %d", out[i]);
    }
    say("%s", line);
    int null_in = MPI_PROC_NULL, null_out = 0;
    MPI_Group_translate_ranks(world_group, 1, &null_in, even_group, &null_out);
    bad += expect(null_out == MPI_PROC_NULL, "translate MPI_PROC_NULL: %d", null_out);

    /* Comparisons. */
    MPI_Group reversed_group, dup_group, evens_up;
    for (int i = 0; i < size; i++)
        ids[i] = size - 1 - i;
    MPI_Group_incl(world_group, size, ids, &reversed_group);
    MPI_Comm dup;
    MPI_Comm_dup(WORLD, &dup);
    MPI_Comm_group(dup, &dup_group);
    /* The evens again, lowest first, by excluding the odd ranks. */
    const int nodds = size / 2;
    for (int i = 0; i < nodds; i++)
        ids[i] = 2 * i + 1;
    MPI_Group_excl(world_group, nodds, ids, &evens_up);
    int r[5];
    MPI_Group_compare(world_group, world_group, &r[0]);
    MPI_Group_compare(world_group, dup_group, &r[1]);
    MPI_Group_compare(world_group, reversed_group, &r[2]);
    MPI_Group_compare(even_group, evens_up, &r[3]);
    MPI_Group_compare(world_group, even_group, &r[4]);
    const int want[5] = {MPI_IDENT, MPI_IDENT, size > 1 ? MPI_SIMILAR : MPI_IDENT,
                         nevens > 1 ? MPI_SIMILAR : MPI_IDENT, size > 1 ? MPI_UNEQUAL : MPI_IDENT};
    for (int k = 0; k < 5; k++)
        bad += expect(r[k] == want[k], "group_compare %d: %s, want %s", k, group_result(r[k]), group_result(want[k]));
    say("group_compare rank %d: %s %s %s %s %s", rank, group_result(r[0]), group_result(r[1]), group_result(r[2]),
        group_result(r[3]), group_result(r[4]));

    /* Comm_create from the descending evens: members in the group's order. */
    MPI_Comm evens_comm;
    MPI_Comm_create(WORLD, even_group, &evens_comm);
    if (rank % 2) {
        bad += expect(evens_comm == MPI_COMM_NULL, "comm_create: non-member got a communicator");
        say("comm_create rank %d: MPI_COMM_NULL %d", rank, evens_comm == MPI_COMM_NULL);
    } else {
        bad += describe("comm_create evens", rank, evens_comm, evens, nevens);
        bad += compare_comms("world evens", WORLD, evens_comm, size > 1 ? MPI_UNEQUAL : MPI_CONGRUENT);
        MPI_Comm_free(&evens_comm);
    }
    /* And from the whole world group: congruent with the world. */
    MPI_Comm whole;
    MPI_Comm_create(WORLD, world_group, &whole);
    for (int i = 0; i < size; i++)
        ids[i] = i;
    bad += describe("comm_create whole", rank, whole, ids, size);
    bad += compare_comms("world whole", WORLD, whole, MPI_CONGRUENT);
    MPI_Comm_free(&whole);
    MPI_Comm_free(&dup);

    MPI_Group groups[] = {world_group, even_group, rest_group, reversed_group, dup_group, evens_up};
    for (int k = 0; k < 6; k++) {
        MPI_Group_free(&groups[k]);
        bad += expect(groups[k] == MPI_GROUP_NULL, "group_free did not set MPI_GROUP_NULL");
    }
    free(evens), free(ids), free(out);
    return bad;
}

int main(int argc, char **argv)
{
    int rank, size;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(WORLD, &rank);
    MPI_Comm_size(WORLD, &size);

    int bad = test_self(rank, size);
    bad += test_dup(rank, size);
    bad += test_split(rank, size);
    bad += test_groups(rank, size);

    const int status = report_failures(rank, bad);
    MPI_Finalize();
    return status;
}
