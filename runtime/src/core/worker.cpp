#include "core/worker.hpp"

#include <sched.h>

#include <thread>
#include <utility>

#include "core/faults.hpp"
#include "core/task.hpp"
#include "trace/recorder.hpp"
#include "util/simulation.hpp"
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

Worker::Worker(int index, Scheduler& scheduler, WorkerDuties duties, double slowdown)
    : index_(index), scheduler_(scheduler), duties_(std::move(duties)), slowdown_(slowdown) {}

__attribute__((noinline)) Worker* Worker::current() { return running_worker; }

void Worker::enqueue_own(Task* task) {
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

void Worker::nudge() {
    bool wake;
    {
        std::lock_guard<std::mutex> lock(mutex_);
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
    if (scheduler_.kind() != QueueKind::private_queues)
        if (Task* task = scheduler_.take_movable(*this, local_.top_priority())) return task;
    return local_.pop();
}

bool Worker::has_work() const {
    return !inbox_.empty() || scheduler_.movable_work() || scheduler_.all_done();
}

bool Worker::poll_due() const {
    return duties_.poll_between_tasks &&
           std::chrono::steady_clock::now() - last_poll_ >= kPollInterval;
}

// Sleeps until another thread queues a task this worker may run, a sleeping task's time
// comes, or the process's last task finishes (never called by a worker that naps). Counted
// among the sleepers before its last look, so that a task queued after that look finds it
// (Scheduler::wake_sleepers).
void Worker::wait_for_work() {
    std::unique_lock<std::mutex> lock(mutex_);
    sleeping_ = true;
    scheduler_.sleepers().fetch_add(1);
    auto work = [this] { return has_work(); };
    if (wake_times_.empty()) wakeup_.wait(lock, work);
    else wakeup_.wait_until(lock, wake_times_.top().first, work);
    scheduler_.sleepers().fetch_sub(1);
    sleeping_ = false;
}

// The next task to run, or nullptr once every task of the process is done.
Task* Worker::next_task() {
    // With nothing runnable, the idle loop below polls at once: no poll between tasks first.
    if (poll_due() && (!local_.empty() || scheduler_.movable_work())) {
        last_poll_ = std::chrono::steady_clock::now();
        duties_.poll_between_tasks();
    }
    if (Task* task = take_runnable()) return task;
    if (duties_.before_task) duties_.before_task(nullptr);
    // Idle: drive the comm engine while spinning politely, then sleep until woken (or nap
    // between polls).
    PoliteSpin spin;
    auto idle_since = std::chrono::steady_clock::now();
    if (trace::on(trace::Kind::idle)) trace::idle_began(index_);
    auto stop_idling = [&](std::chrono::steady_clock::time_point now) {
        idle_ += now - idle_since;
        if (trace::on(trace::Kind::idle)) trace::idle_ended(index_);
    };
    auto spin_end = idle_since + kSpin;
    for (;;) {
        if (duties_.free_waiting_tasks) duties_.free_waiting_tasks(*this, /*all=*/false);
        bool in_transit = duties_.poll_when_idle && duties_.poll_when_idle();
        Task* task = take_runnable();
        auto now = std::chrono::steady_clock::now();
        if (task || scheduler_.all_done()) {
            stop_idling(now);
            last_poll_ = now;  // this loop's poll stands for the one between tasks
            return task;
        }
        if (duties_.block_when_idle && wake_times_.empty()) {
            if (duties_.free_waiting_tasks) {
                duties_.free_waiting_tasks(*this, /*all=*/true);
                if (Task* freed = take_runnable()) {
                    stop_idling(std::chrono::steady_clock::now());
                    return freed;
                }
            }
            if (duties_.block_when_idle()) continue;
        }
        if (in_transit) spin_end = now + kSpin;
        if (now < spin_end || duties_.never_sleeps) {
            spin.pause(now);
            continue;
        }
        if (duties_.free_waiting_tasks) {
            duties_.free_waiting_tasks(*this, /*all=*/true);
            if (Task* task = take_runnable()) {
                stop_idling(std::chrono::steady_clock::now());
                return task;
            }
        }
        if (duties_.naps) std::this_thread::sleep_for(kNap);
        else wait_for_work();
    }
}

// From the loop, which holds no task: the task may still be leaving the worker that queued
// it, which lets go of it without waiting for anything.
void Worker::enter(Task& task) {
    if (!task.try_hold()) {
        PoliteSpin spin;
        do spin.pause();
        while (!task.try_hold());
    }
    enter_held(task);
}

void Worker::enter_held(Task& task) {
    if (duties_.before_task) duties_.before_task(&task);
    charge(RuntimeWork::task_switch);
    ++runs_;
    if (task.worker_.load(std::memory_order_relaxed) != this) {
        ++moved_in_;
        task.interval_moved_ = true;
    }
    if (slowdown_ > 1 || scheduler_.binding_pending()) slice_start_ = entered_at_ = std::chrono::steady_clock::now();
    task_began(task);
    task.enter(*this);
}

void Worker::task_began(const Task& task) {
    if (!duties_.times_tasks && !trace::on(trace::Kind::task)) return;
    auto now = std::chrono::steady_clock::now();
    task_began_at_ = now;
    if (trace::on(trace::Kind::task)) trace::task_began(index_, task.vrank(), now);
}

void Worker::task_ended(const Task& task) {
    if (!duties_.times_tasks && !trace::on(trace::Kind::task)) return;
    auto now = std::chrono::steady_clock::now();
    in_tasks_ += now - task_began_at_;
    if (trace::on(trace::Kind::task)) trace::task_ended(index_, task.vrank(), now);
}

void Worker::left_task(Task& task) {
    if (entered_at_ == std::chrono::steady_clock::time_point{}) return;
    task.ran_since_point_ += std::chrono::steady_clock::now() - entered_at_;
    entered_at_ = {};
}

void Worker::passed_evaluation_point(Task& task) {
    evaluation_points_.store(evaluation_points_.load(std::memory_order_relaxed) + 1, std::memory_order_relaxed);
    if (entered_at_ == std::chrono::steady_clock::time_point{}) return;
    auto now = std::chrono::steady_clock::now();
    task.ran_since_point_ += now - entered_at_;
    entered_at_ = now;
    // The interval since the task's previous point measures this worker if it ran here alone.
    if (task.evaluation_points_ > 0 && !task.interval_moved_) {
        point_time_.store(point_time_.load(std::memory_order_relaxed) + task.ran_since_point_.count(),
                          std::memory_order_relaxed);
        timed_points_.store(timed_points_.load(std::memory_order_relaxed) + 1, std::memory_order_relaxed);
    }
    task.ran_since_point_ = {};
    task.interval_moved_ = false;
}

// The seed's emulation of a slower processor (seed 002 section V): after each slice of a
// task, the worker stays away for (slowdown - 1) times the slice, off the CPU, so that on a
// machine whose cores the workers share a slow worker takes no time from the fast ones (nor
// would a slower processor). Short debts add up until a sleep is worth taking.
void Worker::slow_down() {
    constexpr auto kLeastSleep = std::chrono::microseconds(100);
    auto now = std::chrono::steady_clock::now();
    slowdown_owed_ += std::chrono::duration_cast<std::chrono::steady_clock::duration>((now - slice_start_) * (slowdown_ - 1));
    slice_start_ = now;
    if (slowdown_owed_ < kLeastSleep) return;
    std::this_thread::sleep_for(slowdown_owed_);
    slice_start_ = std::chrono::steady_clock::now();
    slowdown_owed_ -= slice_start_ - now;
}

void Worker::settle(boost::context::fiber&& left) {
    *leaving_slot_ = std::move(left);
    if (leaving_task_) leaving_task_->release();
}

void Worker::jump(boost::context::fiber& to, const SanitizerStack& to_stack, boost::context::fiber* from, Task* leaving) {
    leaving_slot_ = from;
    leaving_task_ = leaving;
    void* sanitizer_state = nullptr;
    to_stack.announce_switch(&sanitizer_state);
    boost::context::fiber left = std::move(to).resume();
    announce_arrival(sanitizer_state);
    // Back here, perhaps on another thread: whoever jumped set its own worker's slot.
    current()->settle(std::move(left));
}

void Worker::switch_away(Task& self) {
    // The poll runs on the loop's stack, not on a task's (which may be small).
    Task* next = poll_due() ? nullptr : take_runnable();
    if (next == &self) {  // woken meanwhile, or yielding with no other task runnable
        self.enter(*this);
        return;
    }
    left_task(self);
    task_ended(self);
    if (next && next->try_hold()) {
        enter_held(*next);
        jump(next->context_, next->sanitizer_stack_, &self.context_, &self);
        return;
    }
    // A task still leaving another worker is waited for by the loop, which holds no task:
    // waiting here, holding `self`, could wait for ever for a worker that waits for `self`.
    handed_to_loop_ = next;
    jump(loop_, loop_stack_, &self.context_, &self);
}

BAMBOO_NO_TSAN_FRAMES boost::context::fiber Worker::finished(Task& self) {
    end_slice();
    task_ended(self);
    scheduler_.task_finished();
    leaving_slot_ = &self.context_;  // receives nothing: the finished context is gone
    leaving_task_ = nullptr;         // and never runs again
    loop_stack_.announce_switch(nullptr);
    return std::move(loop_);
}

void Worker::run() {
    give_thread_a_signal_stack();
    loop_stack_.become_this_threads();
    running_worker = this;
    started_ = std::chrono::steady_clock::now();
    if (trace::on()) trace::worker_started(index_);
    while (!scheduler_.all_done()) {
        Task* task = std::exchange(handed_to_loop_, nullptr);
        if (!task) task = next_task();
        if (!task) break;
        ++loop_switches_;
        enter(*task);
        jump(task->context_, task->sanitizer_stack_, &loop_, nullptr);
        Task::leave();
    }
    if (trace::on()) trace::worker_stopped(index_);
    busy_ = std::chrono::steady_clock::now() - started_ - idle_;
    running_worker = nullptr;
}

}  // namespace bamboo
