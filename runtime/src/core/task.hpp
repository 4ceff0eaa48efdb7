// A task: one virtual rank of the user's program, running bamboo_main() on its own stack.
//
// States (seed 001, Fig. 3): runnable (queued on its worker), running, waiting (suspended
// until some condition holds; it holds no worker meanwhile) and done.
#pragma once

#include <boost/context/fiber.hpp>
#include <boost/context/stack_context.hpp>

#include <atomic>
#include <csetjmp>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "bamboo.h"
#include "comm/communicator.hpp"
#include "comm/handles.hpp"
#include "core/random_state.hpp"
#include "core/sanitizer_fibers.hpp"
#include "messaging/mailbox.hpp"
#include "messaging/requests.hpp"

namespace bamboo {

class Worker;

enum class TaskState : std::uint8_t { runnable, running, waiting, done };

// A communicator as a task holds it: the shared object and the task's rank in it.
struct CommEntry {
    std::shared_ptr<const Communicator> comm;
    int rank = 0;
};

// Messages a task sent, by what sent them and where they went (--bamboo-stats).
struct MessageCounts {
    enum Origin { point_to_point, collective };
    enum Scope { same_process, other_process };
    std::uint64_t messages[2][2] = {};
    std::uint64_t bytes[2][2] = {};

    void count(Origin origin, Scope scope, std::size_t size) {
        ++messages[origin][scope];
        bytes[origin][scope] += size;
    }
};

// What a waiting task waits for; read by the deadlock report.
struct WaitInfo {
    const char* call = nullptr;              // the MPI call; nullptr: the firing rule
    bamboo_site site{};
    const Request* request = nullptr;        // a blocking send or receive
    const MPI_Request* handles = nullptr;    // MPI_Wait, MPI_Waitall, MPI_Waitany
    int handle_count = 0;
};

class Task {
public:
    using Entry = int (*)(int argc, char** argv);

    // `stack` is the task's own (TaskStacks), with a guard region below it.
    Task(int vrank, Worker& worker, boost::context::stack_context stack, std::shared_ptr<char> globals,
         Entry entry, const std::vector<std::string>& args);
    Task(const Task&) = delete;
    Task& operator=(const Task&) = delete;

    // The task running on this thread, or nullptr outside tasks.
    static Task* current();

    int vrank() const { return vrank_; }
    Worker& worker() const { return worker_; }
    Mailbox& mailbox() { return mailbox_; }
    const Mailbox& mailbox() const { return mailbox_; }
    RequestTable& requests() { return requests_; }
    const RequestTable& requests() const { return requests_; }
    char* globals() const { return globals_.get(); }
    TaskState state() const { return state_.load(); }
    int priority() const { return priority_.load(std::memory_order_relaxed); }
    void set_priority(int priority) { priority_.store(priority, std::memory_order_relaxed); }
    int exit_code() const { return exit_code_; }
    const WaitInfo& wait_info() const { return wait_info_; }
    // The lowest address of the task's stack (its guard region lies just below) and its size.
    const char* stack_bottom() const { return stack_bottom_; }
    std::size_t stack_size() const { return stack_size_; }

    // The task's view of MPI_Init / MPI_Finalize.
    bool initialized = false;
    bool finalized = false;
    // Expectations gathered by bamboo_expect() for the next bamboo_fire().
    std::vector<Expectation> pending_rule;
    // The task's rand()/random() generator.
    RandomState random;
    // Communicators and groups the task made; MPI_COMM_WORLD and MPI_COMM_SELF are not here.
    HandleTable<CommEntry, MPI_Comm> comms;
    HandleTable<Group, MPI_Group> groups;
    std::shared_ptr<const Communicator> self_comm;
    // Freed communicators stay alive: a report may still name one.
    std::vector<std::shared_ptr<const Communicator>> freed_comms;
    // The context the next communicator made with this task may take (see comm/communicator.hpp).
    int next_context = kFirstFreeContext;
    MessageCounts sent;

    // The communicator of this task whose messages carry `context` (either of its two), or
    // nullptr. For reports; call from the task itself or while it waits.
    const Communicator* communicator_with_context(int context) const;

    // Worker thread only: the task is about to run (again) on this thread.
    void enter();
    // Worker thread only: no task runs on this thread any more.
    static void leave();

    // Running task only: suspends until `ready()` holds, letting the worker run other tasks.
    // `ready` must become true only through a change followed by wake().
    template <class Ready>
    void wait_until(const WaitInfo& info, Ready ready);

    // Running task only: gives up the worker but stays runnable, behind the tasks already
    // queued at its priority.
    void yield();

    // Any thread: makes the task runnable if it is waiting; otherwise does nothing.
    void wake();

    // Running task only: ends the task as if bamboo_main had returned `status` (the
    // user's exit()).
    [[noreturn]] void exit(int status);

private:
    friend class Worker;  // switches between the tasks' contexts

    void suspend();
    void begin_wait();
    bool cancel_wait();  // back to running unless a waker queued the task meanwhile
    void end_wait();     // running again after begin_wait()
    void run_body();

    const int vrank_;
    Worker& worker_;
    std::shared_ptr<char> globals_;
    Entry entry_;
    std::vector<std::string> args_;
    std::vector<char*> argv_;
    Mailbox mailbox_;
    RequestTable requests_;
    std::atomic<TaskState> state_{TaskState::runnable};
    std::atomic<int> priority_{0};
    int exit_code_ = 0;
    std::jmp_buf exit_jump_;  // back into run_body() from exit()
    WaitInfo wait_info_;
    const char* const stack_bottom_;
    const std::size_t stack_size_;
    SanitizerStack sanitizer_stack_;
    boost::context::fiber context_;  // the task's own context while it is suspended
};

// Waiting without lost wake-ups: the task announces `waiting` before its last look at the
// condition, and a waker changes the condition before it looks at the state (both seq_cst).
// So either the task sees the change, or the waker sees `waiting` and queues the task.
template <class Ready>
void Task::wait_until(const WaitInfo& info, Ready ready) {
    while (!ready()) {
        wait_info_ = info;
        begin_wait();
        if (!(ready() && cancel_wait())) suspend();
        end_wait();
    }
}

}  // namespace bamboo
