#include "communicators/topology.hpp"

namespace bamboo {

int CartTopology::cells() const {
    int product = 1;
    for (int d : dims) product *= d;
    return product;
}

void CartTopology::coords(int rank, int* out) const {
    for (std::size_t i = dims.size(); i-- > 0;) {
        out[i] = rank % dims[i];
        rank /= dims[i];
    }
}

int CartTopology::rank(const int* coords) const {
    int rank = 0;
    for (std::size_t i = 0; i < dims.size(); ++i) {
        int c = coords[i];
        if (periods[i]) c = ((c % dims[i]) + dims[i]) % dims[i];
        else if (c < 0 || c >= dims[i]) return -1;
        rank = rank * dims[i] + c;
    }
    return rank;
}

int CartTopology::shifted(int rank, int dim, int offset) const {
    std::vector<int> at(dims.size());
    coords(rank, at.data());
    at[static_cast<std::size_t>(dim)] += offset;
    return this->rank(at.data());
}

std::vector<int> GraphTopology::neighbours(int rank) const {
    auto r = static_cast<std::size_t>(rank);
    int first = r == 0 ? 0 : index[r - 1];
    return std::vector<int>(edges.begin() + first, edges.begin() + index[r]);
}

namespace {

struct NeighboursOf {
    int rank;

    Neighbours operator()(const CartTopology& grid) const {
        Neighbours n;
        n.cartesian = true;
        for (int d = 0; d < static_cast<int>(grid.dims.size()); ++d) {
            for (int offset : {-1, 1}) {
                n.sources.push_back(grid.shifted(rank, d, offset));
                n.destinations.push_back(n.sources.back());
            }
        }
        return n;
    }
    Neighbours operator()(const GraphTopology& graph) const {
        std::vector<int> both = graph.neighbours(rank);
        return Neighbours{both, both};
    }
    Neighbours operator()(const DistGraphTopology& graph) const {
        return Neighbours{graph.sources, graph.destinations};
    }
};

}  // namespace

Neighbours neighbours_of(const Topology& topology, int rank) { return std::visit(NeighboursOf{rank}, topology); }

}  // namespace bamboo
