// A virtual rank: the task that runs the user's program (core/task.hpp) and what MPI keeps
// for it, which the task knows nothing of: its mailbox and requests, its communicators and
// groups, the firing rule it is putting together, its own rand() state, what it has sent
// (--bamboo-stats) and what it waits for (deadlock reports).
#pragma once

#include <mpi.h>

#include <boost/context/stack_context.hpp>

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "bamboo.h"
#include "comm/communicator.hpp"
#include "comm/handles.hpp"
#include "core/random_state.hpp"
#include "core/task.hpp"
#include "messaging/mailbox.hpp"
#include "messaging/message_stats.hpp"
#include "messaging/requests.hpp"

namespace bamboo {

struct Routes;

// What a waiting rank waits for; read by the deadlock report.
struct WaitInfo {
    const char* call = nullptr;              // the MPI call; nullptr: the firing rule
    bamboo_site site{};
    const Request* request = nullptr;        // a blocking send or receive
    const MPI_Request* handles = nullptr;    // MPI_Wait, MPI_Waitall, MPI_Waitany
    int handle_count = 0;
};

class Rank final : public Task {
public:
    using Entry = int (*)(int argc, char** argv);

    // Runs `entry` (the program's main) with `args` as the task of `stack` and `globals` (see
    // Task) on `worker`; `routes` are its process's.
    Rank(int vrank, Worker& worker, boost::context::stack_context stack, std::shared_ptr<char> globals,
         Entry entry, const std::vector<std::string>& args, Routes& routes);

    // The rank running on this thread, or nullptr outside tasks (every task of the runtime is
    // a rank).
    static Rank* current() { return static_cast<Rank*>(Task::current()); }

    Routes& routes() const { return routes_; }
    Mailbox& mailbox() { return mailbox_; }
    const Mailbox& mailbox() const { return mailbox_; }
    RequestTable& requests() { return requests_; }
    const RequestTable& requests() const { return requests_; }
    const WaitInfo& wait_info() const { return wait_info_; }

    // Running rank only: Task::wait_until, with what it waits for told to the deadlock report.
    template <class Ready>
    void wait_until(const WaitInfo& info, Ready ready) {
        if (ready()) return;
        wait_info_ = info;
        Task::wait_until(ready);
    }
    // ... until `request` completes, waiting in `call` at `at`.
    void wait_for(const Request& request, const char* call, bamboo_site at);
    // ... until an unexpected message that `pattern` accepts is in the mailbox, where it stays.
    void wait_for_message(const Pattern& pattern, const char* call, bamboo_site at);

    // The communicator of this rank whose messages carry `context` (either of its two), or
    // nullptr. For reports; call from the rank itself or while it waits.
    const Communicator* communicator_with_context(int context) const;

    // The rank's view of MPI_Init / MPI_Finalize.
    bool initialized = false;
    bool finalized = false;
    // Expectations gathered by bamboo_expect() for the next bamboo_fire().
    std::vector<Expectation> pending_rule;
    // The rank's rand()/random() generator.
    RandomState random;
    // Communicators and groups the rank made; MPI_COMM_WORLD and MPI_COMM_SELF are not here.
    HandleTable<CommEntry, MPI_Comm> comms;
    HandleTable<Group, MPI_Group> groups;
    std::shared_ptr<const Communicator> self_comm;
    // The rank's own name, error handler and attributes of MPI_COMM_WORLD and MPI_COMM_SELF;
    // those of the communicators it made are in `comms`.
    CommLocal world_local{"MPI_COMM_WORLD", /*predefined_attributes=*/true};
    CommLocal self_local{"MPI_COMM_SELF"};
    HandleTable<UserErrhandler, MPI_Errhandler> errhandlers;
    std::vector<Keyval> keyvals;  // keyval kFirstUserKeyval + i is keyvals[i]
    // Freed communicators stay alive: a report may still name one.
    std::vector<std::shared_ptr<const Communicator>> freed_comms;
    // The context the next communicator made with this rank may take (see comm/communicator.hpp).
    int next_context = kFirstFreeContext;
    MessageCounts sent;
    // Its nonblocking sends lent to ranks of this process, until retired (messaging/delivery.hpp).
    std::vector<Request*> lent_sends;

private:
    int run() override;
    // Closes the mailbox: a message that comes later is dropped with a warning, and one that
    // was never received is warned about now.
    void finish() override;

    Entry entry_;
    std::vector<std::string> args_;
    std::vector<char*> argv_;
    Routes& routes_;
    Mailbox mailbox_;
    RequestTable requests_;
    WaitInfo wait_info_;
};

}  // namespace bamboo
