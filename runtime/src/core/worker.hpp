// A worker: an OS thread that runs its tasks, each until it next suspends.
//
// Each task is bound to one worker for life. C code may cache the address of a thread-local
// variable (errno, bamboo_globals) across a call that suspends the task; resumed on another
// thread, it would use the first thread's copy.
//
// A task that suspends while another of its worker's tasks is runnable switches straight to
// that task: one context switch instead of two through the worker's own loop. The loop
// (run()) takes over only when nothing is runnable (it then polls, spins and sleeps), when
// the between-tasks poll is due, and when a task finishes.
#pragma once

#include <boost/context/fiber.hpp>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstddef>
#include <functional>
#include <mutex>
#include <queue>
#include <utility>
#include <vector>

#include "core/run_queue.hpp"
#include "core/sanitizer_fibers.hpp"
#include "util/spin.hpp"

namespace bamboo {

class Task;
class Worker;

// What a worker does besides running its tasks.
struct WorkerDuties {
    // While nothing is runnable (drives the comm engine). Returns true while messages are in
    // transit, which need polling to complete: the worker then keeps spinning.
    std::function<bool()> poll_when_idle;
    std::function<void()> poll_between_tasks;  // at most every few microseconds between tasks
    // While nothing is runnable: frees this worker's tasks that wait for nothing but others of
    // its tasks (sends lent between them, messaging/delivery.hpp) once they have waited a
    // while, or all of them (`all`) before the worker sleeps or naps.
    std::function<void(const Worker&, bool all)> free_waiting_tasks;
    bool naps = false;  // idle: nap between polls rather than sleep until woken, because no
                        // other thread would notice an arriving message or a deadlock
    bool never_sleeps = false;  // idle: keep polling (single-thread mode: under SimGrid SMPI
                                // all simulated processes share one OS thread, and a nap would
                                // stop them all; there the polls' MPI calls pass the time)
};

class Worker {
public:
    explicit Worker(WorkerDuties duties);

    // Before run(): the task starts runnable, in the order assigned.
    void assign(Task* task);

    // Any thread: queues a runnable task and wakes the worker if it sleeps.
    void enqueue(Task* task);

    // This worker's thread only: wakes `task` once `deadline` has passed (Task::sleep_until).
    void wake_at(std::chrono::steady_clock::time_point deadline, Task& task) {
        wake_times_.emplace(deadline, &task);
    }

    // Runs tasks until all assigned tasks are done.
    void run();

    // How many of its tasks are in a wait, counted from begin to end of Task::wait_until
    // (for the comm engine's polling decision). Only the worker's own thread counts, so
    // every wait saves two atomic read-modify-writes; any thread may read.
    void count_waiting(int delta) {
        waiting_.store(waiting_.load(std::memory_order_relaxed) + delta, std::memory_order_relaxed);
    }
    int waiting_tasks() const { return waiting_.load(std::memory_order_relaxed); }

    // After run(): how long this worker ran tasks (and itself), its idle time not counted.
    std::chrono::steady_clock::duration busy() const { return busy_; }
    // After run(): how many times the loop (rather than a suspending task) switched to a
    // task: to start the first, after a task finished, and after idling or polling.
    std::size_t loop_switches() const { return loop_switches_; }

    // The running task `self` gives up the thread (it is waiting, or queued by yield()):
    // runs the next runnable task, or the worker's loop if none. Returns when `self` runs again.
    void switch_away(Task& self);

    // The running task polled (MPI_Iprobe, MPI_Test...) and found nothing. Spins politely, as
    // the idle loop does: now and then the thread gives up the CPU, for the thread the poll
    // waits for may share the core (the comm engine's). Without it, a worker whose tasks only
    // poll holds the core for whole time slices: milliseconds per message between processes.
    void polled_in_vain() { polling_spin_.pause(); }

    // A new task's first moment on its own stack: `from` is the context that started it.
    void arrived(boost::context::fiber&& from) {
        announce_arrival(nullptr);
        *leaving_slot_ = std::move(from);
    }

    // A finishing task's last step: the context to resume in its place (the worker's loop).
    boost::context::fiber finished(Task& self);

private:
    Task* next_task();
    Task* take_runnable();
    void wake_sleepers();
    bool poll_due() const;
    void wait_for_work();
    // From the running context to the suspended context `to` (on `to_stack`), leaving the
    // running context's continuation in *from once it has left. Returns when something
    // jumps back.
    void jump(boost::context::fiber& to, const SanitizerStack& to_stack, boost::context::fiber* from);

    WorkerDuties duties_;
    std::chrono::steady_clock::time_point last_poll_{};
    std::size_t live_tasks_ = 0;
    std::chrono::steady_clock::duration idle_{};  // in next_task() with nothing to run
    std::chrono::steady_clock::duration busy_{};
    std::size_t loop_switches_ = 0;
    boost::context::fiber loop_;  // run()'s context while a task runs
    SanitizerStack loop_stack_;   // the stack of run(): the thread's own
    // Where the context that runs next stores the continuation of the one that left it.
    boost::context::fiber* leaving_slot_ = nullptr;
    PoliteSpin polling_spin_;
    // Read by the comm engine thread: kept off the cache line of the fields above.
    alignas(64) std::atomic<int> waiting_{0};

    // Tasks made runnable by this worker's own thread: no lock needed.
    RunQueue local_;
    // Sleeping tasks by the time they wake, soonest first; this worker's thread only.
    using WakeTime = std::pair<std::chrono::steady_clock::time_point, Task*>;
    std::priority_queue<WakeTime, std::vector<WakeTime>, std::greater<WakeTime>> wake_times_;
    // Tasks made runnable by other threads, moved to local_ when the worker looks.
    std::mutex mutex_;
    std::condition_variable wakeup_;
    std::vector<Task*> inbox_;
    std::atomic<bool> inbox_filled_{false};
    bool sleeping_ = false;
};

}  // namespace bamboo
