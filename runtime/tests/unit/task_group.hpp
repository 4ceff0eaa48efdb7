// Tasks for unit tests: each runs a function on a stack of its own, on workers of one
// scheduler: one worker by default, which the test runs on its own thread; with more, the
// others get threads of their own.
#pragma once

#include <cstddef>
#include <functional>
#include <memory>
#include <thread>
#include <utility>
#include <vector>

#include "core/scheduler.hpp"
#include "core/task.hpp"
#include "core/task_stacks.hpp"
#include "core/worker.hpp"

namespace bamboo {

class FunctionTask final : public Task {
public:
    FunctionTask(int id, Worker& worker, boost::context::stack_context stack, std::function<void()> body)
        : Task(id, worker, stack, nullptr), body_(std::move(body)) {}

private:
    int run() override {
        body_();
        return 0;
    }

    std::function<void()> body_;
};

class TaskGroup {
public:
    // `slowdown`: per worker (Worker), missing ones 1.
    explicit TaskGroup(std::size_t capacity, WorkerDuties duties = {}, QueueKind queue = QueueKind::private_queues,
                       int workers = 1, int bind_after = kNeverBind, std::vector<double> slowdown = {})
        : scheduler_(queue, bind_after), stacks_(capacity, 256u << 10) {
        slowdown.resize(static_cast<std::size_t>(workers), 1.0);
        for (int w = 0; w < workers; ++w) {
            workers_.push_back(std::make_unique<Worker>(w, scheduler_, duties, slowdown[static_cast<std::size_t>(w)]));
            scheduler_.add_worker(*workers_.back());
        }
    }

    // A task numbered by the order of adding, which is also the order worker 0 starts them
    // in (at one priority); `worker` is the one it is given at start.
    Task& add(std::function<void()> body, int priority = 0, int worker = 0) {
        std::size_t id = tasks_.size();
        Worker& first = *workers_[static_cast<std::size_t>(worker)];
        tasks_.push_back(std::make_unique<FunctionTask>(static_cast<int>(id), first, stacks_.stack(id), std::move(body)));
        tasks_.back()->set_priority(priority);
        scheduler_.start(*tasks_.back(), first);
        return *tasks_.back();
    }
    Task& operator[](std::size_t id) { return *tasks_[id]; }

    // Runs the tasks until all are done: worker 0 on the calling thread, the others on
    // threads of their own.
    void run() {
        std::vector<std::thread> others;
        for (std::size_t w = 1; w < workers_.size(); ++w) others.emplace_back([this, w] { workers_[w]->run(); });
        workers_[0]->run();
        for (std::thread& thread : others) thread.join();
    }
    const Worker& worker(std::size_t index = 0) const { return *workers_[index]; }
    Scheduler& scheduler() { return scheduler_; }

private:
    Scheduler scheduler_;
    std::vector<std::unique_ptr<Worker>> workers_;
    TaskStacks stacks_;
    std::vector<std::unique_ptr<FunctionTask>> tasks_;  // destroyed before their stacks
};

}  // namespace bamboo
