// The collective algorithms, over a CollectiveChannel (seed 001, Table 2), each crossing the
// two levels of collectives/structure.hpp: within each process, then between processes.
//
//   barrier    fan-in, dissemination (Bruck) between processes, fan-out     ceil(lg Q) rounds
//   bcast      binomial tree between processes, then within each            ceil(lg Q) rounds
//   reduce     binomial tree within each process, then between processes
//   allreduce  reduce within, recursive doubling between (with the non-power-of-two fold),
//              broadcast within
//   gather     within each process, then a binomial tree between; scatter the reverse.
//              Blocks of 8 KiB and more go straight to the root
//   allgather  gather within, Bruck between, broadcast within
//   alltoall   gather within, Bruck between, scatter within; blocks over 1 KiB go
//              straight from every task to every other
//   alltoallv  every task straight to every other (block sizes are known only pairwise)
//   neighbor   every task straight to each neighbour of its communicator's topology
//   scan       recursive doubling in rank order
//
// Q is the number of processes hosting members. Reductions with an operation that is not
// commutative combine in rank order over all tasks, as MPI requires. An intercommunicator's
// collectives are in collectives/intercommunicator.hpp. Data-moving collectives work on
// packed bytes; the MPI entry points (mpi/collectives.cpp) pack and unpack the user's
// datatypes.
//
// Where a collective has more than one algorithm, the choice is made below alone, so that the
// algorithms (collectives/data.cpp, reduce.cpp) and the firing rules that mirror them step by
// step (collectives/rules.cpp) cannot disagree. Every member of a call must choose alike, so a
// choice reads only what all of them know: the size of a block when every rank knows every
// size (MPI_Gather, MPI_Alltoall, not their v-forms), and whether the operation commutes. Two
// choices are not algorithms and are made where the data is: a contiguous datatype is moved
// where it lies, any other is packed (mpi/collective_call.hpp), and a result whose blocks lie
// back to back in the order they travel is received straight into the user's buffer
// (collectives/data.cpp).
#pragma once

#include <cstddef>
#include <vector>

#include "collectives/channel.hpp"
#include "collectives/reduction.hpp"
#include "communicators/topology.hpp"

namespace bamboo::collectives {

// ---- Which algorithm runs ----

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

// ---- The algorithms ----

// Where each rank's block of packed bytes lives.
struct Blocks {
    char* base = nullptr;
    std::vector<std::size_t> offset;  // by rank
    std::vector<std::size_t> size;    // by rank

    char* at(int rank) const { return base + offset[static_cast<std::size_t>(rank)]; }
};

void barrier(CollectiveChannel& ch);
void bcast(CollectiveChannel& ch, int root, void* data, std::size_t bytes);

// `sizes`: every rank's block size when every rank knows them all (MPI_Gather), else
// nullptr (MPI_Gatherv). `out` only at the root.
void gather(CollectiveChannel& ch, int root, const void* mine, std::size_t my_bytes,
            const std::vector<std::size_t>* sizes, const Blocks* out);
// `in` only at the root; `sizes` as for gather.
void scatter(CollectiveChannel& ch, int root, const Blocks* in,
             const std::vector<std::size_t>* sizes, void* mine, std::size_t my_bytes);
// `mine` may be this rank's own block in `out` (MPI_IN_PLACE).
void allgather(CollectiveChannel& ch, const void* mine, const Blocks& out);
// Every member's `mine`, in rank order: a plain value, which travels as its bytes.
template <class T>
std::vector<T> allgather_value(CollectiveChannel& ch, const T& mine) {
    std::vector<T> all(static_cast<std::size_t>(ch.size()));
    Blocks blocks;
    blocks.base = reinterpret_cast<char*>(all.data());
    for (std::size_t r = 0; r < all.size(); ++r) {
        blocks.offset.push_back(r * sizeof(T));
        blocks.size.push_back(sizeof(T));
    }
    allgather(ch, &mine, blocks);
    return all;
}
// `send` and `recv`: size() blocks of `block` bytes each, in rank order.
void alltoall(CollectiveChannel& ch, const char* send, char* recv, std::size_t block);
void alltoallv(CollectiveChannel& ch, const Blocks& send, const Blocks& recv);
// The neighbourhood collectives: block i of `send` to neighbours.destinations[i], block i of
// `recv` from neighbours.sources[i]; none to or from a neighbour -1 (MPI_PROC_NULL). A
// neighbour named twice gets its blocks in order, as the matching rules pair them.
void neighbor_exchange(CollectiveChannel& ch, const Neighbours& neighbours, const Blocks& send, const Blocks& recv);

// Reductions: `acc` holds this task's operand and, where the result lands, the result.
void reduce(CollectiveChannel& ch, int root, Operand& acc, const Reduction& r);
void allreduce(CollectiveChannel& ch, Operand& acc, const Reduction& r);
void scan(CollectiveChannel& ch, Operand& acc, const Reduction& r);
// On rank 0 `acc` is left as it was (MPI leaves that result undefined).
void exscan(CollectiveChannel& ch, Operand& acc, const Reduction& r);

// The collectives as firing rules name them (bamboo_collective in bamboo.h).
enum class Kind { barrier, bcast, reduce, allreduce, gather, scatter, allgather, alltoall,
                  alltoallv, reduce_scatter, scan, exscan };

// The messages this task's part of a collective receives before it first sends: what a
// firing rule may wait for. `commutative` matters for reductions only; `number` is the call's
// among the collectives on `comm` (Rank::next_collective_number).
std::vector<Pattern> first_receives(Kind kind, const Communicator& comm, int rank, int root,
                                    bool commutative, unsigned number);

}  // namespace bamboo::collectives
