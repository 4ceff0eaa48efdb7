// The processes that share this node with the calling one.
#pragma once

#include <vector>

namespace bamboo {

// Their ranks in MPI_COMM_WORLD, this process's included, as MPI_COMM_TYPE_SHARED groups
// them. Collective over MPI_COMM_WORLD.
std::vector<int> processes_on_this_node();

}  // namespace bamboo
