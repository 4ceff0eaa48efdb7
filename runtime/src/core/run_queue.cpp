#include "core/run_queue.hpp"

namespace bamboo {

void RunQueue::Level::grow() {
    std::size_t new_capacity = capacity ? 2 * capacity : 8;
    std::unique_ptr<Task*[]> bigger(new Task*[new_capacity]);
    for (std::size_t i = 0; i < count; ++i) bigger[i] = ring[(head + i) & (capacity - 1)];
    ring = std::move(bigger);
    capacity = new_capacity;
    head = 0;
}

RunQueue::Level& RunQueue::add_level(int priority) {
    auto level = levels_.begin();
    while (level != levels_.end() && level->priority > priority) ++level;
    level = levels_.emplace(level);
    level->priority = priority;
    return *level;
}

}  // namespace bamboo
