// A worker's runnable tasks: higher priority first, first in first out among equals.
//
// Every switch between tasks pushes and pops here (hence inline), and the queue allocates
// only while it grows: each priority level is a ring buffer whose capacity doubles when full
// (a task is queued at most once, so it never exceeds the worker's task count).
#pragma once

#include <climits>
#include <cstddef>
#include <memory>
#include <vector>

namespace bamboo {

class Task;

class RunQueue {
public:
    void push(Task* task, int priority) {
        level_for(priority).push(task);
        ++size_;
    }
    Task* pop() {  // nullptr when empty
        if (size_ == 0) return nullptr;
        for (Level& level : levels_) {
            if (level.count == 0) continue;
            --size_;
            return level.pop();
        }
        return nullptr;
    }
    bool empty() const { return size_ == 0; }
    std::size_t size() const { return size_; }
    // The priority of the task pop() would return; INT_MIN when empty.
    int top_priority() const {
        for (const Level& level : levels_)
            if (level.count != 0) return level.priority;
        return INT_MIN;
    }

private:
    struct Level {
        int priority = 0;
        std::unique_ptr<Task*[]> ring;
        std::size_t capacity = 0;  // a power of two (or zero)
        std::size_t head = 0;      // index of the oldest task
        std::size_t count = 0;

        void push(Task* task) {
            if (count == capacity) grow();
            ring[(head + count) & (capacity - 1)] = task;
            ++count;
        }
        Task* pop() {
            Task* task = ring[head];
            head = (head + 1) & (capacity - 1);
            --count;
            return task;
        }
        void grow();
    };

    Level& level_for(int priority) {
        for (Level& level : levels_) {
            if (level.priority == priority) return level;
            if (level.priority < priority) break;
        }
        return add_level(priority);
    }
    Level& add_level(int priority);

    std::vector<Level> levels_;  // by decreasing priority; programs use few distinct values
    std::size_t size_ = 0;
};

}  // namespace bamboo
