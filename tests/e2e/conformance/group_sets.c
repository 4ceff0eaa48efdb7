/* Groups from ranges and set operations, printed as world ranks in group order.
 *   MPI_Group_range_incl  triplets with positive and negative strides, a stride that
 *                         overshoots the last rank, several triplets in the order given
 *   MPI_Group_range_excl  the rest, in the group's order
 *   MPI_Group_union, MPI_Group_intersection, MPI_Group_difference  of groups whose orders
 *                         differ (the first group's order rules), with the empty group
 *   each result's size, the caller's rank in it, and a communicator made from it. */
#include "conformance.h"

/* "name: 5 2 8 (my rank 1)": the members of g as world ranks, in g's order. */
static void show(int rank, const char *name, MPI_Group g, MPI_Group world)
{
    int n, me;
    MPI_Group_size(g, &n);
    MPI_Group_rank(g, &me);
    int *ranks = malloc((n + 1) * sizeof *ranks), *in_world = malloc((n + 1) * sizeof *in_world);
    for (int i = 0; i < n; i++)
        ranks[i] = i;
    MPI_Group_translate_ranks(g, n, ranks, world, in_world);
    char line[512];
    int len = snprintf(line, sizeof line, "rank %d %s:", rank, name);
    for (int i = 0; i < n && len < (int)sizeof line - 16; i++)
        len += snprintf(line + len, sizeof line - len, " %d", in_world[i]);
    snprintf(line + len, sizeof line - len, " (my rank %d)", me == MPI_UNDEFINED ? -1 : me);
    say("%s", line);
    free(ranks);
    free(in_world);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank, size, bad = 0;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Group world, evens, odds_down, mixed, rest, g;
    MPI_Comm_group(MPI_COMM_WORLD, &world);

    int up[1][3] = {{0, size - 1, 2}};
    MPI_Group_range_incl(world, 1, up, &evens);
    show(rank, "evens", evens, world);
    int down[1][3] = {{size - 1 - (size % 2 == 0 ? 0 : 1), 0, -2}};
    if (size > 1) {
        MPI_Group_range_incl(world, 1, down, &odds_down);
    } else {
        odds_down = MPI_GROUP_EMPTY;
    }
    show(rank, "odds downward", odds_down, world);
    int several[2][3] = {{size - 1, size - 1, 1}, {0, size - 2, 3}};
    MPI_Group_range_incl(world, size > 1 ? 2 : 1, several, &mixed);
    show(rank, "last then every third", mixed, world);
    MPI_Group_range_excl(world, size > 1 ? 2 : 1, several, &rest);
    show(rank, "all but those", rest, world);

    MPI_Group_union(odds_down, evens, &g);
    show(rank, "odds downward | evens", g, world);
    int n;
    MPI_Group_size(g, &n);
    bad += expect(n == size, "the union has %d members, want %d", n, size);
    MPI_Group_free(&g);
    MPI_Group_union(mixed, world, &g);
    show(rank, "last then every third | world", g, world);
    MPI_Group_free(&g);
    MPI_Group_intersection(world, mixed, &g);
    show(rank, "world & last then every third", g, world);
    MPI_Group_free(&g);
    MPI_Group_intersection(mixed, world, &g);
    show(rank, "last then every third & world", g, world);
    MPI_Group_free(&g);
    MPI_Group_intersection(evens, odds_down, &g);
    show(rank, "evens & odds", g, world);
    bad += expect(g == MPI_GROUP_EMPTY, "an empty intersection is not MPI_GROUP_EMPTY");
    if (g != MPI_GROUP_EMPTY)
        MPI_Group_free(&g);
    MPI_Group_difference(world, mixed, &g);
    show(rank, "world - last then every third", g, world);
    int same;
    MPI_Group_compare(g, rest, &same);
    bad += expect(same == MPI_IDENT, "world - (ranges) differs from MPI_Group_range_excl");
    MPI_Group_free(&g);
    MPI_Group_difference(mixed, MPI_GROUP_EMPTY, &g);
    show(rank, "last then every third - empty", g, world);

    /* A communicator from a union: its ranks follow the group's order. */
    MPI_Comm comm;
    MPI_Comm_create(MPI_COMM_WORLD, g, &comm);
    if (comm != MPI_COMM_NULL) {
        int sub, sum = 0;
        MPI_Comm_rank(comm, &sub);
        MPI_Allreduce(&rank, &sum, 1, MPI_INT, MPI_SUM, comm);
        say("rank %d: rank %d in the communicator, sum of world ranks %d", rank, sub, sum);
        MPI_Comm_free(&comm);
    }
    MPI_Group_free(&g);

    MPI_Group_free(&evens);
    if (odds_down != MPI_GROUP_EMPTY)
        MPI_Group_free(&odds_down);
    MPI_Group_free(&mixed);
    MPI_Group_free(&rest);
    MPI_Group_free(&world);
    int failures = report_failures(rank, bad);
    MPI_Finalize();
    return failures;
}
