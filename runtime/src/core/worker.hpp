// A worker: an OS thread that runs tasks, each until it next suspends.
//
// Which tasks a worker may run is the scheduler's (core/scheduler.hpp): its own, or also any
// movable task of the process. A task may therefore resume on another worker than the one it
// suspended on. What it must not notice: it runs under its own errno wherever it runs (saved
// when it leaves a worker, restored when it enters one), and its privatized globals' base is
// set by whichever worker enters it. Code compiled for tasks reads both through the running
// thread every time (bamboo.h): a compiler may keep the address of a thread-local variable
// in a register across a call that suspends, and after a move that address is another
// thread's. The runtime's own code after a suspension finds its worker with current(), never
// through a reference taken before.
//
// A task that suspends while another task is runnable switches straight to that task: one
// context switch instead of two through the worker's own loop. The loop (run()) takes over
// only when nothing is runnable (it then polls, spins and sleeps), when the between-tasks
// poll is due, and when a task finishes.
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
#include "core/scheduler.hpp"
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
    // While nothing is runnable and no task sleeps: blocks until something happens that may
    // make a task runnable (single-thread mode: the worker waits in MPI, see
    // CommEngine::wait_for_any). False where it could not block: the worker polls instead.
    std::function<bool()> block_when_idle;
    // Before each run of a task, and with nullptr before the worker goes idle (single-thread
    // mode: the comm engine's cork, transport/cork.hpp).
    std::function<void(const Task* next)> before_task;
    bool naps = false;  // idle: nap between polls rather than sleep until woken, because no
                        // other thread would notice an arriving message or a deadlock
    bool never_sleeps = false;  // idle: keep polling (single-thread mode: under SimGrid SMPI
                                // all simulated processes share one OS thread, and a nap would
                                // stop them all; there the polls' MPI calls pass the time)
    bool times_tasks = false;   // measure the time spent in tasks (in_tasks(), --bamboo-stats)
};

class Worker {
public:
    // `index`: its number among the process's workers. `slowdown` (>= 1): the worker emulates
    // a processor that many times slower than the one it runs on (--bamboo-slowdown).
    Worker(int index, Scheduler& scheduler, WorkerDuties duties, double slowdown = 1);

    // The worker of the calling thread (nullptr outside workers). Not inline, so that code
    // that has suspended reads it afresh: the task may have moved to another worker.
    static Worker* current();

    int index() const { return index_; }
    Scheduler& scheduler() const { return scheduler_; }
    double slowdown() const { return slowdown_; }

    // Any thread: queues a runnable task that only this worker may run (Scheduler::enqueue)
    // and wakes the worker if it sleeps.
    void enqueue_own(Task* task);

    // This worker's thread only: wakes `task` once `deadline` has passed (Task::sleep_until).
    void wake_at(std::chrono::steady_clock::time_point deadline, Task& task) {
        wake_times_.emplace(deadline, &task);
    }

    // Runs tasks until every task of the process is done.
    void run();

    // Any thread: if the worker sleeps waiting for work, it looks again.
    void nudge();

    // How many tasks are in a wait that began on this worker's thread minus those whose wait
    // ended on it, from begin to end of Task::wait_until (for the comm engine's polling
    // decision: only the sum over the process's workers means "tasks waiting", for a task may
    // end its wait on another worker). Only the worker's own thread counts, so every wait
    // saves two atomic read-modify-writes; any thread may read.
    void count_waiting(int delta) {
        waiting_.store(waiting_.load(std::memory_order_relaxed) + delta, std::memory_order_relaxed);
    }
    int waiting_tasks() const { return waiting_.load(std::memory_order_relaxed); }

    // This worker's thread: the running `task` has passed an evaluation point here. While
    // some task is still to be bound (Scheduler::binding_pending), the time the task ran
    // since its previous point, the slowdown included, measures this worker's speed if the
    // task ran on no other worker meanwhile.
    void passed_evaluation_point(Task& task);
    // Any thread: evaluation points passed here so far; the time per evaluation point
    // measured here (zero: not measured yet).
    std::size_t evaluation_points() const { return evaluation_points_.load(std::memory_order_relaxed); }
    double seconds_per_point() const {
        auto points = timed_points_.load(std::memory_order_relaxed);
        if (points == 0) return 0;
        return std::chrono::duration<double>(std::chrono::steady_clock::duration(point_time_.load(std::memory_order_relaxed)))
                   .count() / static_cast<double>(points);
    }

    // After run(): how long this worker ran tasks (and itself), its idle time not counted.
    std::chrono::steady_clock::duration busy() const { return busy_; }
    // After run(), if the duties say it times tasks: how long it ran tasks. The rest of busy()
    // is the runtime's own work: switching, scheduling, polling between tasks.
    std::chrono::steady_clock::duration in_tasks() const { return in_tasks_; }
    // After run(): how long it had no task to run.
    std::chrono::steady_clock::duration idle() const { return idle_; }
    // After run(): how many times the loop (rather than a suspending task) switched to a
    // task: to start the first, after a task finished, and after idling or polling.
    std::size_t loop_switches() const { return loop_switches_; }
    // After run(): how many times a task was entered here, and how many of those it came
    // from another worker.
    std::size_t runs() const { return runs_; }
    std::size_t moved_in() const { return moved_in_; }

