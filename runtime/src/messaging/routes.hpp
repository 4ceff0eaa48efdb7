// Where a message goes: to a rank of this process, into its mailbox (messaging/delivery.hpp),
// or to another process over the transport. Also what the ranks of a process share:
// MPI_COMM_WORLD and the buffer budget.
#pragma once

#include <memory>
#include <vector>

#include "comm/communicator.hpp"
#include "messaging/buffer_budget.hpp"
#include "messaging/rank.hpp"

namespace bamboo {

struct Routes {
    int process = 0;  // this process's rank in the real MPI_COMM_WORLD
    int process_count = 1;
    int vf = 1;
    std::unique_ptr<BufferBudget> budget;       // for messages sent but not yet received
    std::shared_ptr<const Communicator> world;  // the ranks' MPI_COMM_WORLD
    std::vector<std::unique_ptr<Rank>> ranks;   // this process's, by vrank

    int process_of(int vrank) const { return vrank / vf; }
    // The rank `vrank` if it lives in this process, else nullptr. Asked on every send, so it
    // compares instead of dividing.
    Rank* local(int vrank) const {
        unsigned index = static_cast<unsigned>(vrank - process * vf);
        return index < static_cast<unsigned>(vf) ? ranks[index].get() : nullptr;
    }
};

}  // namespace bamboo
