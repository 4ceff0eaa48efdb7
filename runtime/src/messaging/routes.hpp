// Where a message goes: to a rank of this process, into its mailbox (messaging/delivery.hpp),
// or to another process over the transport, which the process plugs in as a ProcessLink
// (transport/comm_engine.hpp). Also what the ranks of a process share: MPI_COMM_WORLD and the
// buffer budget, and their window parts.
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <mutex>
#include <vector>

#include "communicators/communicator.hpp"
#include "messaging/buffer_budget.hpp"
#include "messaging/message_stats.hpp"
#include "messaging/datatype.hpp"
#include "messaging/mailbox.hpp"
#include "messaging/one_sided.hpp"
#include "messaging/rank.hpp"
#include "messaging/requests.hpp"

namespace bamboo {

// Whether a send to another process may complete only once a receive has taken its message.
enum class ReceiverWait : std::uint8_t {
    never,          // the data is copied (collectives, buffered sends)
    beyond_credit,  // when the receiving process has no credit left for it (standard sends)
    always,         // synchronous sends: complete once a receive has matched the message
};

class ProcessLink {
public:
    // Any rank: sends `data` to rank `dest_vrank` of another process. Returns false when the
    // data has been copied and the send is complete; true when `completion` (a send request
    // owned by the calling rank) completes later: once a large payload has left straight from
    // the user's buffer, or, as `receiver_wait` says (credit: messaging/buffer_budget.hpp),
    // once a receive has taken the message and its data has left. Without `completion` the
    // data is always copied.
    virtual bool send(const Envelope& envelope, int dest_vrank, const TypedBuffer& data, Request* completion,
                      ReceiverWait receiver_wait) = 0;
    // Any thread, also the link's own delivery of a message (a one-sided operation answered
    // at its target, messaging/one_sided.hpp): sends a copy of `data` with the link's next
    // round of work, never starting one of its own.
    virtual void send_later(const Envelope& envelope, int dest_vrank, const TypedBuffer& data) = 0;

    // Rank `vrank` of this process only, from its own task (a send block: Rank::hold_sends):
    // until release_sends(vrank), the link may hold back its messages that complete at once,
    // so that those for one process leave together in one message of the transport.
    virtual void hold_sends(int vrank) = 0;
    virtual void release_sends(int vrank) = 0;

protected:
    ~ProcessLink() = default;
};

struct Routes {
    int process = 0;  // this process's rank in the real MPI_COMM_WORLD
    int process_count = 1;
    int vf = 1;
    int host = 0;  // the lowest process rank on this process's host: which ranks share memory
    std::unique_ptr<BufferBudget> budget;       // for messages sent but not yet received
    std::shared_ptr<const Communicator> world;  // the ranks' MPI_COMM_WORLD
    // The comm directives' communicator, made when a task first needs it (mpi/communicators.cpp).
    std::shared_ptr<const Communicator> directives;
    std::once_flag directives_made;
    std::vector<std::unique_ptr<Rank>> ranks;   // this process's, by vrank
    ProcessLink* link = nullptr;                // to the other processes
    CopyCounts copies;                          // --bamboo-stats
    // Nonblocking sends lent to ranks of this process and not yet taken (messaging/delivery.hpp).
    std::atomic<int> lent_sends{0};
    // The window parts of this process's ranks, for one-sided messages from other processes.
    WindowDirectory windows;

    int process_of(int vrank) const { return vrank / vf; }
    // The rank `vrank` if it lives in this process, else nullptr. Asked on every send, so it
    // compares instead of dividing.
    Rank* local(int vrank) const {
        unsigned index = static_cast<unsigned>(vrank - process * vf);
        return index < static_cast<unsigned>(vf) ? ranks[index].get() : nullptr;
    }
};

}  // namespace bamboo
