// A worker's runnable tasks: higher priority first, first in first out among equals.
#pragma once

#include <cstddef>
#include <deque>
#include <vector>

namespace bamboo {

class Task;

class RunQueue {
public:
    void push(Task* task, int priority);
    Task* pop();  // nullptr when empty
    bool empty() const { return size_ == 0; }
    std::size_t size() const { return size_; }

private:
    struct Level {
        int priority;
        std::deque<Task*> tasks;
    };
    std::vector<Level> levels_;  // by decreasing priority; programs use few distinct values
    std::size_t size_ = 0;
};

}  // namespace bamboo
