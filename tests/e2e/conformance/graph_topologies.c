/* Graph and distributed graph topologies.
 *   MPI_Graph_create      a ring with chords over every rank (self loops and duplicate
 *                         edges where the communicator is small), a graph of fewer nodes
 *                         than ranks (the rest get MPI_COMM_NULL), a graph of no nodes
 *   MPI_Graphdims_get, MPI_Graph_get, MPI_Graph_neighbors_count, MPI_Graph_neighbors (every
 *   node's, asked by every rank), MPI_Graph_map (of the ranks in the graph)
 *   MPI_Topo_test         MPI_GRAPH, MPI_DIST_GRAPH, MPI_CART, MPI_UNDEFINED, and the same of
 *                         MPI_Comm_dup's duplicates, which keep the topology
 *   MPI_Dist_graph_create_adjacent  weighted, MPI_UNWEIGHTED, MPI_WEIGHTS_EMPTY where a rank
 *                         has no edges on one side: neighbours in the order given
 *   MPI_Dist_graph_create edges given by ranks that are not their ends; what each rank gets
 *                         is printed sorted, since MPI leaves its order to the implementation
 * Messages to every graph neighbour (point to point on the new communicator) check that the
 * graph communicators work as communicators. */
#include "conformance.h"

#define WORLD MPI_COMM_WORLD
#define MAXN 64

/* Node i's neighbours: next, previous, and a chord. */
static int ring_with_chords(int n, int index[], int edges[])
{
    int e = 0;
    for (int i = 0; i < n; i++) {
        edges[e++] = (i + 1) % n;
        edges[e++] = (i + n - 1) % n;
        edges[e++] = (3 * i + 1) % n;
        index[i] = e;
    }
    return e;
}

static void append_ints(char *line, size_t size, const int *v, int n)
{
    size_t len = strlen(line);
    for (int i = 0; i < n; i++)
        len += snprintf(line + len, size - len, " %d", v[i]);
}

static int test_graph(int rank, int size)
{
    int bad = 0, index[MAXN], edges[3 * MAXN];
    int nedges = ring_with_chords(size, index, edges);
    MPI_Comm graph, dup;
    MPI_Graph_create(WORLD, size, index, edges, 0, &graph);
    int grank, gsize, status, nnodes, got_edges;
    MPI_Comm_rank(graph, &grank);
    MPI_Comm_size(graph, &gsize);
    bad += expect(grank == rank && gsize == size, "graph: rank %d of %d", grank, gsize);
    MPI_Topo_test(graph, &status);
    bad += expect(status == MPI_GRAPH, "graph: MPI_Topo_test says %d", status);
    MPI_Graphdims_get(graph, &nnodes, &got_edges);
    say("graph rank %d: topo_test %s, %d nodes, %d edges", rank, status == MPI_GRAPH ? "graph" : "other", nnodes,
        got_edges);
    bad += expect(nnodes == size && got_edges == nedges, "graph: dims %d %d", nnodes, got_edges);

    int out_index[MAXN], out_edges[3 * MAXN];
    MPI_Graph_get(graph, size, nedges, out_index, out_edges);
    bad += check_ints("graph: MPI_Graph_get index", out_index, index, size);
    bad += check_ints("graph: MPI_Graph_get edges", out_edges, edges, nedges);

    /* Every node's neighbours, from every rank. */
    uint32_t h = HASH_INIT;
    for (int node = 0; node < size; node++) {
        int count, neighbours[3];
        MPI_Graph_neighbors_count(graph, node, &count);
        MPI_Graph_neighbors(graph, node, 3, neighbours);
        bad += expect(count == 3, "graph: node %d has %d neighbours", node, count);
        bad += check_ints("graph: neighbours", neighbours, edges + 3 * node, 3);
        h = hash_ints(hash_int(h, count), neighbours, 3);
        if (node == rank) {
            char line[256];
            snprintf(line, sizeof line, "graph rank %d: neighbours", rank);
            append_ints(line, sizeof line, neighbours, count);
            say("%s", line);
        }
    }
    say("graph rank %d: every node's neighbours hash %08x", rank, h);

    /* A message to each neighbour; each rank knows from the whole graph whom it hears from. */
    MPI_Request requests[3];
    for (int k = 0; k < 3; k++)
        MPI_Isend(&rank, 1, MPI_INT, edges[3 * rank + k], k, graph, &requests[k]);
    long long sum = 0, want = 0;
    for (int node = 0; node < size; node++) {
        for (int k = 0; k < 3; k++) {
            if (edges[3 * node + k] != rank)
                continue;
            int from;
            MPI_Recv(&from, 1, MPI_INT, node, k, graph, MPI_STATUS_IGNORE);
            sum += from * 10 + k;
            want += node * 10 + k;
        }
    }
    MPI_Waitall(3, requests, MPI_STATUSES_IGNORE);
    bad += expect(sum == want, "graph: messages from neighbours sum to %lld, want %lld", sum, want);
    say("graph rank %d: messages from neighbours sum %lld", rank, sum);

    MPI_Comm_dup(graph, &dup);
    MPI_Topo_test(dup, &status);
    MPI_Graph_get(dup, size, nedges, out_index, out_edges);
    bad += expect(status == MPI_GRAPH, "graph duplicate: MPI_Topo_test says %d", status);
    bad += check_ints("graph duplicate: edges", out_edges, edges, nedges);
    say("graph duplicate rank %d: topo_test %s, edges hash %08x", rank, status == MPI_GRAPH ? "graph" : "other",
        hash_ints(HASH_INIT, out_edges, nedges));
    MPI_Comm_free(&dup);
    MPI_Comm_free(&graph);
    return bad;
}

