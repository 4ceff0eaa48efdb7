#include "process/deadlock_watch.hpp"

#include <algorithm>
#include <cstdio>
#include <mutex>

#include "messaging/rank.hpp"
#include "messaging/reports.hpp"
#include "messaging/routes.hpp"
#include "transport/traffic.hpp"
#include "util/errors.hpp"

namespace bamboo {
namespace {

constexpr std::chrono::milliseconds kIdleRoundInterval(20);

}  // namespace

DeadlockWatch::DeadlockWatch(const Routes& routes, Traffic& traffic, double timeout_seconds, bool idle_blocks)
    : routes_(routes),
      traffic_(traffic),
      rounds_(routes.process, routes.process_count, idle_blocks),
      timeout_(timeout_seconds),
      last_move_(std::chrono::steady_clock::now()) {}

Activity DeadlockWatch::activity() {
    auto moved = [&] {
        std::uint64_t count = traffic_.moves();
        for (const auto& rank : routes_.ranks) count += rank->mailbox().arrivals();
        return count;
    };
    Activity now;
    now.moved = moved();
    now.sent = traffic_.sent_total();
    now.received = traffic_.received_total();
    bool all_done = true, any_runs = false;
    for (const auto& rank : routes_.ranks) {
        TaskState state = rank->state();
        all_done = all_done && state == TaskState::done;
        any_runs = any_runs || state == TaskState::runnable || state == TaskState::running ||
                   rank->asleep();  // it wakes by itself
        now.waiting = now.waiting || state == TaskState::waiting;
    }
    // Whatever moved while the states were read makes this look not idle.
    now.idle = !any_runs && !traffic_.moving() && moved() == now.moved;
    now.done = all_done && now.idle;
    auto clock = std::chrono::steady_clock::now();
    if (now.moved != last_moved_ || !now.idle) {
        last_moved_ = now.moved;
        last_move_ = clock;
        idle_hook_ran_ = false;
    }
    now.idle_long = now.idle && clock - last_move_ >= timeout_;
    if (on_idle_ && now.idle && !idle_hook_ran_ && clock - last_move_ >= idle_after_) {
        idle_hook_ran_ = true;
        on_idle_();
    }
    return now;
}

bool DeadlockWatch::job_finished() {
    std::unique_lock<std::mutex> lock(stepping_, std::try_to_lock);
    if (!lock.owns_lock()) return false;  // another thread is at it
    if (finished_) return true;
    // Rounds while idle: often enough to report a deadlock soon after the timeout, rarely
    // enough to cost nothing.
    auto interval = std::chrono::duration_cast<std::chrono::steady_clock::duration>(
        std::min(timeout_ / 4, std::chrono::duration<double>(kIdleRoundInterval)));
    JobState state = traffic_.exclusively([&] { return rounds_.advance(activity(), interval); });
    switch (state) {
        case JobState::running: return false;
        case JobState::finished: finished_ = true; return true;
        case JobState::deadlocked: report_and_abort();
    }
    return false;
}

void DeadlockWatch::report_and_abort() const {
    char heading[200];
    std::snprintf(heading, sizeof heading,
                  "bamboo: deadlock: no task of any process can run and no message is in flight "
                  "(for %.1f s); waiting tasks of process %d:",
                  timeout_.count(), routes_.process);
    std::string report = heading;
    for (const auto& rank : routes_.ranks)
        if (rank->state() == TaskState::waiting) report += "\nbamboo:   " + describe_wait(*rank);
    report += "\n";
    std::fwrite(report.data(), 1, report.size(), stderr);  // one write: lines stay together
    std::fflush(stderr);
    abort_job(kExitDeadlock, Stop::deadlock);
}

}  // namespace bamboo
