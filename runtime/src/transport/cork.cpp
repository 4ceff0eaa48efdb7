#include "transport/cork.hpp"

namespace bamboo {

Cork::Cork(int tasks) : tasks_(static_cast<std::size_t>(tasks)) {}

void Cork::stopped(std::int64_t now) {
    if (running_ < 0) return;
    Runs& last = tasks_[static_cast<std::size_t>(running_)];
    last.run = now - started_ - sending_;
    if (last.block_ended != kUnknown) last.after_block = now - last.block_ended;
    last.block_ended = kUnknown;
    running_ = -1;
}

void Cork::started(int task, std::int64_t now) {
    running_ = task;
    started_ = now;
    sending_ = 0;
}

}  // namespace bamboo
