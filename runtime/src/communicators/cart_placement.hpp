// Placing a Cartesian grid of tasks on processes (MPI_Cart_create with reorder).
//
// Ranks in row-major order put a process's tasks in rows of the grid. A compact block can
// have less surface, so that fewer of a stencil's messages cross processes: 16 tasks on 4
// processes as a non-periodic 4x4 grid cut into rows have 12 neighbour pairs in different
// processes, cut into 2x2 blocks 8.
#pragma once

#include <vector>

#include "communicators/communicator.hpp"

namespace bamboo {

// For each rank of the grid `dims`, the parent rank that takes it, so that every process
// holds one block of the grid, the blocks with the fewest neighbour pairs between processes
// (ties: the shape that keeps runs along the last dimensions, as row-major order does). Empty
// when the grid does not split that way (its cells are not the parent's ranks, the
// processes hold different numbers of them, or no block shape divides the grid): ranks then
// keep their order.
std::vector<int> block_placement(const Communicator& parent, const CartTopology& grid);

}  // namespace bamboo
