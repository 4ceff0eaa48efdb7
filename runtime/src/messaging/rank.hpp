// A virtual rank: the task that runs the user's program (core/task.hpp) and what MPI keeps
// for it, which the task knows nothing of: its mailbox and requests, its communicators,
// groups, windows and files, the firing rule it is putting together, its own C library state
// (rand(), drand48(), strtok(), getopt()), what it has sent
// (--bamboo-stats) and what it waits for (deadlock reports).
#pragma once

#include <mpi.h>

#include <boost/context/stack_context.hpp>

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

#include "bamboo.h"
#include "communicators/communicator.hpp"
#include "communicators/file.hpp"
#include "communicators/handles.hpp"
#include "core/background.hpp"
#include "core/drand48_state.hpp"
#include "core/getopt_session.hpp"
#include "core/random_state.hpp"
#include "core/task.hpp"
#include "messaging/announced_receives.hpp"
#include "messaging/mailbox.hpp"
#include "messaging/message_stats.hpp"
#include "messaging/requests.hpp"
#include "trace/recorder.hpp"

namespace bamboo {

struct Routes;

// The buffer a task attached for its buffered sends (MPI_Buffer_attach).
struct AttachedBuffer {
    void* base = nullptr;
    int size = 0;
};

// What a waiting rank waits for; read by the deadlock report.
struct WaitInfo {
    const char* call = nullptr;              // the MPI call; nullptr: the firing rule
    bamboo_site site{};
    const Request* request = nullptr;        // a blocking send or receive
    const MPI_Request* handles = nullptr;    // MPI_Wait, MPI_Waitall, MPI_Waitany
    int handle_count = 0;
    const char* what = nullptr;              // a wait for something other than messages
};

// A message a matched probe took: no other receive can take it now.
struct MatchedMessage {
    Message message;
    const Communicator* comm;  // its communicator, for the receive's reports
    MPI_Comm errors_to;        // as the program named it, for a truncation's error handler
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
    // On the stack of the rank's background work (a nonblocking collective), the wait hands
    // the thread back to the rank's own code instead. The rank's own waits let its background
    // work go on meanwhile.
    template <class Ready>
    void wait_until(const WaitInfo& info, Ready ready) {
        if (ready()) return;
        if (background.inside()) {
            background.wait_until(ready);
            return;
        }
        wait_info_ = info;
        TracedWait traced(*this);
        while (!background.empty()) {
            Task::wait_until([&] { return ready() || background.any_ready(); });
            background.progress();
            if (ready()) return;
        }
        Task::wait_until(ready);
    }
    // ... until `request` completes, waiting in `call` at `at`.
    void wait_for(const Request& request, const char* call, bamboo_site at);
    // ... until an unexpected message that `pattern` accepts is in the mailbox, where it stays.
    void wait_for_message(const Pattern& pattern, const char* call, bamboo_site at);

    // Running rank only: a send block (bamboo_send_block_begin) begins or ends. Inside it the
    // rank's messages to another process may be held back and leave together, one MPI
    // message per process, when the block ends, the rank suspends or it finishes.
    void hold_sends();
    void release_sends();
    // Running rank only: the send block beginning now leaves its buffers untouched until the
    // rank's next evaluation point (bamboo_send_block_begin_lending), till the block ends.
    // Its blocking sends to ranks of this process lend their buffers until that point.
    void lend_until_evaluation_point(bool on) { lends_until_evaluation_point_ = on; }
    bool lends_until_evaluation_point() const { return lends_until_evaluation_point_; }
    // Running rank only: a send lent until the evaluation point, its request in the table;
    // the rank takes them all back (messaging/delivery.hpp take_back) and frees them there.
    void keep_until_evaluation_point(MPI_Request send) { lent_until_evaluation_point_.push_back(send); }
    bool lent_until_evaluation_point() const { return !lent_until_evaluation_point_.empty(); }
    void take_back_lent_until_evaluation_point();
    // ... those whose buffers a receive announced for the evaluation point may write, before
    // it is posted there.
    void take_back_lent_into_announced();

    // The communicator of this rank whose messages carry `context` (either of its two), or
    // nullptr. For reports; call from the rank itself or while it waits.
    const Communicator* communicator_with_context(int context) const;

    // Collective calls are numbered per communicator, alike on every member since MPI has
    // them called in the same order (collectives/structure.hpp tags their messages with it).
    unsigned take_collective_number(int collective_context) { return collective_numbers_[collective_context]++; }
    unsigned next_collective_number(int collective_context) const {
        auto it = collective_numbers_.find(collective_context);
        return it == collective_numbers_.end() ? 0 : it->second;
    }
    // A new communicator on `collective_context` (contexts of freed ones are taken again).
    void restart_collective_numbers(int collective_context) { collective_numbers_.erase(collective_context); }

