// A worker: an OS thread that runs its tasks, each until it next suspends.
//
// Each task is bound to one worker for life. C code may cache the address of a thread-local
// variable (errno, bamboo_globals) across a call that suspends the task; resumed on another
// thread, it would use the first thread's copy.
#pragma once

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstddef>
#include <functional>
#include <mutex>
#include <vector>

#include "run_queue.hpp"

namespace bamboo {

class Task;

// What a worker does besides running its tasks.
struct WorkerDuties {
    std::function<void()> poll_when_idle;      // while nothing is runnable (drives the comm engine)
    std::function<void()> poll_between_tasks;  // at most every few microseconds between tasks
    bool naps = false;  // idle: nap between polls rather than sleep until woken, because no
                        // other thread would notice an arriving message or a deadlock
};

class Worker {
public:
    explicit Worker(WorkerDuties duties);

    // Before run(): the task starts runnable, in the order assigned.
    void assign(Task* task);

    // Any thread: queues a runnable task and wakes the worker if it sleeps.
    void enqueue(Task* task);

    // Runs tasks until all assigned tasks are done.
    void run();

private:
    Task* next_task();
    Task* take_runnable();
    void wait_for_work();

    WorkerDuties duties_;
    std::chrono::steady_clock::time_point last_poll_{};
    std::size_t live_tasks_ = 0;

    // Tasks made runnable by this worker's own thread: no lock needed.
    RunQueue local_;
    // Tasks made runnable by other threads, moved to local_ when the worker looks.
    std::mutex mutex_;
    std::condition_variable wakeup_;
    std::vector<Task*> inbox_;
    std::atomic<bool> inbox_filled_{false};
    bool sleeping_ = false;
};

}  // namespace bamboo
