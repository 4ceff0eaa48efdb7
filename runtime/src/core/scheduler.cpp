#include "core/scheduler.hpp"

#include <algorithm>
#include <chrono>
#include <climits>

#include "core/task.hpp"
#include "core/worker.hpp"

namespace bamboo {

Scheduler::Scheduler(QueueKind kind, int bind_after) : kind_(kind), bind_after_(bind_after) {}

void Scheduler::add_worker(Worker& worker) {
    workers_.push_back(&worker);
    stealable_.push_back(kind_ == QueueKind::steal ? std::make_unique<SharedRunQueue>() : nullptr);
    bound_to_.push_back(0);
}

void Scheduler::start(Task& task, Worker& worker) {
    live_tasks_.fetch_add(1);
    task.worker_.store(&worker, std::memory_order_relaxed);
    task.points_on_.assign(workers_.size(), 0);
    if (kind_ == QueueKind::private_queues) {
        task.home_.store(&worker, std::memory_order_relaxed);
        ++bound_to_[static_cast<std::size_t>(worker.index())];
    } else if (bind_after_ != kNeverBind) {
        unbound_tasks_.fetch_add(1);
    }
    enqueue(task);
}

void Scheduler::enqueue(Task& task) {
    if (Worker* home = task.home()) {
        home->enqueue_own(&task);
        return;
    }
    SharedRunQueue& queue = kind_ == QueueKind::shared ? shared_ : *stealable_[static_cast<std::size_t>(task.worker().index())];
    queue.push(&task, task.priority());
    wake_sleepers();
}

// Read after the push, as a worker about to sleep counts itself before its last look at the
// queues (both sequentially consistent): either it sees the task, or the push sees it.
void Scheduler::wake_sleepers() {
    if (sleepers_.load() == 0) return;
    for (Worker* worker : workers_) worker->nudge();
}

Task* Scheduler::take_movable(Worker& worker, int than) {
    if (kind_ == QueueKind::shared) return shared_.pop_above(than);
    if (kind_ != QueueKind::steal) return nullptr;
    const std::size_t me = static_cast<std::size_t>(worker.index());
    if (Task* task = stealable_[me]->pop_above(than)) return task;
    if (than != INT_MIN) return nullptr;  // it has a task of its own to run: no stealing
    for (std::size_t i = 1; i < workers_.size(); ++i)
        if (Task* task = stealable_[(me + i) % workers_.size()]->pop_above(INT_MIN)) return task;
    return nullptr;
}

bool Scheduler::movable_work() const {
    switch (kind_) {
        case QueueKind::private_queues:
            return false;
        case QueueKind::shared:
            return !shared_.empty();
        case QueueKind::steal:
            return std::any_of(stealable_.begin(), stealable_.end(), [](const auto& queue) { return !queue->empty(); });
    }
    return false;
}

void Scheduler::task_finished() {
    if (live_tasks_.fetch_sub(1) != 1) return;
    for (Worker* worker : workers_) worker->nudge();
}

void Scheduler::evaluation_point(Task& task, Worker& worker) {
    ++task.points_on_[static_cast<std::size_t>(worker.index())];
    ++task.evaluation_points_;
    if (bind_after_ == kNeverBind || task.home() || task.evaluation_points_ < bind_after_) return;
    bind(task);
    // Bound elsewhere, it moves now: a task whose messages are always there before it looks
    // never suspends, so it would never go through a queue again.
    if (task.home() != &worker) task.yield();
}

// The time tasks ran on each worker per evaluation point so far measures its speed. The task
// goes to the worker that would finish its bound tasks soonest with this one added; among
// those within 5 % of that, to the one that ran it most (its data is in that core's cache).
// Binding every task so, one by one, gives each worker a share that follows its speed.
void Scheduler::bind(Task& task) {
    std::lock_guard<std::mutex> lock(binding_mutex_);
    const std::size_t n = workers_.size();
    std::vector<double> cost(n, 0);  // seconds per evaluation point; 0: not measured yet
    double known = 0;
    int measured = 0;
    for (std::size_t w = 0; w < n; ++w) {
        cost[w] = workers_[w]->seconds_per_point();
        if (cost[w] == 0) continue;
        known += cost[w];
        ++measured;
    }
    double unmeasured = measured ? known / measured : 1.0;
    std::vector<double> finish(n);
    for (std::size_t w = 0; w < n; ++w)
        finish[w] = static_cast<double>(bound_to_[w] + 1) * (cost[w] > 0 ? cost[w] : unmeasured);
    double soonest = *std::min_element(finish.begin(), finish.end());
    std::size_t chosen = n;
    for (std::size_t w = 0; w < n; ++w) {
        if (finish[w] > soonest * 1.05) continue;
        if (chosen == n || task.points_on_[w] > task.points_on_[chosen] ||
            (task.points_on_[w] == task.points_on_[chosen] && finish[w] < finish[chosen]))
            chosen = w;
    }
    ++bound_to_[chosen];
    task.home_.store(workers_[chosen], std::memory_order_relaxed);
    unbound_tasks_.fetch_sub(1, std::memory_order_relaxed);
}

int Scheduler::tasks_bound_to(const Worker& worker) {
    std::lock_guard<std::mutex> lock(binding_mutex_);
    return bound_to_[static_cast<std::size_t>(worker.index())];
}

}  // namespace bamboo
