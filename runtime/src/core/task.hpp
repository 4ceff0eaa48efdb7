// A task: one virtual rank of the user's program, running on its own stack.
//
// States (seed 001, Fig. 3): runnable (queued on its worker), running, waiting (suspended
// until some condition holds; it holds no worker meanwhile) and done.
//
// A task knows nothing of MPI: what a virtual rank keeps for MPI (its mailbox, requests and
// communicators) is its Rank's (messaging/rank.hpp), which is the task that runs it.
#pragma once

#include <boost/context/fiber.hpp>
#include <boost/context/stack_context.hpp>

#include <atomic>
#include <chrono>
#include <csetjmp>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

#include "core/globals.hpp"
#include "core/sanitizer_fibers.hpp"

namespace bamboo {

class Worker;

enum class TaskState : std::uint8_t { runnable, running, waiting, done };

class Task {
public:
    // `stack` is the task's own (TaskStacks), with a guard region below it; `globals` its
    // block of privatized globals (core/globals.hpp), nullptr if the program has none;
    // `worker` the first to run it (Scheduler::start).
    Task(int vrank, Worker& worker, boost::context::stack_context stack, std::shared_ptr<char> globals);
    Task(const Task&) = delete;
    Task& operator=(const Task&) = delete;
    virtual ~Task() = default;

    // The task running on this thread, or nullptr outside tasks.
    static Task* current();

    int vrank() const { return vrank_; }
    // The worker that runs the task, or ran it last.
    Worker& worker() const { return *worker_.load(std::memory_order_relaxed); }
    // The one worker that may run it (its worker's queue is private, or it is bound), or
    // nullptr: any worker may.
    Worker* home() const { return home_.load(std::memory_order_relaxed); }
    char* globals() const { return globals_.get(); }
    // Running task only: the C++ objects of its block it has constructed.
    TaskObjects& objects() { return objects_; }
    TaskState state() const { return state_.load(); }
    int priority() const { return priority_.load(std::memory_order_relaxed); }
    void set_priority(int priority) { priority_.store(priority, std::memory_order_relaxed); }
    int exit_code() const { return exit_code_; }
    // The lowest address of the task's stack (its guard region lies just below) and its size.
    const char* stack_bottom() const { return stack_bottom_; }
    std::size_t stack_size() const { return stack_size_; }

    // Worker thread only: the task is about to run (again) on this thread, for `worker`.
    void enter(Worker& worker);
    // Worker thread only: no task runs on this thread any more.
    static void leave();

    // Whether a worker holds the task: from before it enters the task until the task's
    // context is stored after it left (Worker::jump). A worker that takes the task from a
    // queue waits for that first, for a task queued by yield() or woken may be taken by
    // another worker before it has finished leaving this one.
    bool try_hold() { return !on_cpu_.exchange(true, std::memory_order_acquire); }
    void release() { on_cpu_.store(false, std::memory_order_release); }

    // Running task only: the task has passed an evaluation point (the firing rule of an olap
    // region), which the scheduler counts to bind it (Scheduler::evaluation_point).
    void evaluation_point();

    // Running task only: suspends until `ready()` holds, letting the worker run other tasks.
    // `ready` must become true only through a change followed by wake().
    template <class Ready>
    void wait_until(Ready ready);

    // Running task only: gives up the worker but stays runnable, behind the tasks already
    // queued at its priority.
    void yield();

    // Running task only: suspends until `deadline` (sleep(), nanosleep()), letting the
    // worker run other tasks.
    void sleep_until(std::chrono::steady_clock::time_point deadline);
    // Any thread: the task waits in sleep_until(), so it will run again without a wake()
    // from anyone (not a deadlock).
    bool asleep() const { return asleep_.load(); }

    // Any thread: makes the task runnable if it is waiting; otherwise does nothing.
    void wake();

    // Running task only: ends the task as if run() had returned `status` (the user's exit()).
    [[noreturn]] void exit(int status);

protected:
    // The task's work, on its own stack; returns its exit code. exit() leaves it by longjmp,
    // so it must hold nothing that needs destroying.
    virtual int run() = 0;
    // After run() has returned or exit() has ended it, on the task's stack, before the task
    // counts as done.
    virtual void finish() {}
    // Whenever the task is about to give up its worker (it waits, yields or sleeps), on its
    // stack: what must not stay pending while it does not run.
    virtual void before_suspend() {}

private:
    friend class Worker;     // switches between the tasks' contexts
    friend class Scheduler;  // places and binds the task

    void suspend();
    void begin_wait();
    bool cancel_wait();  // back to running unless a waker queued the task meanwhile
    void end_wait();     // running again after begin_wait()
    void run_body();

    const int vrank_;
    std::atomic<Worker*> worker_;
    std::atomic<Worker*> home_{nullptr};
    std::atomic<bool> on_cpu_{false};
    int saved_errno_ = 0;     // the task's errno while it does not run
    int evaluation_points_ = 0;
    // Since the last evaluation point: the time the task ran (while timed: Worker) and
    // whether it moved between workers.
    std::chrono::steady_clock::duration ran_since_point_{};
    bool interval_moved_ = false;
    std::vector<std::uint32_t> points_on_;  // evaluation points passed on each worker (by index)
    std::shared_ptr<char> globals_;
    TaskObjects objects_;
    std::atomic<TaskState> state_{TaskState::runnable};
    std::atomic<int> priority_{0};
    std::atomic<bool> asleep_{false};
    int exit_code_ = 0;
    std::jmp_buf exit_jump_;  // back into run_body() from exit()
    const char* const stack_bottom_;
    const std::size_t stack_size_;
    SanitizerStack sanitizer_stack_;
    boost::context::fiber context_;  // the task's own context while it is suspended
};

// Waiting without lost wake-ups: the task announces `waiting` before its last look at the
// condition, and a waker changes the condition before it looks at the state (both seq_cst).
// So either the task sees the change, or the waker sees `waiting` and queues the task.
template <class Ready>
void Task::wait_until(Ready ready) {
    while (!ready()) {
        begin_wait();
        if (!(ready() && cancel_wait())) suspend();
        end_wait();
    }
}

}  // namespace bamboo
