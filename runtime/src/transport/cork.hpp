// When the send blocks of a process's tasks may wait for each other and leave as one MPI
// message per process (single-thread mode).
//
// A send block's messages for one process already travel in one MPI message (CommEngine::
// send_held). But where one thread runs all the tasks of a process, the tasks that run one
// after another each send a block to the same neighbouring processes: in an exchange on
// multigrid's coarse levels the eight tasks of a process send 56 MPI messages where an MPI
// rank sends 26 to the same processes, and the fixed cost of each at both ends is all the
// time there is. So a block's messages may stay corked while the next tasks run, and leave
// joined with theirs.
//
// A corked message moves only once the cork opens, so it must not wait over long work:
// - a block is corked only if, the last time, its task went on for a short while after its
//   block before it stopped (an exchange waits in a receive at once); a task that computes
//   after sending (an overlapped region's interior) sends at once, as without the cork;
// - the cork opens before a task whose last run was long, and once it has been closed a
//   while; the comm engine also opens it whenever it does a round of progress (an idle
//   thread, the poll between tasks) and before a message that may not join it.
// A run is counted less the time the task spent handing messages to MPI (under SMPI each MPI
// message costs its sender simulated time), or a task sending to many processes would run
// long for its sends and never be corked: what a corked message must not wait over is work.
// A task's first block, with nothing measured yet, is never corked. Times are the process's
// clock (util/simulation.hpp: simulated time under SMPI), so a simulation decides alike at
// every run.
#pragma once

#include <cstdint>
#include <vector>

namespace bamboo {

class Cork {
public:
    // `tasks`: the process's tasks, numbered from 0.
    explicit Cork(int tasks);

    // Whether task `task`'s send block, just ended, may stay corked. The caller says
    // `closed(now)` when it corks the first block, and `block_ended` once the block is corked
    // or sent.
    bool may_cork(int task) const { return short_run(tasks_[static_cast<std::size_t>(task)].after_block); }
    void closed(std::int64_t now) { closed_at_ = now; }
    void block_ended(int task, std::int64_t now) { tasks_[static_cast<std::size_t>(task)].block_ended = now; }
    // The running task spent `ns` sending: not counted in its run, which would otherwise be
    // long for its sends, and never corked.
    void sent(std::int64_t ns) { sending_ += ns; }

    // The running task stopped at `now`.
    void stopped(std::int64_t now);
    // Whether what is corked may wait over a run of task `next` from `now` on.
    bool may_stay_closed(int next, std::int64_t now) const {
        return short_run(tasks_[static_cast<std::size_t>(next)].run) && now - closed_at_ < kLongestNs;
    }
    // Task `task` starts a run at `now`.
    void started(int task, std::int64_t now);

    // A run this short, or shorter, may be waited over (about the fixed cost of an MPI
    // message at both ends, which joining saves).
    static constexpr std::int64_t kShortRunNs = 5'000;
    // The longest a message stays corked.
    static constexpr std::int64_t kLongestNs = 50'000;

private:
    static constexpr std::int64_t kUnknown = -1;
    struct Runs {
        std::int64_t run = kUnknown;          // its last run, start to stop, less its sending
        std::int64_t after_block = kUnknown;  // in its last run with a block, from its end on
        std::int64_t block_ended = kUnknown;  // in the current run
    };
    static bool short_run(std::int64_t ns) { return ns != kUnknown && ns <= kShortRunNs; }

    std::vector<Runs> tasks_;
    int running_ = -1;
    std::int64_t started_ = 0;
    std::int64_t sending_ = 0;  // in the current run
    std::int64_t closed_at_ = 0;
};

}  // namespace bamboo
