// The topologies a communicator may carry: a Cartesian grid (MPI_Cart_create), a graph every
// member knows whole (MPI_Graph_create), or a distributed graph of which each member knows
// only its own edges (MPI_Dist_graph_create*). Also each rank's neighbours in them, in the
// order the neighbourhood collectives (MPI_Neighbor_*) lay out their blocks.
#pragma once

#include <variant>
#include <vector>

namespace bamboo {

// A Cartesian process grid (MPI_Cart_create); ranks are numbered in row-major order.
struct CartTopology {
    std::vector<int> dims;
    std::vector<int> periods;  // 0 or 1 per dimension

    int cells() const;
    void coords(int rank, int* out) const;
    // The rank at `coords` (wrapped in periodic dimensions), or -1 if it lies outside.
    int rank(const int* coords) const;
    // The rank `offset` steps from `rank` along dimension `dim`, or -1 off a non-periodic edge.
    int shifted(int rank, int dim, int offset) const;
};

// A graph over ranks 0..nodes-1 (MPI_Graph_create), as MPI_Graph_get gives it: node i's
// neighbours are edges[index[i-1] .. index[i]).
struct GraphTopology {
    std::vector<int> index;
    std::vector<int> edges;

    int nodes() const { return static_cast<int>(index.size()); }
    std::vector<int> neighbours(int rank) const;
};

// The calling member's edges of a distributed graph: whom it receives from and sends to, in
// the order MPI_Dist_graph_neighbors gives them. Weights are all 1 when unweighted.
struct DistGraphTopology {
    std::vector<int> sources, source_weights;
    std::vector<int> destinations, destination_weights;
    bool weighted = false;
};

using Topology = std::variant<CartTopology, GraphTopology, DistGraphTopology>;

// A rank's neighbours, as the neighbourhood collectives number their blocks: block i of the
// receive buffer comes from sources[i], block i of the send buffer goes to destinations[i].
// -1 for a Cartesian neighbour off a non-periodic edge (MPI_PROC_NULL: nothing moves).
struct Neighbours {
    std::vector<int> sources;
    std::vector<int> destinations;
    // Cartesian: block i of the send buffer lands in block i^1 of the neighbour's receive
    // buffer (what goes to the -1 neighbour comes to it from its +1 side), also where both
    // sides are the same rank (a periodic dimension of 1 or 2). Graphs: the k-th block a rank
    // sends another lands in the k-th block the other receives from it.
    bool cartesian = false;
};

// In a Cartesian grid, dimension by dimension, the neighbour at -1 then the one at +1 (both
// ways); in a graph, the node's edges both ways.
Neighbours neighbours_of(const Topology& topology, int rank);

}  // namespace bamboo
