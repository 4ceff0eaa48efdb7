// Topologies: Cartesian grids, graphs and distributed graphs. Making one is collective over
// the parent, like any communicator; the queries are local. The new communicators keep the
// parent's ranks in order, except a Cartesian grid with `reorder`
// (communicators/cart_placement.hpp): graphs ignore `reorder`, as MPI allows.
#include <mpi.h>

#include <algorithm>
#include <cstddef>
#include <numeric>
#include <vector>

#include "bamboo.h"
#include "collectives/algorithms.hpp"
#include "collectives/channel.hpp"
#include "communicators/cart_placement.hpp"
#include "communicators/topology.hpp"
#include "messaging/rank.hpp"
#include "mpi/api.hpp"
#include "mpi/communicators.hpp"
#include "util/errors.hpp"
#include "util/mpi_guard.hpp"

namespace bamboo {
namespace {

std::vector<int> first_ranks(int n) {
    std::vector<int> ranks(static_cast<std::size_t>(n));
    std::iota(ranks.begin(), ranks.end(), 0);
    return ranks;
}

// The communicator of the parent's ranks `takers` (its rank i is parent rank takers[i]) with
// `topology`, or MPI_COMM_NULL for a task not among them. Collective over the parent, on `ch`.
MPI_Comm adopt_topology(Rank& self, CollectiveChannel& ch, MPI_Comm comm, const CommView& parent,
                        const std::vector<int>& takers, Topology topology, const char* call, bamboo_site at) {
    Agreement agreement = agree(ch, 0, 0);
    take_contexts(ch, agreement, 1);
    if (std::find(takers.begin(), takers.end(), parent.rank) == takers.end()) return MPI_COMM_NULL;
    std::vector<int> vranks;
    for (int r : takers) vranks.push_back(parent.comm->vrank_of(r));
    return adopt(self, agreement.first_context, std::move(vranks), comm_local(self, comm, call, at), call, at,
                 std::move(topology));
}

// The topology of kind T (`kind` in reports) of `view`'s communicator, else MPI_ERR_TOPOLOGY.
template <class T>
const T& topology_of(const Rank& self, const CommView& view, const char* kind, const char* call, bamboo_site at) {
    const Topology* topology = view.comm->topology();
    const T* found = topology ? std::get_if<T>(topology) : nullptr;
    if (!found) call_error(MPI_ERR_TOPOLOGY, self.vrank(), call, at, "%s has no %s topology", view.comm->name().c_str(), kind);
    return *found;
}

const CartTopology& cart_of(const Rank& self, const CommView& view, const char* call, bamboo_site at) {
    return topology_of<CartTopology>(self, view, "Cartesian", call, at);
}

const GraphTopology& graph_of(const Rank& self, const CommView& view, const char* call, bamboo_site at) {
    return topology_of<GraphTopology>(self, view, "graph", call, at);
}

const DistGraphTopology& dist_graph_of(const Rank& self, const CommView& view, const char* call, bamboo_site at) {
    return topology_of<DistGraphTopology>(self, view, "distributed graph", call, at);
}

// The neighbours of `rank` in the graph of `comm`, both checked.
std::vector<int> graph_neighbours(const char* call, bamboo_site at, MPI_Comm comm, int rank) {
    Rank& self = calling_rank(call, at);
    CommView view = resolve_comm(self, comm, call, at);
    const GraphTopology& graph = graph_of(self, view, call, at);
    check_rank(self, view, rank, "the", MPI_ERR_RANK, call, at);
    return graph.neighbours(rank);
}

// MPI_Graph_create's and MPI_Graph_map's graph of `nnodes` nodes, checked: degrees that do not
// go down, edges that name nodes.
GraphTopology checked_graph(const Rank& self, const CommView& comm, int nnodes, const int index[], const int edges[],
                            const char* call, bamboo_site at) {
    if (nnodes < 0 || nnodes > comm.size())
        call_error(MPI_ERR_ARG, self.vrank(), call, at, "nnodes %d is out of range (0..%d, the size of %s)", nnodes,
                   comm.size(), comm.comm->name().c_str());
    GraphTopology graph;
    if (nnodes == 0) return graph;
    check_not_null(self, index, "the index array", call, at);
    for (int i = 0; i < nnodes; ++i) {
        int previous = i == 0 ? 0 : index[i - 1];
        if (index[i] < previous)
            call_error(MPI_ERR_ARG, self.vrank(), call, at, "index[%d] is %d, below %d: a node's degree is negative", i,
                       index[i], previous);
        graph.index.push_back(index[i]);
    }
    if (graph.index.back() > 0) check_not_null(self, edges, "the edges array", call, at);
    for (int e = 0; e < graph.index.back(); ++e) {
        if (edges[e] < 0 || edges[e] >= nnodes)
            call_error(MPI_ERR_ARG, self.vrank(), call, at, "edges[%d] is %d, not a node of the graph (0..%d)", e,
                       edges[e], nnodes - 1);
        graph.edges.push_back(edges[e]);
    }
    return graph;
}

// One side of a task's distributed-graph edges, checked: `degree` ranks of `comm` (`what`) and
// their weights, or weights of 1 for MPI_UNWEIGHTED.
void checked_side(const Rank& self, const CommView& comm, int degree, const int ranks[], const int weights[],
                  const char* what, std::vector<int>* out_ranks, std::vector<int>* out_weights, const char* call,
                  bamboo_site at) {
    check_count(self, degree, "the degree", call, at);
    if (degree == 0) return;
    check_not_null(self, ranks, what, call, at);
    if (weights == MPI_WEIGHTS_EMPTY)
        call_error(MPI_ERR_ARG, self.vrank(), call, at, "the weights are MPI_WEIGHTS_EMPTY but the degree is %d", degree);
    if (weights != MPI_UNWEIGHTED) check_not_null(self, weights, "the weights", call, at);
    for (int i = 0; i < degree; ++i) {
        check_rank(self, comm, ranks[i], "the neighbour", MPI_ERR_RANK, call, at);
        int weight = weights == MPI_UNWEIGHTED ? 1 : weights[i];
        if (weight < 0) call_error(MPI_ERR_ARG, self.vrank(), call, at, "the weight %d is negative", weight);
        out_ranks->push_back(ranks[i]);
        out_weights->push_back(weight);
    }
}

// An edge of MPI_Dist_graph_create, as it travels to its two ends.
struct Edge {
    int source;
    int target;
    int weight;
};

// MPI_Dist_graph_create's edges, given by any member, delivered to their ends: each member
// learns the edges into and out of it, ordered by the member that gave them, then as it
// listed them. An alltoall of counts, then of the edges, on `ch`.
DistGraphTopology deliver_edges(CollectiveChannel& ch, const std::vector<Edge>& given, bool weighted) {
    auto n = static_cast<std::size_t>(ch.size());
    std::vector<std::vector<Edge>> to(n);
    for (const Edge& e : given) {
        to[static_cast<std::size_t>(e.source)].push_back(e);
        if (e.target != e.source) to[static_cast<std::size_t>(e.target)].push_back(e);
    }
    std::vector<int> send_counts(n), recv_counts(n);
    for (std::size_t r = 0; r < n; ++r) send_counts[r] = static_cast<int>(to[r].size());
    collectives::alltoall(ch, reinterpret_cast<const char*>(send_counts.data()),
                          reinterpret_cast<char*>(recv_counts.data()), sizeof(int));
    std::vector<Edge> sent, received;
    collectives::Blocks send, recv;
    for (std::size_t r = 0; r < n; ++r) {
        send.offset.push_back(sent.size() * sizeof(Edge));
        send.size.push_back(to[r].size() * sizeof(Edge));
        sent.insert(sent.end(), to[r].begin(), to[r].end());
        recv.offset.push_back(recv.size.empty() ? 0 : recv.offset.back() + recv.size.back());
        recv.size.push_back(static_cast<std::size_t>(recv_counts[r]) * sizeof(Edge));
    }
    received.resize((recv.offset.back() + recv.size.back()) / sizeof(Edge));
    send.base = reinterpret_cast<char*>(sent.data());
    recv.base = reinterpret_cast<char*>(received.data());
    collectives::alltoallv(ch, send, recv);

    DistGraphTopology graph;
    graph.weighted = weighted;
    for (const Edge& e : received) {
        if (e.target == ch.rank()) {
            graph.sources.push_back(e.source);
            graph.source_weights.push_back(e.weight);
        }
        if (e.source == ch.rank()) {
            graph.destinations.push_back(e.target);
            graph.destination_weights.push_back(e.weight);
        }
    }
    return graph;
}

// Up to `max` of `values` into `out` (MPI_Graph_get and friends: the caller says how much room).
void copy_out(const std::vector<int>& values, int max, int out[]) {
    std::size_t n = std::min(values.size(), static_cast<std::size_t>(std::max(max, 0)));
    std::copy(values.begin(), values.begin() + static_cast<std::ptrdiff_t>(n), out);
}

// A Cartesian grid of `ndims` dimensions over `parent`, checked (MPI_Cart_create, MPI_Cart_map).
CartTopology checked_grid(Rank& self, const CommView& parent, int ndims, const int dims[], const int periods[],
                          const char* call, bamboo_site at) {
    intra_only(self, parent, call, at);
    check_count(self, ndims, "the number of dimensions", call, at);
    CartTopology topology;
    for (int d = 0; d < ndims; ++d) {
        if (dims[d] <= 0) call_error(MPI_ERR_DIMS, self.vrank(), call, at, "dimension %d has size %d", d, dims[d]);
        topology.dims.push_back(dims[d]);
        topology.periods.push_back(periods[d] != 0);
    }
    long long cells = 1;
    for (int d : topology.dims) cells *= d;
    if (cells > parent.size())
        call_error(MPI_ERR_ARG, self.vrank(), call, at, "the grid has %lld cells but %s has only %d ranks", cells,
                   parent.comm->name().c_str(), parent.size());
    return topology;
}

// The parent rank that takes each cell of the grid. With `reorder`, each process takes a
// compact block of the grid (communicators/cart_placement.hpp); else, and where the grid does
// not split into such blocks, ranks keep their order.
std::vector<int> grid_takers(const CommView& parent, const CartTopology& topology, bool reorder) {
    std::vector<int> taker;
    if (reorder) taker = block_placement(*parent.comm, topology);
    if (taker.empty()) {
        long long cells = 1;
        for (int d : topology.dims) cells *= d;
        taker = first_ranks(static_cast<int>(cells));
    }
    return taker;
}

}  // namespace
}  // namespace bamboo

