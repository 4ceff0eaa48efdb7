#include "communicators/cart_placement.hpp"

#include <functional>
#include <limits>
#include <utility>

namespace bamboo {
namespace {

int row_major(const std::vector<int>& coords, const std::vector<int>& dims) {
    int index = 0;
    for (std::size_t d = 0; d < dims.size(); ++d) index = index * dims[d] + coords[d];
    return index;
}

// The block shape for `per_process` tasks (block[d] divides dims[d]) that cuts the least
// area between processes, then the fewest neighbour pairs; among equals the first found,
// which has the longest runs along the last dimensions.
//
// The runtime does not know how big the tasks' data is, so it takes the grid's domain to
// be as long in every dimension (a cube split by MPI_Dims_create's balanced dims, as most
// programs do): every plane cut across it then has the same area, and the bytes a halo
// exchange sends between processes go with the number of cut planes. Counting neighbour
// pairs instead would treat the tasks as cubes: a cube domain on a 16x8x8 grid of 24x48x48
// tasks, 4 to a process, then comes out as 24x96x96 blocks (1x2x2 tasks), with 20 % more
// surface than 48x96x48 blocks (2x2x1 tasks), which split as few pairs.
std::vector<int> best_block(const CartTopology& grid, int per_process) {
    const std::vector<int>& dims = grid.dims;
    long long cells = grid.cells();
    std::vector<int> block(dims.size(), 1), best;
    std::pair<long long, long long> best_split{std::numeric_limits<long long>::max(), 0};
    std::function<void(std::size_t, int)> choose = [&](std::size_t d, int left) {
        if (d == dims.size()) {
            if (left != 1) return;
            long long planes = 0, pairs = 0;
            for (std::size_t k = 0; k < dims.size(); ++k) {
                // Cut planes across dimension k, each splitting cells/dims[k] neighbour pairs.
                // A periodic ring closes with one more cut, except a ring of two cells,
                // whose wrap-around joins the same pair again.
                int blocks = dims[k] / block[k];
                int cuts = blocks > 1 && grid.periods[k] && dims[k] > 2 ? blocks : blocks - 1;
                planes += cuts;
                pairs += cuts * (cells / dims[k]);
            }
            if (std::make_pair(planes, pairs) < best_split) best_split = {planes, pairs}, best = block;
            return;
        }
        for (int b = 1; b <= dims[d] && b <= left; ++b) {
            if (dims[d] % b || left % b) continue;
            block[d] = b;
            choose(d + 1, left / b);
        }
        block[d] = 1;
    };
    choose(0, per_process);
    return best;
}

}  // namespace

std::vector<int> block_placement(const Communicator& parent, const CartTopology& grid) {
    const std::vector<int>& dims = grid.dims;
    long long cells = grid.cells();
    int processes = parent.process_count();
    if (dims.empty() || cells != parent.size()) return {};
    int per_process = parent.member_count(0);
    for (int p = 1; p < processes; ++p)
        if (parent.member_count(p) != per_process) return {};
    std::vector<int> block = best_block(grid, per_process);
    if (block.empty()) return {};

    std::vector<int> process_grid(dims.size()), coords(dims.size()), process_coords(dims.size()),
        local_coords(dims.size());
    for (std::size_t d = 0; d < dims.size(); ++d) process_grid[d] = dims[d] / block[d];
    std::vector<int> taker(static_cast<std::size_t>(cells));
    for (int rank = 0; rank < cells; ++rank) {
        for (std::size_t d = dims.size(), r = static_cast<std::size_t>(rank); d-- > 0;) {
            coords[d] = static_cast<int>(r % static_cast<std::size_t>(dims[d]));
            r /= static_cast<std::size_t>(dims[d]);
        }
        for (std::size_t d = 0; d < dims.size(); ++d) {
            process_coords[d] = coords[d] / block[d];
            local_coords[d] = coords[d] % block[d];
        }
        int process = row_major(process_coords, process_grid);
        taker[static_cast<std::size_t>(rank)] = parent.members_begin(process)[row_major(local_coords, block)];
    }
    return taker;
}

}  // namespace bamboo
