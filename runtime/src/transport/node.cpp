#include "transport/node.hpp"

#include <mpi.h>

namespace bamboo {

std::vector<int> processes_on_this_node() {
    MPI_Comm node;
    MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &node);
    MPI_Group node_group, world_group;
    MPI_Comm_group(node, &node_group);
    MPI_Comm_group(MPI_COMM_WORLD, &world_group);
    int size = 0;
    MPI_Group_size(node_group, &size);
    std::vector<int> node_ranks(size), world_ranks(size);
    for (int i = 0; i < size; ++i) node_ranks[i] = i;
    MPI_Group_translate_ranks(node_group, size, node_ranks.data(), world_group, world_ranks.data());
    MPI_Group_free(&node_group);
    MPI_Group_free(&world_group);
    MPI_Comm_free(&node);
    return world_ranks;
}

}  // namespace bamboo
