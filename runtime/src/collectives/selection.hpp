// Which algorithm a collective runs, where it has more than one. The choices are made here
// alone, so that the algorithms (collectives/data.cpp, reduce.cpp) and the firing rules that
// mirror them step by step (collectives/rules.cpp) cannot disagree.
//
// Every member of a call must choose alike, so a choice reads only what all of them know:
// the size of a block when every rank knows every size (MPI_Gather, MPI_Alltoall, not their
// v-forms), and whether the operation commutes. Two choices are not algorithms and are made
// where the data is: a contiguous datatype is moved where it lies, any other is packed
// (mpi/collective_call.hpp), and a result whose blocks lie back to back in the order they
// travel is received straight into the user's buffer (collectives/data.cpp). An
// intercommunicator's collectives are their own algorithms (collectives/intercommunicator.hpp),
// chosen by the MPI entry points from the communicator.
#pragma once

#include <cstddef>
#include <vector>

namespace bamboo::collectives {

// Blocks up to this size make alltoall aggregate them within each process and run Bruck's
// algorithm between processes: few messages, each carrying many blocks, for latency-bound
// exchanges. Larger blocks go straight from every task to every other: each is copied once,
// by its sender, and the copies spread over the workers.
constexpr std::size_t kAlltoallAggregateMaxBlock = 1024;
// The same for gather, whose blocks a leader would otherwise copy once more on their way:
// from this size every task sends its block straight to the root.
constexpr std::size_t kGatherAggregateMaxBlock = 8192;

enum class AlltoallAlgorithm { bruck_between_processes, pairwise };
inline AlltoallAlgorithm alltoall_algorithm(std::size_t block) {
    return block > kAlltoallAggregateMaxBlock ? AlltoallAlgorithm::pairwise
                                              : AlltoallAlgorithm::bruck_between_processes;
}

// `sizes`: every rank's block size where all ranks know them (MPI_Gather), else nullptr.
enum class GatherAlgorithm { two_level_tree, straight_to_root };
inline GatherAlgorithm gather_algorithm(const std::vector<std::size_t>* sizes) {
    bool large = sizes && !sizes->empty() && (*sizes)[0] >= kGatherAggregateMaxBlock;
    return large ? GatherAlgorithm::straight_to_root : GatherAlgorithm::two_level_tree;
}

// An operation that does not commute is combined in rank order over all tasks, as MPI
// requires; one that does, within each process first and then between processes.
enum class ReductionAlgorithm { two_level, rank_order };
inline ReductionAlgorithm reduction_algorithm(bool commutative) {
    return commutative ? ReductionAlgorithm::two_level : ReductionAlgorithm::rank_order;
}

}  // namespace bamboo::collectives
