#include "run_queue.hpp"

namespace bamboo {

void RunQueue::push(Task* task, int priority) {
    auto level = levels_.begin();
    while (level != levels_.end() && level->priority > priority) ++level;
    if (level == levels_.end() || level->priority != priority)
        level = levels_.insert(level, Level{priority, {}});
    level->tasks.push_back(task);
    ++size_;
}

Task* RunQueue::pop() {
    for (Level& level : levels_) {
        if (level.tasks.empty()) continue;
        Task* task = level.tasks.front();
        level.tasks.pop_front();
        --size_;
        return task;
    }
    return nullptr;
}

}  // namespace bamboo
