/* Neighbourhood collectives, blocking and nonblocking.
 *   MPI_Neighbor_allgather(v), MPI_Neighbor_alltoall(v, w), MPI_Ineighbor_* of each
 *   on Cartesian grids: a non-periodic line (MPI_PROC_NULL neighbours at its ends: their
 *   blocks stay as they were), 2D and 3D grids periodic in their dimensions of 3 and more,
 *   and a periodic ring, blocking calls only: with 1 or 2 ranks a rank is its neighbour on
 *   both sides, and the block it sends one way must come the other way (MPI-4.1 8.6), which
 *   Open MPI 4.1's nonblocking ones get wrong; on a graph (a ring with chords between
 *   opposite ranks, each edge once: a graph whose nodes do not list each other as often
 *   leaves a rank waiting for ever, under any MPI) and on distributed graphs (asymmetric,
 *   weighted, MPI_Dist_graph_create_adjacent; and MPI_Dist_graph_create, whose neighbour
 *   order is the implementation's: its blocks are printed sorted by neighbour).
 * Every block carries who sent it and to which of its neighbours, so a block in the wrong
 * place changes the printed lines (alltoallv's blocks, and a hash of every call's); each rank also checks its blocks against what its
 * neighbours must have sent, computed from the topology.
 * Receive datatypes that are not contiguous (a vector) and blocks of different sizes
 * (alltoallv, alltoallw) check the unpacking; two nonblocking ones run at once. */
#include "conformance.h"

#define WORLD MPI_COMM_WORLD
#define MAXDEG 8
#define UNTOUCHED (-7)

/* What rank `from` sends as its block for its k-th destination (item i of it). */
static int block_value(int from, int k, int i)
{
    return from * 1000 + k * 10 + i;
}

struct topo {
    const char *name;
    MPI_Comm comm;
    int blocking_only;
    int sorted; /* print blocks sorted by neighbour: MPI leaves their order open */
    int indegree, outdegree;
    int sources[MAXDEG], destinations[MAXDEG];
};

/* A rank's neighbours, as MPI defines them for each kind of topology. */
static void neighbours(struct topo *t, int rank)
{
    int status;
    MPI_Topo_test(t->comm, &status);
    if (status == MPI_CART) {
        int ndims;
        MPI_Cartdim_get(t->comm, &ndims);
        t->indegree = t->outdegree = 2 * ndims;
        for (int d = 0; d < ndims; d++) {
            MPI_Cart_shift(t->comm, d, 1, &t->sources[2 * d], &t->sources[2 * d + 1]);
            t->destinations[2 * d] = t->sources[2 * d];
            t->destinations[2 * d + 1] = t->sources[2 * d + 1];
        }
    } else if (status == MPI_GRAPH) {
        MPI_Graph_neighbors_count(t->comm, rank, &t->indegree);
        t->outdegree = t->indegree;
        MPI_Graph_neighbors(t->comm, rank, MAXDEG, t->sources);
        memcpy(t->destinations, t->sources, sizeof t->sources);
    } else {
        int weighted;
        MPI_Dist_graph_neighbors_count(t->comm, &t->indegree, &t->outdegree, &weighted);
        int source_weights[MAXDEG], destination_weights[MAXDEG];
        MPI_Dist_graph_neighbors(t->comm, MAXDEG, t->sources, source_weights, MAXDEG, t->destinations,
                                 destination_weights);
    }
}

/* The index k under which `from` sends to `to` for the j-th time. Matching pairs the j-th
 * block `from` sends `to` with the j-th block `to` expects from `from`. */
static int sender_index(int from, int to, int j, const int *from_destinations, int outdegree)
{
    for (int k = 0; k < outdegree; k++)
        if (from_destinations[k] == to && j-- == 0)
            return k;
    return -1;
}

/* Every rank's destinations: only a distributed graph's own ranks know theirs. */
struct everyone {
    int outdegree[64];
    int destinations[64][MAXDEG];
};