/* A graph of fewer nodes than ranks, a graph of none, and MPI_Graph_map. */
static int test_graph_subsets(int rank, int size)
{
    int bad = 0, index[MAXN], edges[3 * MAXN];
    int nnodes = size > 1 ? size - 1 : 1;
    ring_with_chords(nnodes, index, edges);
    MPI_Comm graph;
    MPI_Graph_create(WORLD, nnodes, index, edges, 1, &graph);
    if (rank < nnodes) {
        int grank, gsize;
        MPI_Comm_rank(graph, &grank);
        MPI_Comm_size(graph, &gsize);
        bad += expect(graph != MPI_COMM_NULL && gsize == nnodes, "subgraph: size %d", gsize);
        say("subgraph rank %d: rank %d of %d", rank, grank, gsize);
        MPI_Comm_free(&graph);
    } else {
        bad += expect(graph == MPI_COMM_NULL, "subgraph: a rank beyond the nodes got a communicator");
        say("subgraph rank %d: MPI_COMM_NULL", rank);
    }

    MPI_Graph_create(WORLD, 0, index, edges, 0, &graph);
    bad += expect(graph == MPI_COMM_NULL, "empty graph: not MPI_COMM_NULL");
    say("empty graph rank %d: %s", rank, graph == MPI_COMM_NULL ? "MPI_COMM_NULL" : "a communicator");

    /* Ranks beyond the graph's nodes should get MPI_UNDEFINED, but Open MPI gives them their
     * own rank: only the ranks in the graph print. */
    int newrank, half = (size + 1) / 2;
    ring_with_chords(half, index, edges);
    MPI_Graph_map(WORLD, half, index, edges, &newrank);
    if (rank < half) {
        bad += expect(newrank >= 0 && newrank < half, "graph_map: rank %d maps to %d", rank, newrank);
        say("graph_map rank %d: in the graph", rank);
    }
    return bad;
}

static int test_topo_test(int rank, int size)
{
    int bad = 0, status, dims[1] = {size}, periods[1] = {1};
    MPI_Comm cart, dup;
    MPI_Topo_test(WORLD, &status);
    bad += expect(status == MPI_UNDEFINED, "MPI_COMM_WORLD: MPI_Topo_test says %d", status);
    MPI_Cart_create(WORLD, 1, dims, periods, 0, &cart);
    MPI_Comm_dup(cart, &dup);
    MPI_Topo_test(dup, &status);
    bad += expect(status == MPI_CART, "Cartesian duplicate: MPI_Topo_test says %d", status);
    say("topo_test rank %d: world undefined, Cartesian duplicate %s", rank, status == MPI_CART ? "cart" : "other");
    MPI_Comm_free(&dup);
    MPI_Comm_free(&cart);
    return bad;
}

static const char *side_text(char *line, size_t size, const char *what, const int *ranks, const int *weights, int n)
{
    size_t len = strlen(line);
    len += snprintf(line + len, size - len, " %s", what);
    for (int i = 0; i < n; i++)
        len += weights ? snprintf(line + len, size - len, " %d(w%d)", ranks[i], weights[i])
                       : snprintf(line + len, size - len, " %d", ranks[i]);
    return line;
}

