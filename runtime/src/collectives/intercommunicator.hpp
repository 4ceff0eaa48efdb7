// The collectives of an intercommunicator, whose members form two groups and whose
// collectives move data from one group to the other (MPI-3.1 §5.2.2).
//
// Data crosses between the groups only at their leaders (rank 0 of each group); within a
// group it moves by the intracommunicator algorithms of collectives/algorithms.hpp. In a
// rooted collective the root (MPI_ROOT) deals with the other group's leader alone, the rest
// of the root's group (MPI_PROC_NULL) takes no part, and the other group relays in itself:
// the algorithms come in a root's half (`..._at_root`) and the other group's half.
//
// As everywhere in collectives/, data is packed bytes; the MPI entry points
// (mpi/collectives.cpp) check the roles, pack and unpack.
#pragma once

#include <cstddef>

#include "collectives/algorithms.hpp"
#include "collectives/channel.hpp"
#include "collectives/reduction.hpp"

namespace bamboo::collectives::inter {

// The two channels of one intercommunicator collective: `across` reaches the other group's
// ranks, `group` the calling task's own group (an intracommunicator).
struct Channels {
    CollectiveChannel& across;
    CollectiveChannel group;

    bool leader() const { return group.rank() == 0; }
};

void barrier(Channels& ch);

void bcast_at_root(CollectiveChannel& across, const void* data, std::size_t bytes);
// `root`: the root's rank in the other group.
void bcast(Channels& ch, int root, void* data, std::size_t bytes);

// `out`: one block for each rank of the other group.
void gather_at_root(CollectiveChannel& across, const Blocks& out);
void gather(Channels& ch, int root, const void* mine, std::size_t my_bytes);

// `in`: one block for each rank of the other group.
void scatter_at_root(CollectiveChannel& across, const Blocks& in);
void scatter(Channels& ch, int root, void* mine, std::size_t my_bytes);

// `out`: one block for each rank of the other group.
void allgather(Channels& ch, const void* mine, std::size_t my_bytes, const Blocks& out);

// Every task straight to every task of the other group; one block for each of them.
void alltoall(CollectiveChannel& across, const Blocks& send, const Blocks& recv);

// `result` gets the reduction over the other group.
void reduce_at_root(CollectiveChannel& across, Operand& result);
void reduce(Channels& ch, int root, Operand& acc, const Reduction& r);

// Each group reduces at its leader and the leaders trade: afterwards the leader's `acc` holds
// the reduction over the other group (elsewhere `acc` is left as the reduction left it).
void reduce_at_leaders_and_trade(Channels& ch, Operand& acc, const Reduction& r);
// Every task's `acc` becomes the reduction over the other group.
void allreduce(Channels& ch, Operand& acc, const Reduction& r);

}  // namespace bamboo::collectives::inter