    // The rank's view of MPI_Init / MPI_Finalize.
    bool initialized = false;
    bool finalized = false;
    int thread_level = MPI_THREAD_SINGLE;  // what MPI_Init_thread provided
    // Expectations gathered by bamboo_expect() for the next bamboo_fire().
    std::vector<Expectation> pending_rule;
    // Receives announced whole (bamboo_expect_receive), posted at the evaluation point.
    AnnouncedReceives announced;
    // The rank's rand()/random() and drand48() generators, where strtok() left off, and
    // its getopt() variables.
    RandomState random;
    Drand48State drand48;
    char* strtok_next = nullptr;
    GetoptVariables getopt;
    // Its nonblocking collectives in progress.
    BackgroundWork background;
    // Communicators and groups the rank made; MPI_COMM_WORLD and MPI_COMM_SELF are not here.
    HandleTable<CommEntry, MPI_Comm> comms;
    HandleTable<Group, MPI_Group> groups;
    std::shared_ptr<const Communicator> self_comm;
    // The rank's own name, error handler and attributes of MPI_COMM_WORLD and MPI_COMM_SELF;
    // those of the communicators it made are in `comms`.
    CommLocal world_local{"MPI_COMM_WORLD", /*predefined_attributes=*/true};
    CommLocal self_local{"MPI_COMM_SELF"};
    // Messages a matched probe (MPI_Mprobe, MPI_Improbe) took out of the mailbox, for the
    // MPI_Mrecv or MPI_Imrecv that receives them.
    HandleTable<MatchedMessage, MPI_Message> matched;
    HandleTable<UserErrhandler, MPI_Errhandler> errhandlers;
    std::vector<Keyval> keyvals;  // keyval kFirstUserKeyval + i is keyvals[i]
    // Windows the rank made, and the keys of their attributes (numbered as `keyvals`).
    HandleTable<WindowEntry, MPI_Win> windows;
    std::vector<WinKeyval> win_keyvals;
    // Files the rank opened, and the error handler of MPI_FILE_NULL, which files get when
    // opened and which errors of no file (MPI_File_open, MPI_File_delete) go to.
    HandleTable<FileEntry, MPI_File> files;
    MPI_Errhandler file_errhandler = MPI_ERRORS_RETURN;
    // Freed communicators stay alive: a report may still name one.
    std::vector<std::shared_ptr<const Communicator>> freed_comms;
    // Its handle of the comm directives' communicator, once it has one (bamboo_comm_world).
    MPI_Comm directives_comm = MPI_COMM_NULL;
    // The context the next communicator made with this rank may take (see communicators/communicator.hpp).
    int next_context = kFirstFreeContext;
    MessageCounts sent;
    OneSidedCounts one_sided;
    // Its nonblocking sends lent to ranks of this process, until retired (messaging/delivery.hpp).
    std::vector<Request*> lent_sends;
    // The buffer of MPI_Buffer_attach, which buffered sends must fit.
    AttachedBuffer attached_buffer;

private:
    // A wait of the rank, in the trace (--bamboo-trace) when it records.
    class TracedWait {
    public:
        explicit TracedWait(Rank& rank) : rank_(rank) {
            if (trace::on(trace::Kind::wait)) rank_.trace_wait();
        }
        ~TracedWait() {
            if (trace::on(trace::Kind::wait)) trace::wait_ended(rank_.vrank());
        }

    private:
        Rank& rank_;
    };
    void trace_wait();

    int run() override;
    // Closes the mailbox: a message that comes later is dropped with a warning, and one that
    // was never received is warned about now.
    void finish() override;
    void before_suspend() override { release_sends(); }

    Entry entry_;
    std::vector<std::string> args_;
    std::vector<char*> argv_;
    Routes& routes_;
    Mailbox mailbox_;
    RequestTable requests_;
    WaitInfo wait_info_;
    bool holds_sends_ = false;
    bool lends_until_evaluation_point_ = false;
    std::vector<MPI_Request> lent_until_evaluation_point_;
    // The last traced wait for one message or request, and its text: a loop waits for the
    // same thing again and again, and the text costs more to make than the rest of the record.
    struct TracedWaitKey {
        trace::WaitKind kind = trace::WaitKind::other;
        int peer = 0, tag = 0, context = 0;
        const char* call = nullptr;
        bool operator==(const TracedWaitKey& o) const {
            return kind == o.kind && peer == o.peer && tag == o.tag && context == o.context && call == o.call;
        }
    };
    TracedWaitKey traced_key_;
    std::string traced_what_;
    std::unordered_map<int, unsigned> collective_numbers_;  // by collective context
};

}  // namespace bamboo