/* Two sources and two destinations per rank, in an order that is not sorted. */
static int test_dist_adjacent(int rank, int size)
{
    int bad = 0;
    int sources[2] = {(rank + size - 1) % size, (rank + 2) % size};
    int destinations[2] = {(rank + 1) % size, (rank + size - 2) % size};
    int source_weights[2] = {sources[0] * 100 + rank, sources[1] * 100 + rank};
    int dest_weights[2] = {rank * 100 + destinations[0], rank * 100 + destinations[1]};
    for (int weighted = 1; weighted >= 0; weighted--) {
        MPI_Comm graph, dup;
        MPI_Dist_graph_create_adjacent(WORLD, 2, sources, weighted ? source_weights : MPI_UNWEIGHTED, 2,
                                       destinations, weighted ? dest_weights : MPI_UNWEIGHTED, MPI_INFO_NULL, 0,
                                       &graph);
        MPI_Comm_dup(graph, &dup);
        int status, indegree, outdegree, is_weighted;
        MPI_Topo_test(dup, &status);
        MPI_Dist_graph_neighbors_count(dup, &indegree, &outdegree, &is_weighted);
        bad += expect(status == MPI_DIST_GRAPH, "adjacent: MPI_Topo_test says %d", status);
        bad += expect(indegree == 2 && outdegree == 2 && !is_weighted == !weighted, "adjacent: counts %d %d %d",
                      indegree, outdegree, is_weighted);
        int got_sources[2], got_destinations[2], got_sw[2] = {-1, -1}, got_dw[2] = {-1, -1};
        MPI_Dist_graph_neighbors(dup, 2, got_sources, got_sw, 2, got_destinations, got_dw);
        bad += check_ints("adjacent: sources", got_sources, sources, 2);
        bad += check_ints("adjacent: destinations", got_destinations, destinations, 2);
        if (weighted) {
            bad += check_ints("adjacent: source weights", got_sw, source_weights, 2);
            bad += check_ints("adjacent: destination weights", got_dw, dest_weights, 2);
        }
        char line[512];
        snprintf(line, sizeof line, "adjacent %s rank %d: topo_test %s, weighted %d,",
                 weighted ? "weighted" : "unweighted", rank, status == MPI_DIST_GRAPH ? "dist_graph" : "other",
                 is_weighted);
        side_text(line, sizeof line, "from", got_sources, weighted ? got_sw : NULL, indegree);
        say("%s", side_text(line, sizeof line, "to", got_destinations, weighted ? got_dw : NULL, outdegree));
        MPI_Comm_free(&dup);
        MPI_Comm_free(&graph);
    }

    /* A star: rank 0 sends to all; MPI_WEIGHTS_EMPTY on the sides with no edges. */
    int others[MAXN], weights[MAXN], zero = 0, five = 5;
    for (int r = 1; r < size; r++) {
        others[r - 1] = r;
        weights[r - 1] = r;
    }
    MPI_Comm star;
    if (rank == 0)
        MPI_Dist_graph_create_adjacent(WORLD, 0, NULL, MPI_WEIGHTS_EMPTY, size - 1, others,
                                       size > 1 ? weights : MPI_WEIGHTS_EMPTY, MPI_INFO_NULL, 0, &star);
    else
        MPI_Dist_graph_create_adjacent(WORLD, 1, &zero, &five, 0, NULL, MPI_WEIGHTS_EMPTY, MPI_INFO_NULL, 0, &star);
    int indegree, outdegree, is_weighted;
    MPI_Dist_graph_neighbors_count(star, &indegree, &outdegree, &is_weighted);
    bad += expect(is_weighted && indegree == (rank ? 1 : 0) && outdegree == (rank ? 0 : size - 1),
                  "star: counts %d %d %d", indegree, outdegree, is_weighted);
    say("star rank %d: indegree %d, outdegree %d, weighted %d", rank, indegree, outdegree, is_weighted);
    MPI_Comm_free(&star);
    return bad;
}

struct edge {
    int peer, weight;
};

static int by_peer_then_weight(const void *a, const void *b)
{
    const struct edge *x = a, *y = b;
    return x->peer != y->peer ? x->peer - y->peer : x->weight - y->weight;
}