/* The index under which `source` sent the block that came as block i of `t`'s receive
 * buffer (the j-th from that source is the j-th it sent this rank). */
static int index_at_source(const struct topo *t, const struct everyone *all, int rank, int i)
{
    int status;
    MPI_Topo_test(t->comm, &status);
    if (status == MPI_CART)
        return i ^ 1; /* what goes to the -1 neighbour comes to it from its +1 side */
    int source = t->sources[i], j = 0;
    for (int p = 0; p < i; p++)
        j += t->sources[p] == source;
    return sender_index(source, rank, j, all->destinations[source], all->outdegree[source]);
}

struct block {
    int source, values[3];
};

static int by_source_then_values(const void *a, const void *b)
{
    const struct block *x = a, *y = b;
    if (x->source != y->source)
        return x->source - y->source;
    return memcmp(x->values, y->values, sizeof x->values);
}

/* Describes what came from each source (counts[i] ints of block i at recv + displs[i]),
 * adding the text to `h`, and checks it against what the source sent: with `alltoall`, its
 * block for this rank, else its one block for all. Where the neighbour order is the
 * implementation's (`sorted`), the blocks are listed sorted by source, each by its first
 * item less its index at the source. */
static int report(const struct topo *t, const struct everyone *all, int rank, const char *what, const int *recv,
                  const int *displs, const int *counts, int alltoall, uint32_t *h)
{
    int bad = 0;
    struct block blocks[MAXDEG];
    for (int i = 0; i < t->indegree; i++) {
        int source = t->sources[i];
        blocks[i].source = source;
        memset(blocks[i].values, 0, sizeof blocks[i].values);
        if (source == MPI_PROC_NULL) {
            for (int v = 0; v < counts[i]; v++)
                bad += expect(recv[displs[i] + v] == UNTOUCHED, "%s %s: block %d from MPI_PROC_NULL was written",
                              t->name, what, i);
            continue;
        }
        int k = alltoall ? index_at_source(t, all, rank, i) : 0;
        for (int v = 0; v < counts[i]; v++) {
            blocks[i].values[v] = t->sorted ? recv[displs[i] + v] - 10 * k : recv[displs[i] + v];
            bad += expect(recv[displs[i] + v] == block_value(source, k, v), "%s %s: block %d item %d is %d, want %d",
                          t->name, what, i, v, recv[displs[i] + v], block_value(source, k, v));
        }
    }
    if (t->sorted)
        qsort(blocks, t->indegree, sizeof *blocks, by_source_then_values);
    char line[1024];
    int len = snprintf(line, sizeof line, "%s %s rank %d:", t->name, what, rank);
    for (int i = 0; i < t->indegree; i++) {
        if (blocks[i].source == MPI_PROC_NULL) {
            len += snprintf(line + len, sizeof line - len, " [null]");
            continue;
        }
        len += snprintf(line + len, sizeof line - len, " [%d:", blocks[i].source);
        for (int v = 0; v < (t->sorted ? 1 : counts[i]); v++)
            len += snprintf(line + len, sizeof line - len, " %d", blocks[i].values[v]);
        len += snprintf(line + len, sizeof line - len, "]");
    }
    *h = hash_bytes(*h, line, strlen(line));
    if (strcmp(what, "alltoallv") == 0)
        say("%s", line);
    return bad;
}

