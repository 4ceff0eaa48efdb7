#include "core/worker.hpp"

#include <sched.h>

#include <thread>

#include "core/faults.hpp"
#include "core/task.hpp"
#include "util/spin.hpp"

namespace bamboo {
namespace {
// An idle worker keeps looking for work this long before it sleeps. Waking a sleeping
// thread costs tens of microseconds on some machines; were the spin shorter, a ping-pong
// would pay that on every hop.
constexpr auto kSpin = std::chrono::microseconds(200);
// How often a worker polls between tasks, when that is one of its duties.
constexpr auto kPollInterval = std::chrono::microseconds(10);
// A worker that naps, idle for longer than kSpin, naps this long between polls.
constexpr auto kNap = std::chrono::microseconds(50);

__thread Worker* running_worker = nullptr;
}  // namespace

Worker::Worker(WorkerDuties duties) : duties_(std::move(duties)) {}

void Worker::assign(Task* task) {
    ++live_tasks_;
    local_.push(task, task->priority());
}

void Worker::enqueue(Task* task) {
    if (running_worker == this) {
        local_.push(task, task->priority());
        return;
    }
    bool wake;
    {
        std::lock_guard<std::mutex> lock(mutex_);
        inbox_.push_back(task);
        inbox_filled_.store(true, std::memory_order_release);
        wake = sleeping_;
    }
    if (wake) wakeup_.notify_one();
}

void Worker::wake_sleepers() {
    if (wake_times_.empty()) return;
    auto now = std::chrono::steady_clock::now();
    while (!wake_times_.empty() && wake_times_.top().first <= now) {
        Task* task = wake_times_.top().second;
        wake_times_.pop();
        task->wake();
    }
}

Task* Worker::take_runnable() {
    wake_sleepers();
    if (inbox_filled_.load(std::memory_order_acquire)) {
        std::lock_guard<std::mutex> lock(mutex_);
        for (Task* task : inbox_) local_.push(task, task->priority());
        inbox_.clear();
        inbox_filled_.store(false, std::memory_order_relaxed);
    }
    return local_.pop();
}

bool Worker::poll_due() const {
    return duties_.poll_between_tasks &&
           std::chrono::steady_clock::now() - last_poll_ >= kPollInterval;
}

// Sleeps until another thread queues a task or a sleeping task's time comes (never called
// by a worker that naps).
void Worker::wait_for_work() {
    std::unique_lock<std::mutex> lock(mutex_);
    sleeping_ = true;
    auto work = [this] { return !inbox_.empty(); };
    if (wake_times_.empty()) wakeup_.wait(lock, work);
    else wakeup_.wait_until(lock, wake_times_.top().first, work);
    sleeping_ = false;
}

Task* Worker::next_task() {
    // With nothing runnable, the idle loop below polls at once: no poll between tasks first.
    if (poll_due() && !local_.empty()) {
        last_poll_ = std::chrono::steady_clock::now();
        duties_.poll_between_tasks();
    }
    if (Task* task = take_runnable()) return task;
    // Idle: drive the comm engine while spinning politely, then sleep until woken (or nap
    // between polls).
    PoliteSpin spin;
    auto idle_since = std::chrono::steady_clock::now();
    auto spin_end = idle_since + kSpin;
    for (;;) {
        if (duties_.free_waiting_tasks) duties_.free_waiting_tasks(*this, /*all=*/false);
        bool in_transit = duties_.poll_when_idle && duties_.poll_when_idle();
        Task* task = take_runnable();
        auto now = std::chrono::steady_clock::now();
        if (task) {
            idle_ += now - idle_since;
            last_poll_ = now;  // this loop's poll stands for the one between tasks
            return task;
        }
        if (in_transit) spin_end = now + kSpin;
        if (now < spin_end || duties_.never_sleeps) {
            spin.pause(now);
            continue;
        }
        if (duties_.free_waiting_tasks) {
            duties_.free_waiting_tasks(*this, /*all=*/true);
            if (Task* task = take_runnable()) {
                idle_ += std::chrono::steady_clock::now() - idle_since;
                return task;
            }
        }
        if (duties_.naps) std::this_thread::sleep_for(kNap);
        else wait_for_work();
    }
}

void Worker::jump(boost::context::fiber& to, const SanitizerStack& to_stack, boost::context::fiber* from) {
    leaving_slot_ = from;
    void* sanitizer_state = nullptr;
    to_stack.announce_switch(&sanitizer_state);
    boost::context::fiber left = std::move(to).resume();
    announce_arrival(sanitizer_state);
    // Back here: whoever jumped set leaving_slot_ to their own slot.
    *leaving_slot_ = std::move(left);
}

void Worker::switch_away(Task& self) {
    // The poll runs on the loop's stack, not on a task's (which may be small).
    Task* next = poll_due() ? nullptr : take_runnable();
    if (next == &self) {  // woken meanwhile, or yielding with no other task runnable
        self.enter();
        return;
    }
    if (next) {
        next->enter();
        jump(next->context_, next->sanitizer_stack_, &self.context_);
    } else {
        jump(loop_, loop_stack_, &self.context_);
    }
}

boost::context::fiber Worker::finished(Task& self) {
    --live_tasks_;
    leaving_slot_ = &self.context_;  // receives nothing: the finished context is gone
    loop_stack_.announce_switch(nullptr);
    return std::move(loop_);
}

void Worker::run() {
    give_thread_a_signal_stack();
    loop_stack_.become_this_threads();
    running_worker = this;
    auto start = std::chrono::steady_clock::now();
    while (live_tasks_ > 0) {
        Task* task = next_task();
        ++loop_switches_;
        task->enter();
        jump(task->context_, task->sanitizer_stack_, &loop_);
        Task::leave();
    }
    busy_ = std::chrono::steady_clock::now() - start - idle_;
    running_worker = nullptr;
}

}  // namespace bamboo