    // The running task `self` gives up the thread (it is waiting, or queued by yield()):
    // runs the next runnable task, or the worker's loop if none. Returns when `self` runs
    // again, on this worker or another: the caller must not use this worker afterwards.
    void switch_away(Task& self);

    // The running task is about to wait or yield, where another worker may take it, or is
    // at an evaluation point: the time it ran since it entered (or since the last such call)
    // is stretched by the slowdown first.
    void end_slice() {
        if (slowdown_ > 1) slow_down();
    }

    // The running task polled (MPI_Iprobe, MPI_Test...) and found nothing. Spins politely, as
    // the idle loop does: now and then the thread gives up the CPU, for the thread the poll
    // waits for may share the core (the comm engine's). Without it, a worker whose tasks only
    // poll holds the core for whole time slices: milliseconds per message between processes.
    void polled_in_vain() { polling_spin_.pause(); }

    // A new task's first moment on its own stack: `from` is the context that started it.
    void arrived(boost::context::fiber&& from) {
        announce_arrival(nullptr);
        settle(std::move(from));
    }

    // A finishing task's last step: the context to resume in its place (the worker's loop).
    boost::context::fiber finished(Task& self);

private:
    Task* next_task();
    Task* take_runnable();
    void wake_sleepers();
    bool poll_due() const;
    void wait_for_work();
    bool has_work() const;
    // Makes `task` the running task of this thread, once no other worker holds it.
    void enter(Task& task);
    // ... a task this worker holds already (Task::try_hold).
    void enter_held(Task& task);
    void slow_down();
    // The running task leaves: its time here counts towards its interval between points.
    void left_task(Task& task);
    // A task starts or stops running here (it did not merely pass through a suspension that
    // found it runnable again): timed and traced.
    void task_began(const Task& task);
    void task_ended(const Task& task);
    // From the running context to the suspended context `to` (on `to_stack`), leaving the
    // running context's continuation in *from once it has left, and then letting other
    // workers run `leaving` (the task that leaves, if any). Returns when something jumps
    // back, possibly on another worker's thread.
    void jump(boost::context::fiber& to, const SanitizerStack& to_stack, boost::context::fiber* from, Task* leaving);
    // In the context just arrived at: keeps the continuation of the context that left.
    void settle(boost::context::fiber&& left);

    const int index_;
    Scheduler& scheduler_;
    WorkerDuties duties_;
    const double slowdown_;
    std::chrono::steady_clock::time_point slice_start_{};  // of the running task, for the slowdown
    std::chrono::steady_clock::duration slowdown_owed_{};  // extra time not yet spent
    std::chrono::steady_clock::time_point entered_at_{};  // the running task, if timed
    std::chrono::steady_clock::time_point last_poll_{};
    std::chrono::steady_clock::time_point started_{};
    std::chrono::steady_clock::duration idle_{};  // in next_task() with nothing to run
    std::chrono::steady_clock::duration busy_{};
    std::chrono::steady_clock::time_point task_began_at_{};
    std::chrono::steady_clock::duration in_tasks_{};
    std::size_t loop_switches_ = 0;
    std::size_t runs_ = 0;
    std::size_t moved_in_ = 0;
    boost::context::fiber loop_;  // run()'s context while a task runs
    SanitizerStack loop_stack_;   // the stack of run(): the thread's own
    // Where the context that runs next stores the continuation of the one that left it, and
    // the task that left (if a task did), which other workers may run once it is stored.
    boost::context::fiber* leaving_slot_ = nullptr;
    Task* leaving_task_ = nullptr;
    Task* handed_to_loop_ = nullptr;  // taken from a queue by a leaving task, for the loop to enter
    PoliteSpin polling_spin_;
    // Read by other threads: kept off the cache line of the fields above.
    alignas(64) std::atomic<int> waiting_{0};
    std::atomic<std::size_t> evaluation_points_{0};
    std::atomic<std::chrono::steady_clock::duration::rep> point_time_{0};  // see passed_evaluation_point()
    std::atomic<std::size_t> timed_points_{0};

    // This worker's own tasks (Scheduler::enqueue) made runnable by its own thread: no lock
    // needed.
    alignas(64) RunQueue local_;
    // Sleeping tasks by the time they wake, soonest first; this worker's thread only.
    using WakeTime = std::pair<std::chrono::steady_clock::time_point, Task*>;
    std::priority_queue<WakeTime, std::vector<WakeTime>, std::greater<WakeTime>> wake_times_;
    // Its own tasks made runnable by other threads, moved to local_ when the worker looks.
    std::mutex mutex_;
    std::condition_variable wakeup_;
    std::vector<Task*> inbox_;
    std::atomic<bool> inbox_filled_{false};
    bool sleeping_ = false;
};

}  // namespace bamboo