static int test_topology(struct topo *t, int rank)
{
    int bad = 0;
    neighbours(t, rank);
    struct everyone all;
    MPI_Allgather(&t->outdegree, 1, MPI_INT, all.outdegree, 1, MPI_INT, WORLD);
    MPI_Allgather(t->destinations, MAXDEG, MPI_INT, all.destinations, MAXDEG, MPI_INT, WORLD);
    uint32_t h = HASH_INIT;

    int send[MAXDEG * 3], recv[MAXDEG * 3], displs[MAXDEG], counts[MAXDEG];

    /* allgather: one block of 2 for everyone. */
    send[0] = block_value(rank, 0, 0);
    send[1] = block_value(rank, 0, 1);
    for (int i = 0; i < MAXDEG * 3; i++)
        recv[i] = UNTOUCHED;
    MPI_Neighbor_allgather(send, 2, MPI_INT, recv, 2, MPI_INT, t->comm);
    for (int i = 0; i < t->indegree; i++) {
        displs[i] = 2 * i;
        counts[i] = 2;
    }
    bad += report(t, &all, rank, "allgather", recv, displs, counts, 0, &h);

    /* allgatherv into a vector type (every other int), blocks in reverse order. */
    MPI_Datatype every_other, spaced;
    MPI_Type_vector(2, 1, 2, MPI_INT, &every_other);
    MPI_Type_create_resized(every_other, 0, 4 * sizeof(int), &spaced);
    MPI_Type_commit(&spaced);
    int wide[MAXDEG * 4], vcounts[MAXDEG], vdispls[MAXDEG];
    for (int i = 0; i < MAXDEG * 4; i++)
        wide[i] = UNTOUCHED;
    for (int i = 0; i < t->indegree; i++) {
        vcounts[i] = 1;
        vdispls[i] = t->indegree - 1 - i;
    }
    MPI_Neighbor_allgatherv(send, 2, MPI_INT, wide, vcounts, vdispls, spaced, t->comm);
    for (int i = 0; i < t->indegree; i++) {
        recv[2 * i] = wide[4 * vdispls[i]];
        recv[2 * i + 1] = wide[4 * vdispls[i] + 2];
        bad += expect(wide[4 * vdispls[i] + 1] == UNTOUCHED && wide[4 * vdispls[i] + 3] == UNTOUCHED,
                      "%s allgatherv: the gaps of the vector type were written", t->name);
    }
    bad += report(t, &all, rank, "allgatherv", recv, displs, counts, 0, &h);
    MPI_Type_free(&every_other);
    MPI_Type_free(&spaced);

    /* alltoall: block k (2 ints) to destination k. */
    for (int k = 0; k < t->outdegree; k++)
        for (int v = 0; v < 2; v++)
            send[2 * k + v] = block_value(rank, k, v);
    for (int i = 0; i < MAXDEG * 3; i++)
        recv[i] = UNTOUCHED;
    MPI_Neighbor_alltoall(send, 2, MPI_INT, recv, 2, MPI_INT, t->comm);
    bad += report(t, &all, rank, "alltoall", recv, displs, counts, 1, &h);

    /* alltoallv: to destination k, 1 + (k % 3) ints; displacements from the far end. The
     * receiver expects of source i what that source sends under the matching index. */
    int scounts[MAXDEG], sdispls[MAXDEG], rcounts[MAXDEG], rdispls[MAXDEG];
    for (int k = 0, at = 3 * MAXDEG; k < t->outdegree; k++) {
        scounts[k] = 1 + k % 3;
        at -= 3;
        sdispls[k] = at;
        for (int v = 0; v < scounts[k]; v++)
            send[at + v] = block_value(rank, k, v);
    }
    for (int i = 0; i < t->indegree; i++) {
        int k = t->sources[i] == MPI_PROC_NULL ? 0 : index_at_source(t, &all, rank, i);
        rcounts[i] = 1 + k % 3;
        rdispls[i] = 3 * i;
    }
    for (int i = 0; i < MAXDEG * 3; i++)
        recv[i] = UNTOUCHED;
    MPI_Neighbor_alltoallv(send, scounts, sdispls, MPI_INT, recv, rcounts, rdispls, MPI_INT, t->comm);
    bad += report(t, &all, rank, "alltoallv", recv, rdispls, rcounts, 1, &h);

    /* alltoallw: the same blocks, in bytes, each its own (contiguous) type. */
    MPI_Datatype stypes[MAXDEG], rtypes[MAXDEG];
    MPI_Aint sbytes[MAXDEG], rbytes[MAXDEG];
    for (int k = 0; k < t->outdegree; k++) {
        MPI_Type_contiguous(scounts[k], MPI_INT, &stypes[k]);
        MPI_Type_commit(&stypes[k]);
        sbytes[k] = (MPI_Aint)(sdispls[k] * sizeof(int));
    }
    int ones[MAXDEG];
    for (int i = 0; i < t->indegree; i++) {
        MPI_Type_contiguous(rcounts[i], MPI_INT, &rtypes[i]);
        MPI_Type_commit(&rtypes[i]);
        rbytes[i] = (MPI_Aint)(rdispls[i] * sizeof(int));
        ones[i] = 1;
    }
    for (int i = 0; i < MAXDEG * 3; i++)
        recv[i] = UNTOUCHED;
    MPI_Neighbor_alltoallw(send, ones, sbytes, stypes, recv, ones, rbytes, rtypes, t->comm);
    bad += report(t, &all, rank, "alltoallw", recv, rdispls, rcounts, 1, &h);

    if (t->blocking_only)
        goto done;
    /* The nonblocking ones: allgather and alltoall at once, then v and w. */
    int recv2[MAXDEG * 3], gathered[MAXDEG * 3];
    for (int i = 0; i < MAXDEG * 3; i++)
        recv2[i] = gathered[i] = UNTOUCHED;
    int one[2] = {block_value(rank, 0, 0), block_value(rank, 0, 1)}, blocks2[MAXDEG * 2];
    for (int k = 0; k < t->outdegree; k++)
        for (int v = 0; v < 2; v++)
            blocks2[2 * k + v] = block_value(rank, k, v);
    MPI_Request requests[2];
    MPI_Ineighbor_allgather(one, 2, MPI_INT, gathered, 2, MPI_INT, t->comm, &requests[0]);
    MPI_Ineighbor_alltoall(blocks2, 2, MPI_INT, recv2, 2, MPI_INT, t->comm, &requests[1]);
    MPI_Waitall(2, requests, MPI_STATUSES_IGNORE);
    bad += report(t, &all, rank, "iallgather", gathered, displs, counts, 0, &h);
    bad += report(t, &all, rank, "ialltoall", recv2, displs, counts, 1, &h);

    for (int i = 0; i < t->indegree; i++) {
        vcounts[i] = 2;
        vdispls[i] = 2 * (t->indegree - 1 - i);
    }
    for (int i = 0; i < MAXDEG * 3; i++)
        gathered[i] = UNTOUCHED;
    MPI_Ineighbor_allgatherv(one, 2, MPI_INT, gathered, vcounts, vdispls, MPI_INT, t->comm, &requests[0]);
    MPI_Wait(&requests[0], MPI_STATUS_IGNORE);
    bad += report(t, &all, rank, "iallgatherv", gathered, vdispls, counts, 0, &h);

    for (int i = 0; i < MAXDEG * 3; i++)
        recv[i] = UNTOUCHED;
    MPI_Ineighbor_alltoallv(send, scounts, sdispls, MPI_INT, recv, rcounts, rdispls, MPI_INT, t->comm, &requests[0]);
    MPI_Wait(&requests[0], MPI_STATUS_IGNORE);
    bad += report(t, &all, rank, "ialltoallv", recv, rdispls, rcounts, 1, &h);

    for (int i = 0; i < MAXDEG * 3; i++)
        recv[i] = UNTOUCHED;
    MPI_Ineighbor_alltoallw(send, ones, sbytes, stypes, recv, ones, rbytes, rtypes, t->comm, &requests[0]);
    MPI_Wait(&requests[0], MPI_STATUS_IGNORE);
    bad += report(t, &all, rank, "ialltoallw", recv, rdispls, rcounts, 1, &h);

done:
    for (int k = 0; k < t->outdegree; k++)
        MPI_Type_free(&stypes[k]);
    for (int i = 0; i < t->indegree; i++)
        MPI_Type_free(&rtypes[i]);
    say("%s rank %d: every collective's blocks hash %08x", t->name, rank, h);
    return bad;
}