using namespace bamboo;

extern "C" {

int bamboo_dims_create(bamboo_site at, int nnodes, int ndims, int dims[]) {
    return checked_call(MPI_COMM_WORLD, [&]() -> int {
        calling_rank("MPI_Dims_create", at);
        MpiGuard guard;  // the library's own: the same factors as plain MPI chooses
        return MPI_Dims_create(nnodes, ndims, dims);
    });
}

int bamboo_cart_create(bamboo_site at, MPI_Comm comm, int ndims, const int dims[], const int periods[],
                       int reorder, MPI_Comm* newcomm) {
    return checked_call(comm, [&]() -> int {
        const char* call = "MPI_Cart_create";
        Rank& self = calling_rank(call, at);
        checked_out(self, newcomm, call, at);
        CommView parent = resolve_comm(self, comm, call, at);
        CartTopology topology = checked_grid(self, parent, ndims, dims, periods, call, at);
        std::vector<int> taker = grid_takers(parent, topology, reorder != 0);
        CollectiveChannel ch(self, parent, call, at);
        *newcomm = adopt_topology(self, ch, comm, parent, taker, std::move(topology), call, at);
        return MPI_SUCCESS;
    });
}

// The rank MPI_Cart_create with `reorder` gives this task in the same grid.
int bamboo_cart_map(bamboo_site at, MPI_Comm comm, int ndims, const int dims[], const int periods[], int* newrank) {
    return checked_call(comm, [&]() -> int {
        const char* call = "MPI_Cart_map";
        Rank& self = calling_rank(call, at);
        check_not_null(self, newrank, "the new rank's pointer", call, at);
        CommView parent = resolve_comm(self, comm, call, at);
        std::vector<int> taker = grid_takers(parent, checked_grid(self, parent, ndims, dims, periods, call, at), true);
        auto mine = std::find(taker.begin(), taker.end(), parent.rank);
        *newrank = mine == taker.end() ? MPI_UNDEFINED : static_cast<int>(mine - taker.begin());
        return MPI_SUCCESS;
    });
}

int bamboo_cart_sub(bamboo_site at, MPI_Comm comm, const int remain_dims[], MPI_Comm* newcomm) {
    return checked_call(comm, [&]() -> int {
        const char* call = "MPI_Cart_sub";
        Rank& self = calling_rank(call, at);
        checked_out(self, newcomm, call, at);
        CommView parent = resolve_comm(self, comm, call, at);
        const CartTopology& grid = cart_of(self, parent, call, at);
        std::vector<int> coords(grid.dims.size());
        grid.coords(parent.rank, coords.data());
        // Tasks that agree in the dropped dimensions share a sub-grid; rank order (row-major)
        // is kept, which is the order of the remaining coordinates.
        CartTopology sub;
        int color = 0;
        for (std::size_t d = 0; d < grid.dims.size(); ++d) {
            if (remain_dims[d]) {
                sub.dims.push_back(grid.dims[d]);
                sub.periods.push_back(grid.periods[d]);
            } else {
                color = color * grid.dims[d] + coords[d];
            }
        }
        CollectiveChannel ch(self, parent, call, at);
        *newcomm = split(self, ch, parent, comm_local(self, comm, call, at), color, parent.rank, call, at,
                         std::move(sub));
        return MPI_SUCCESS;
    });
}

int bamboo_cart_coords(bamboo_site at, MPI_Comm comm, int rank, int maxdims, int coords[]) {
    return checked_call(comm, [&]() -> int {
        const char* call = "MPI_Cart_coords";
        Rank& self = calling_rank(call, at);
        CommView view = resolve_comm(self, comm, call, at);
        const CartTopology& grid = cart_of(self, view, call, at);
        check_rank(self, view, rank, "the", MPI_ERR_RANK, call, at);
        if (maxdims < static_cast<int>(grid.dims.size()))
            call_error(MPI_ERR_ARG, self.vrank(), call, at, "maxdims %d is below the grid's %zu dimensions", maxdims, grid.dims.size());
        grid.coords(rank, coords);
        return MPI_SUCCESS;
    });
}

int bamboo_cart_rank(bamboo_site at, MPI_Comm comm, const int coords[], int* rank) {
    return checked_call(comm, [&]() -> int {
        const char* call = "MPI_Cart_rank";
        Rank& self = calling_rank(call, at);
        const CartTopology& grid = cart_of(self, resolve_comm(self, comm, call, at), call, at);
        *rank = grid.rank(coords);
        if (*rank < 0) call_error(MPI_ERR_ARG, self.vrank(), call, at, "the coordinates lie outside a non-periodic dimension");
        return MPI_SUCCESS;
    });
}

int bamboo_cart_shift(bamboo_site at, MPI_Comm comm, int direction, int disp, int* source, int* dest) {
    return checked_call(comm, [&]() -> int {
        const char* call = "MPI_Cart_shift";
        Rank& self = calling_rank(call, at);
        CommView view = resolve_comm(self, comm, call, at);
        const CartTopology& grid = cart_of(self, view, call, at);
        if (direction < 0 || direction >= static_cast<int>(grid.dims.size()))
            call_error(MPI_ERR_DIMS, self.vrank(), call, at, "direction %d is not a dimension of the grid (0..%zu)", direction,
                       grid.dims.size() - 1);
        auto neighbour = [&](int offset) {
            int r = grid.shifted(view.rank, direction, offset);
            return r < 0 ? MPI_PROC_NULL : r;
        };
        *dest = neighbour(disp);
        *source = neighbour(-disp);
        return MPI_SUCCESS;
    });
}

int bamboo_cart_get(bamboo_site at, MPI_Comm comm, int maxdims, int dims[], int periods[], int coords[]) {
    return checked_call(comm, [&]() -> int {
        const char* call = "MPI_Cart_get";
        Rank& self = calling_rank(call, at);
        CommView view = resolve_comm(self, comm, call, at);
        const CartTopology& grid = cart_of(self, view, call, at);
        std::size_t n = std::min(grid.dims.size(), static_cast<std::size_t>(std::max(maxdims, 0)));
        std::vector<int> mine(grid.dims.size());
        grid.coords(view.rank, mine.data());
        for (std::size_t d = 0; d < n; ++d) {
            dims[d] = grid.dims[d];
            periods[d] = grid.periods[d];
            coords[d] = mine[d];
        }
        return MPI_SUCCESS;
    });
}

int bamboo_cartdim_get(bamboo_site at, MPI_Comm comm, int* ndims) {
    return checked_call(comm, [&]() -> int {
        const char* call = "MPI_Cartdim_get";
        Rank& self = calling_rank(call, at);
        *ndims = static_cast<int>(cart_of(self, resolve_comm(self, comm, call, at), call, at).dims.size());
        return MPI_SUCCESS;
    });
}

int bamboo_topo_test(bamboo_site at, MPI_Comm comm, int* status) {
    return checked_call(comm, [&]() -> int {
        Rank& self = calling_rank("MPI_Topo_test", at);
        const Topology* topology = resolve_comm(self, comm, "MPI_Topo_test", at).comm->topology();
        static constexpr int kinds[] = {MPI_CART, MPI_GRAPH, MPI_DIST_GRAPH};  // by Topology's alternatives
        *status = topology ? kinds[topology->index()] : MPI_UNDEFINED;
        return MPI_SUCCESS;
    });
}


int bamboo_graph_create(bamboo_site at, MPI_Comm comm, int nnodes, const int index[], const int edges[],
                        int /*reorder*/, MPI_Comm* newcomm) {
    return checked_call(comm, [&]() -> int {
        const char* call = "MPI_Graph_create";
        Rank& self = calling_rank(call, at);
        checked_out(self, newcomm, call, at);
        CommView parent = resolve_comm(self, comm, call, at);
        intra_only(self, parent, call, at);
        GraphTopology graph = checked_graph(self, parent, nnodes, index, edges, call, at);
        CollectiveChannel ch(self, parent, call, at);
        *newcomm = adopt_topology(self, ch, comm, parent, first_ranks(nnodes), std::move(graph), call, at);
        return MPI_SUCCESS;
    });
}

int bamboo_graph_map(bamboo_site at, MPI_Comm comm, int nnodes, const int index[], const int edges[], int* newrank) {
    return checked_call(comm, [&]() -> int {
        const char* call = "MPI_Graph_map";
        Rank& self = calling_rank(call, at);
        CommView view = resolve_comm(self, comm, call, at);
        check_not_null(self, newrank, "the new rank's pointer", call, at);
        checked_graph(self, view, nnodes, index, edges, call, at);
        *newrank = view.rank < nnodes ? view.rank : MPI_UNDEFINED;  // MPI_Graph_create keeps ranks
        return MPI_SUCCESS;
    });
}

int bamboo_graphdims_get(bamboo_site at, MPI_Comm comm, int* nnodes, int* nedges) {
    return checked_call(comm, [&]() -> int {
        const char* call = "MPI_Graphdims_get";
        Rank& self = calling_rank(call, at);
        const GraphTopology& graph = graph_of(self, resolve_comm(self, comm, call, at), call, at);
        *nnodes = graph.nodes();
        *nedges = static_cast<int>(graph.edges.size());
        return MPI_SUCCESS;
    });
}

int bamboo_graph_get(bamboo_site at, MPI_Comm comm, int maxindex, int maxedges, int index[], int edges[]) {
    return checked_call(comm, [&]() -> int {
        const char* call = "MPI_Graph_get";
        Rank& self = calling_rank(call, at);
        const GraphTopology& graph = graph_of(self, resolve_comm(self, comm, call, at), call, at);
        copy_out(graph.index, maxindex, index);
        copy_out(graph.edges, maxedges, edges);
        return MPI_SUCCESS;
    });
}

int bamboo_graph_neighbors_count(bamboo_site at, MPI_Comm comm, int rank, int* nneighbors) {
    return checked_call(comm, [&]() -> int {
        *nneighbors = static_cast<int>(graph_neighbours("MPI_Graph_neighbors_count", at, comm, rank).size());
        return MPI_SUCCESS;
    });
}

int bamboo_graph_neighbors(bamboo_site at, MPI_Comm comm, int rank, int maxneighbors, int neighbors[]) {
    return checked_call(comm, [&]() -> int {
        copy_out(graph_neighbours("MPI_Graph_neighbors", at, comm, rank), maxneighbors, neighbors);
        return MPI_SUCCESS;
    });
}

int bamboo_dist_graph_create_adjacent(bamboo_site at, MPI_Comm comm, int indegree, const int sources[],
                                      const int sourceweights[], int outdegree, const int destinations[],
                                      const int destweights[], MPI_Info /*info*/, int /*reorder*/,
                                      MPI_Comm* newcomm) {
    return checked_call(comm, [&]() -> int {
        const char* call = "MPI_Dist_graph_create_adjacent";
        Rank& self = calling_rank(call, at);
        checked_out(self, newcomm, call, at);
        CommView parent = resolve_comm(self, comm, call, at);
        intra_only(self, parent, call, at);
        DistGraphTopology graph;
        checked_side(self, parent, indegree, sources, sourceweights, "the sources", &graph.sources,
                     &graph.source_weights, call, at);
        checked_side(self, parent, outdegree, destinations, destweights, "the destinations", &graph.destinations,
                     &graph.destination_weights, call, at);
        graph.weighted = sourceweights != MPI_UNWEIGHTED && destweights != MPI_UNWEIGHTED;
        CollectiveChannel ch(self, parent, call, at);
        *newcomm = adopt_topology(self, ch, comm, parent, first_ranks(parent.size()), std::move(graph), call, at);
        return MPI_SUCCESS;
    });
}

int bamboo_dist_graph_create(bamboo_site at, MPI_Comm comm, int n, const int nodes[], const int degrees[],
                             const int targets[], const int weights[], MPI_Info /*info*/, int /*reorder*/,
                             MPI_Comm* newcomm) {
    return checked_call(comm, [&]() -> int {
        const char* call = "MPI_Dist_graph_create";
        Rank& self = calling_rank(call, at);
        checked_out(self, newcomm, call, at);
        CommView parent = resolve_comm(self, comm, call, at);
        intra_only(self, parent, call, at);
        check_count(self, n, "the number of source nodes", call, at);
        if (n > 0) {
            check_not_null(self, nodes, "the source nodes", call, at);
            check_not_null(self, degrees, "the degrees", call, at);
        }
        std::vector<Edge> given;
        for (int i = 0, next = 0; i < n; ++i) {
            check_rank(self, parent, nodes[i], "the source node", MPI_ERR_RANK, call, at);
            std::vector<int> ends, end_weights;
            bool no_weights = weights == MPI_UNWEIGHTED || weights == MPI_WEIGHTS_EMPTY;
            checked_side(self, parent, degrees[i], targets + next, no_weights ? weights : weights + next, "the targets",
                         &ends, &end_weights, call, at);
            for (std::size_t k = 0; k < ends.size(); ++k) given.push_back(Edge{nodes[i], ends[k], end_weights[k]});
            next += degrees[i];
        }
        CollectiveChannel ch(self, parent, call, at);
        DistGraphTopology graph = deliver_edges(ch, given, weights != MPI_UNWEIGHTED);
        *newcomm = adopt_topology(self, ch, comm, parent, first_ranks(parent.size()), std::move(graph), call, at);
        return MPI_SUCCESS;
    });
}

int bamboo_dist_graph_neighbors_count(bamboo_site at, MPI_Comm comm, int* indegree, int* outdegree, int* weighted) {
    return checked_call(comm, [&]() -> int {
        const char* call = "MPI_Dist_graph_neighbors_count";
        Rank& self = calling_rank(call, at);
        const DistGraphTopology& graph = dist_graph_of(self, resolve_comm(self, comm, call, at), call, at);
        *indegree = static_cast<int>(graph.sources.size());
        *outdegree = static_cast<int>(graph.destinations.size());
        *weighted = graph.weighted;
        return MPI_SUCCESS;
    });
}

int bamboo_dist_graph_neighbors(bamboo_site at, MPI_Comm comm, int maxindegree, int sources[], int sourceweights[],
                                int maxoutdegree, int destinations[], int destweights[]) {
    return checked_call(comm, [&]() -> int {
        const char* call = "MPI_Dist_graph_neighbors";
        Rank& self = calling_rank(call, at);
        const DistGraphTopology& graph = dist_graph_of(self, resolve_comm(self, comm, call, at), call, at);
        copy_out(graph.sources, maxindegree, sources);
        copy_out(graph.destinations, maxoutdegree, destinations);
        // An unweighted graph's weights are not significant: the arrays stay untouched.
        if (graph.weighted && sourceweights != MPI_UNWEIGHTED) copy_out(graph.source_weights, maxindegree, sourceweights);
        if (graph.weighted && destweights != MPI_UNWEIGHTED) copy_out(graph.destination_weights, maxoutdegree, destweights);
        return MPI_SUCCESS;
    });
}

}  // extern "C"
