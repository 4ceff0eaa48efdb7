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

std::string request_text(const Request& r) {
    if (r.kind == Request::Kind::receive) return describe_message(r.comm, r.pattern);
    if (r.kind == Request::Kind::collective || r.kind == Request::Kind::file)
        return std::string("its ") + r.call + " to complete";
    if (r.kind == Request::Kind::generalized)
        return std::string("its generalized request (") + r.call + ") to be completed by MPI_Grequest_complete";
    std::string text = "its " + std::to_string(r.target.bytes()) + "-byte message to vrank " + std::to_string(r.peer);
    if (r.synchronous) return text + " to be received (a synchronous send completes once a receive matches it)";
    if (r.awaits_receive)
        return text + " to be received (the receiving process had no room left to buffer it, see --bamboo-buffer-limit)";
    return text + " to leave the process";
}

// "from vrank 0 tag 3", "from rank 1 (vrank 3) tag 2 of <communicator>", as a rule lists them.
std::string expectation_text(const Rank& rank, const Pattern& p) {
    const Communicator* comm = rank.communicator_with_context(p.comm);
    if (p.comm & 1) return describe_message(comm, p).substr(2);  // "message of the collective ..."
    std::string text = "from " + describe_rank(comm, p.source) + " " +
                       (p.tag == kAny ? std::string("any tag") : "tag " + std::to_string(p.tag));
    if (p.comm != kWorldContext) text += " of " + (comm ? comm->name() : std::string("an unknown communicator"));
    return text;
}

std::string site_text(const WaitInfo& w) {
    if (!w.site.file) return "";
    return " at " + std::string(w.site.file) + ":" + std::to_string(w.site.line);
}

}  // namespace

std::string describe_wait(const Rank& rank) {
    const WaitInfo& w = rank.wait_info();
    std::string text = "task vrank " + std::to_string(rank.vrank()) + " waits in ";
    text += w.call ? w.call : "its firing rule";
    text += site_text(w);
    if (w.what) return text + " for " + w.what;
    if (w.request) return text + " for " + request_text(*w.request);
    if (w.handles) {
        std::string list;
        for (int i = 0; i < w.handle_count; ++i) {
            const Request* r = rank.requests().find(w.handles[i]);
            if (!r || r->complete.load()) continue;
            list += (list.empty() ? "" : "; ") + request_text(*r);
        }
        return text + " for: " + (list.empty() ? "nothing (its requests are complete)" : list);
    }
    // A firing rule, or MPI_Probe (a rule of one message).
    std::lock_guard<SpinLock> lock(rank.mailbox().mutex());
    const std::vector<Expectation>& rule = rank.mailbox().armed_rule();
    if (w.call && rule.size() == 1)
        return text + " for " + describe_message(rank.communicator_with_context(rule[0].pattern.comm), rule[0].pattern);
    std::string list;
    for (const Expectation& x : rule) {
        if (x.arrived >= x.expected) continue;
        list += list.empty() ? "" : ", ";
        list += expectation_text(rank, x.pattern);
        list += " (" + std::to_string(x.expected - x.arrived) + " missing)";
    }
    return text + " for: " + (list.empty() ? "nothing (its rule holds)" : list);
}

DeadlockWatch::DeadlockWatch(const Routes& routes, Traffic& traffic, double timeout_seconds)
    : routes_(routes),
      traffic_(traffic),
      rounds_(routes.process_count),
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
    }
    now.idle_long = now.idle && clock - last_move_ >= timeout_;
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
    abort_job(kExitDeadlock);
}

}  // namespace bamboo
