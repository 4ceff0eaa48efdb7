// Which worker of a process runs a runnable task (--bamboo-queue, --bamboo-bind-after).
//
// Seed 002 balances workers of unequal speed inside a process by letting any worker take
// the next ready task, then, after a warm-up, binding each task to a worker so that it
// stops paying for moving (off by default: docs/runtime.md says why). Three ways to queue
// runnable tasks:
//
//   private   a queue per worker; every task stays on the worker it was given at start
//             (contiguous blocks of vranks per worker)
//   shared    one queue per process; every worker takes the next task from it
//   steal     a queue per worker, where a task returns to the worker that ran it last; a
//             worker with nothing to run takes a task from another's queue
//
// Each orders its tasks by priority, first come first served among equals.
//
// A task that has reached `bind_after` evaluation points is bound: from then on it is queued
// on its worker's own queue only. The binding gives each worker a share of the tasks that
// follows its speed measured so far (Worker::seconds_per_point), each task going to the
// worker that would finish its bound tasks soonest with it, or, among those within 5 % of
// that, to the one that ran it most. A bound task, and every task of the private queues, is
// found by its worker alone.
#pragma once

#include <atomic>
#include <cstddef>
#include <memory>
#include <mutex>
#include <vector>

#include "core/run_queue.hpp"
#include "util/spin.hpp"

namespace bamboo {

class Task;
class Worker;

enum class QueueKind { private_queues, shared, steal };

constexpr int kNeverBind = -1;

// A queue of movable runnable tasks that several workers take from.
class SharedRunQueue {
public:
    void push(Task* task, int priority) {
        std::lock_guard<SpinLock> lock(lock_);
        queue_.push(task, priority);
        size_.store(queue_.size());
    }
    // The first task if its priority is above `than` (nullptr if none is).
    Task* pop_above(int than) {
        if (empty()) return nullptr;
        std::lock_guard<SpinLock> lock(lock_);
        if (queue_.empty() || queue_.top_priority() <= than) return nullptr;
        Task* task = queue_.pop();
        size_.store(queue_.size(), std::memory_order_relaxed);
        return task;
    }
    bool empty() const { return size_.load() == 0; }

private:
    SpinLock lock_;
    RunQueue queue_;
    std::atomic<std::size_t> size_{0};  // read without the lock, to skip an empty queue
};

class Scheduler {
public:
    // `bind_after`: evaluation points before a task is bound (kNeverBind: never).
    Scheduler(QueueKind kind, int bind_after);
    Scheduler(const Scheduler&) = delete;
    Scheduler& operator=(const Scheduler&) = delete;

    QueueKind kind() const { return kind_; }

    // Before the workers run: the process's workers, numbered by their order here.
    void add_worker(Worker& worker);

    // Before the workers run, after every add_worker(): `task` starts runnable; `worker`
    // runs it first (and for ever with private queues).
    void start(Task& task, Worker& worker);

    // Any thread: queues the runnable `task` where a worker that may run it will look, and
    // wakes a sleeping worker that may.
    void enqueue(Task& task);

    // Worker thread: the next task for `worker` from the queues shared with other workers
    // whose priority is above `than` (that of the worker's own next task), or nullptr.
    Task* take_movable(Worker& worker, int than);
    // Whether such a task may be waiting (for a worker about to sleep).
    bool movable_work() const;

    // Tasks not done yet, in the whole process.
    bool all_done() const { return live_tasks_.load() == 0; }
    void task_finished();  // the task's last step; wakes every worker after the last

    // Worker thread: the running `task` has passed an evaluation point on `worker`.
    void evaluation_point(Task& task, Worker& worker);
    // Whether some task is still to be bound: the workers then time their tasks' runs.
    bool binding_pending() const { return unbound_tasks_.load(std::memory_order_relaxed) > 0; }

    // How many workers sleep (Worker::wait_for_work): a queue that may wake one checks.
    std::atomic<int>& sleepers() { return sleepers_; }

    // Tasks bound to `worker` (with private queues: those it was given at start).
    int tasks_bound_to(const Worker& worker);

private:
    void bind(Task& task);
    void wake_sleepers();

    const QueueKind kind_;
    const int bind_after_;
    std::vector<Worker*> workers_;
    SharedRunQueue shared_;                                  // kind shared
    std::vector<std::unique_ptr<SharedRunQueue>> stealable_;  // kind steal: one per worker
    std::atomic<int> live_tasks_{0};
    std::atomic<int> unbound_tasks_{0};  // that will be bound (bind_after_ is not kNeverBind)
    std::atomic<int> sleepers_{0};
    std::mutex binding_mutex_;
    std::vector<int> bound_to_;  // tasks bound to each worker (under binding_mutex_)
};

}  // namespace bamboo