/* The `n` candidates, each once, without `self`; returns how many. */
static int distinct(const int *candidates, int n, int self, int *out)
{
    int count = 0;
    for (int i = 0; i < n; i++) {
        int seen = candidates[i] == self;
        for (int j = 0; j < count; j++)
            seen |= out[j] == candidates[i];
        if (!seen)
            out[count++] = candidates[i];
    }
    return count;
}

int main(int argc, char **argv)
{
    int rank, size, bad = 0;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(WORLD, &rank);
    MPI_Comm_size(WORLD, &size);
    if (size > 64) {
        say("at most 64 ranks");
        MPI_Abort(WORLD, 1);
    }

    struct topo line = {"line"}, ring = {"ring", .blocking_only = 1}, grid = {"grid2d"}, cube = {"grid3d"},
                graph = {"graph"}, adjacent = {"adjacent"}, dist = {"dist_graph", .sorted = 1};
    int periods[3] = {0, 0, 0}, dims[3] = {size, 0, 0};
    MPI_Cart_create(WORLD, 1, dims, periods, 0, &line.comm);
    periods[0] = 1;
    MPI_Cart_create(WORLD, 1, dims, periods, 0, &ring.comm);
    dims[0] = 0;
    MPI_Dims_create(size, 2, dims);
    for (int d = 0; d < 2; d++)
        periods[d] = dims[d] >= 3;
    MPI_Cart_create(WORLD, 2, dims, periods, 0, &grid.comm);
    dims[0] = dims[1] = dims[2] = 0;
    MPI_Dims_create(size, 3, dims);
    periods[0] = 0;
    periods[1] = dims[1] >= 3;
    periods[2] = 0;
    MPI_Cart_create(WORLD, 3, dims, periods, 0, &cube.comm);

    int index[64], edges[3 * 64], e = 0;
    for (int i = 0; i < size; i++) {
        /* A graph's neighbours send to each other: the chords join opposite ranks. */
        int chord = size % 2 == 0 ? (i + size / 2) % size : (i + 1) % size;
        int candidates[3] = {(i + 1) % size, chord, (i + size - 1) % size};
        e += distinct(candidates, 3, i, edges + e);
        index[i] = e;
    }
    MPI_Graph_create(WORLD, size, index, edges, 0, &graph.comm);

    /* Asymmetric: from r-1 and r+2, to r+1 and r-2. */
    int from[2] = {(rank + size - 1) % size, (rank + 2) % size}, to[2] = {(rank + 1) % size, (rank + size - 2) % size};
    int sources[2], destinations[2], weights[2] = {1, 2};
    int indegree = distinct(from, 2, -1, sources), outdegree = distinct(to, 2, -1, destinations);
    MPI_Dist_graph_create_adjacent(WORLD, indegree, sources, weights, outdegree, destinations, weights, MPI_INFO_NULL,
                                   0, &adjacent.comm);

    /* Rank r gives node r+1's edge to r+2, and its own to r+3 (unless that is the same). */
    int nodes[2] = {(rank + 1) % size, rank}, degrees[2] = {1, size > 2 ? 1 : 0};
    int targets[2] = {(rank + 2) % size, (rank + 3) % size};
    MPI_Dist_graph_create(WORLD, 2, nodes, degrees, targets, MPI_UNWEIGHTED, MPI_INFO_NULL, 0, &dist.comm);

    struct topo *all[] = {&line, &ring, &grid, &cube, &graph, &adjacent, &dist};
    for (size_t i = 0; i < sizeof all / sizeof all[0]; i++) {
        bad += test_topology(all[i], rank);
        MPI_Comm_free(&all[i]->comm);
    }
    int status = report_failures(rank, bad);
    MPI_Finalize();
    return status;
}