/* Rank r gives the edges of nodes r+1 and r: r+1 -> r+3, r+1 -> r, r -> 2r. */
static void given_edges(int r, int size, int nodes[2], int degrees[2], int targets[3], int weights[3])
{
    nodes[0] = (r + 1) % size;
    nodes[1] = r;
    degrees[0] = 2;
    degrees[1] = 1;
    targets[0] = (r + 3) % size;
    targets[1] = r;
    targets[2] = (2 * r) % size;
    weights[0] = 10 * r + 1;
    weights[1] = 10 * r + 2;
    weights[2] = 10 * r + 3;
}

static int gather_side(int rank, int size, int incoming, struct edge *out)
{
    int n = 0;
    for (int r = 0; r < size; r++) {
        int nodes[2], degrees[2], targets[3], weights[3];
        given_edges(r, size, nodes, degrees, targets, weights);
        for (int k = 0; k < 3; k++) {
            int source = nodes[k < 2 ? 0 : 1], target = targets[k];
            if (incoming && target == rank)
                out[n++] = (struct edge){source, weights[k]};
            if (!incoming && source == rank)
                out[n++] = (struct edge){target, weights[k]};
        }
    }
    qsort(out, n, sizeof *out, by_peer_then_weight);
    return n;
}

static int test_dist_create(int rank, int size)
{
    int bad = 0, nodes[2], degrees[2], targets[3], weights[3];
    given_edges(rank, size, nodes, degrees, targets, weights);
    for (int weighted = 1; weighted >= 0; weighted--) {
        MPI_Comm graph;
        MPI_Dist_graph_create(WORLD, 2, nodes, degrees, targets, weighted ? weights : MPI_UNWEIGHTED, MPI_INFO_NULL,
                              0, &graph);
        int indegree, outdegree, is_weighted;
        MPI_Dist_graph_neighbors_count(graph, &indegree, &outdegree, &is_weighted);
        int sources[3 * MAXN], sw[3 * MAXN], destinations[3 * MAXN], dw[3 * MAXN];
        MPI_Dist_graph_neighbors(graph, indegree, sources, sw, outdegree, destinations, dw);
        struct edge in[3 * MAXN], out[3 * MAXN], want_in[3 * MAXN], want_out[3 * MAXN];
        for (int i = 0; i < indegree; i++)
            in[i] = (struct edge){sources[i], weighted ? sw[i] : 0};
        for (int i = 0; i < outdegree; i++)
            out[i] = (struct edge){destinations[i], weighted ? dw[i] : 0};
        qsort(in, indegree, sizeof *in, by_peer_then_weight);
        qsort(out, outdegree, sizeof *out, by_peer_then_weight);
        int want_indegree = gather_side(rank, size, 1, want_in), want_outdegree = gather_side(rank, size, 0, want_out);
        bad += expect(indegree == want_indegree && outdegree == want_outdegree && !is_weighted == !weighted,
                      "dist_graph_create: counts %d %d %d, want %d %d", indegree, outdegree, is_weighted,
                      want_indegree, want_outdegree);
        char line[1024];
        int len = snprintf(line, sizeof line, "dist_graph_create %s rank %d: weighted %d, from",
                           weighted ? "weighted" : "unweighted", rank, is_weighted);
        for (int i = 0; i < indegree; i++) {
            len += snprintf(line + len, sizeof line - len, " %d(w%d)", in[i].peer, in[i].weight);
            bad += expect(i < want_indegree && in[i].peer == want_in[i].peer &&
                              (!weighted || in[i].weight == want_in[i].weight),
                          "dist_graph_create: in-edge %d", i);
        }
        len += snprintf(line + len, sizeof line - len, " to");
        for (int i = 0; i < outdegree; i++) {
            len += snprintf(line + len, sizeof line - len, " %d(w%d)", out[i].peer, out[i].weight);
            bad += expect(i < want_outdegree && out[i].peer == want_out[i].peer &&
                              (!weighted || out[i].weight == want_out[i].weight),
                          "dist_graph_create: out-edge %d", i);
        }
        say("%s", line);
        MPI_Comm_free(&graph);
    }
    return bad;
}

int main(int argc, char **argv)
{
    int rank, size;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(WORLD, &rank);
    MPI_Comm_size(WORLD, &size);
    int bad = 0;
    if (size > MAXN) {
        say("at most %d ranks", MAXN);
        MPI_Abort(WORLD, 1);
    }
    bad += test_graph(rank, size);
    bad += test_graph_subsets(rank, size);
    bad += test_topo_test(rank, size);
    bad += test_dist_adjacent(rank, size);
    bad += test_dist_create(rank, size);
    int status = report_failures(rank, bad);
    MPI_Finalize();
    return status;
}
