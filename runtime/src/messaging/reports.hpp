// How error and deadlock reports name messages: by the sender's rank in its communicator,
// the tag and the communicator, as the user's program sees them.
#pragma once

#include <string>

#include "communicators/communicator.hpp"
#include "messaging/mailbox.hpp"

namespace bamboo {

class Rank;

// The communicator's name, or "the communicator of context 4" when it is unknown (nullptr).
std::string describe_comm(const Communicator* comm, int context);

// "vrank 2" on MPI_COMM_WORLD, "rank 1 (vrank 5)" on others, "any source".
std::string describe_rank(const Communicator* comm, int rank);

// "a message from vrank 2, tag 7, MPI_COMM_WORLD"; for a collective's own messages "a
// message of the collective from rank 1 (vrank 5) of the communicator from MPI_Comm_split at
// x.c:12". `comm` may be nullptr when the communicator is unknown.
std::string describe_message(const Communicator* comm, const Pattern& pattern);

// What the waiting `rank` waits for: "for a message from vrank 2, tag 7, MPI_COMM_WORLD", or
// "for: " and a list (requests, a firing rule's missing messages). Meaningful only while the
// rank waits (or is about to, with its WaitInfo set).
std::string describe_awaited(const Rank& rank);

// One line on what `rank` waits for, e.g. "task vrank 3 waits in MPI_Recv at ring.c:14 for a
// message from vrank 2, tag 7, MPI_COMM_WORLD" (deadlock reports).
std::string describe_wait(const Rank& rank);

}  // namespace bamboo
