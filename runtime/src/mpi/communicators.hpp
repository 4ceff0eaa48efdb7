// What making a communicator takes, shared by the intracommunicator calls
// (mpi/communicators.cpp), the intercommunicator ones (mpi/intercommunicators.cpp) and the
// topologies (mpi/topologies.cpp).
#pragma once

#include <mpi.h>

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "bamboo.h"
#include "collectives/channel.hpp"
#include "communicators/communicator.hpp"
#include "messaging/rank.hpp"

namespace bamboo {

// One member's part in making communicators from a parent.
struct Proposal {
    int color;
    int key;
    int next_context;
};

// Every member's proposal, in rank order, and the first context the new communicators take.
struct Agreement {
    std::vector<Proposal> proposals;
    int first_context = 0;
};

// Collective over the channel's communicator: every member's proposal.
Agreement agree(CollectiveChannel& ch, int color, int key);
// The `count` context pairs from agreement.first_context on are taken, for every member.
void take_contexts(CollectiveChannel& ch, const Agreement& agreement, int count);
// Gives the task a handle to `comm`, of which it is rank `rank`. It inherits the error
// handler of its parent, as MPI says.
MPI_Comm adopt_communicator(Rank& self, std::shared_ptr<const Communicator> comm, int rank, const CommLocal& parent);
// The same for a new intracommunicator of `vranks`, of which the task is a member.
MPI_Comm adopt(Rank& self, int context, std::vector<int> vranks, const CommLocal& parent, const char* call,
               bamboo_site at, std::optional<Topology> topology = std::nullopt);
// MPI_Comm_split's new communicators: one per color, ranks ordered by key, then by parent
// rank; each gets `topology`. Returns MPI_COMM_NULL for MPI_UNDEFINED.
MPI_Comm split(Rank& self, CollectiveChannel& ch, const CommView& parent, const CommLocal& parent_local,
               int color, int key, const char* call, bamboo_site at,
               std::optional<Topology> topology = std::nullopt);
// "the communicator from MPI_Comm_split at x.c:12", for reports.
std::string made_by(const char* call, bamboo_site at);

MPI_Comm* checked_out(const Rank& self, MPI_Comm* out, const char* call, bamboo_site at);
const Group& group_of(Rank& self, MPI_Group handle, const char* call, bamboo_site at);
MPI_Group new_group(Rank& self, Group group);

// MPI_Comm_dup, MPI_Comm_split and MPI_Comm_create of an intercommunicator
// (mpi/intercommunicators.cpp).
MPI_Comm dup_intercomm(Rank& self, const CommView& inter, const CommLocal& parent, const char* call, bamboo_site at);
MPI_Comm split_intercomm(Rank& self, const CommView& inter, const CommLocal& parent, int color, int key,
                         const char* call, bamboo_site at);
MPI_Comm create_intercomm(Rank& self, const CommView& inter, const CommLocal& parent, const Group& members,
                          const char* call, bamboo_site at);

}  // namespace bamboo
