// Tasks for unit tests: each runs a function on a stack of its own, all on one worker that
// the test runs on its own thread.
#pragma once

#include <cstddef>
#include <functional>
#include <memory>
#include <utility>
#include <vector>

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
    explicit TaskGroup(std::size_t capacity, WorkerDuties duties = {})
        : worker_(std::move(duties)), stacks_(capacity, 256u << 10) {}

    // A task numbered by the order of adding, which is also the order the worker starts them
    // in (at one priority).
    Task& add(std::function<void()> body, int priority = 0) {
        std::size_t id = tasks_.size();
        tasks_.push_back(std::make_unique<FunctionTask>(static_cast<int>(id), worker_, stacks_.stack(id), std::move(body)));
        tasks_.back()->set_priority(priority);
        worker_.assign(tasks_.back().get());
        return *tasks_.back();
    }
    Task& operator[](std::size_t id) { return *tasks_[id]; }

    // Runs the tasks on the calling thread until all are done.
    void run() { worker_.run(); }
    const Worker& worker() const { return worker_; }

private:
    Worker worker_;
    TaskStacks stacks_;
    std::vector<std::unique_ptr<FunctionTask>> tasks_;  // destroyed before their stacks
};

}  // namespace bamboo
