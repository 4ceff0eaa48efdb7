#include "deadlock_watch.hpp"

#include <cstdio>
#include <mutex>

#include "comm_engine.hpp"
#include "communicators.hpp"
#include "errors.hpp"
#include "runtime.hpp"
#include "task.hpp"

namespace bamboo {
namespace {

constexpr auto kCheckInterval = std::chrono::milliseconds(50);

std::string rank_text(int rank, int comm) {
    if (rank == kAny) return "any source";
    return (comm == kCommWorld ? "vrank " : "rank ") + std::to_string(rank);
}

std::string tag_text(int tag) { return tag == kAny ? "any tag" : "tag " + std::to_string(tag); }

// "a message from vrank 2, tag 7, MPI_COMM_WORLD"
std::string message_text(const Pattern& p) {
    return "a message from " + rank_text(p.source, p.comm) + ", " + tag_text(p.tag) + ", " +
           comm_name(p.comm);
}

std::string request_text(const Request& r) {
    if (r.kind == Request::Kind::receive) return message_text(r.pattern);
    return "its " + std::to_string(r.target.bytes()) + "-byte message to vrank " +
           std::to_string(r.peer) + " to leave the process";
}

std::string site_text(const WaitInfo& w) {
    if (!w.site.file) return "";
    return " at " + std::string(w.site.file) + ":" + std::to_string(w.site.line);
}

}  // namespace

std::string describe_wait(const Task& task) {
    const WaitInfo& w = task.wait_info();
    std::string text = "task vrank " + std::to_string(task.vrank()) + " waits in ";
    text += w.call ? w.call : "its firing rule";
    text += site_text(w);
    if (w.request) return text + " for " + request_text(*w.request);
    if (w.handles) {
        std::string list;
        for (int i = 0; i < w.handle_count; ++i) {
            const Request* r = task.requests().find(w.handles[i]);
            if (!r || r->complete.load()) continue;
            list += (list.empty() ? "" : "; ") + request_text(*r);
        }
        return text + " for: " + (list.empty() ? "nothing (its requests are complete)" : list);
    }
    // A firing rule, or MPI_Probe (a rule of one message).
    std::lock_guard<SpinLock> lock(task.mailbox().mutex());
    const std::vector<Expectation>& rule = task.mailbox().armed_rule();
    if (w.call && rule.size() == 1) return text + " for " + message_text(rule[0].pattern);
    std::string list;
    for (const Expectation& x : rule) {
        if (x.arrived >= x.expected) continue;
        list += list.empty() ? "" : ", ";
        list += "from " + rank_text(x.pattern.source, x.pattern.comm) + " " + tag_text(x.pattern.tag);
        if (x.pattern.comm != kCommWorld) list += std::string(" ") + comm_name(x.pattern.comm);
        list += " (" + std::to_string(x.expected - x.arrived) + " missing)";
    }
    return text + " for: " + (list.empty() ? "nothing (its rule holds)" : list);
}

DeadlockWatch::DeadlockWatch(const Runtime& runtime, double timeout_seconds)
    : runtime_(runtime),
      timeout_(timeout_seconds),
      last_progress_(std::chrono::steady_clock::now()) {}

std::uint64_t DeadlockWatch::messages_moved() const {
    std::uint64_t moved = runtime_.engine ? runtime_.engine->moves() : 0;
    for (const auto& task : runtime_.tasks) moved += task->mailbox().arrivals();
    return moved;
}

bool DeadlockWatch::all_waiting_or_done() const {
    bool any_waiting = false;
    for (const auto& task : runtime_.tasks) {
        TaskState state = task->state();
        if (state == TaskState::runnable || state == TaskState::running) return false;
        any_waiting = any_waiting || state == TaskState::waiting;
    }
    return any_waiting;
}

void DeadlockWatch::check() {
    std::unique_lock<std::mutex> lock(checking_, std::try_to_lock);
    if (!lock.owns_lock()) return;  // another thread is checking
    auto now = std::chrono::steady_clock::now();
    if (now - last_check_ < kCheckInterval) return;
    last_check_ = now;
    std::uint64_t moved = messages_moved();
    if (moved != last_moved_ || !all_waiting_or_done()) {
        last_moved_ = moved;
        last_progress_ = now;
        return;
    }
    std::chrono::duration<double> idle = now - last_progress_;
    if (idle >= timeout_) report_and_abort(idle.count());
}

void DeadlockWatch::report_and_abort(double idle_seconds) const {
    char heading[128];
    std::snprintf(heading, sizeof heading, "bamboo: no progress for %.1f s; waiting tasks of process %d:",
                  idle_seconds, runtime_.process);
    std::string report = heading;
    for (const auto& task : runtime_.tasks)
        if (task->state() == TaskState::waiting) report += "\nbamboo:   " + describe_wait(*task);
    report += "\n";
    std::fwrite(report.data(), 1, report.size(), stderr);  // one write: lines stay together
    std::fflush(stderr);
    abort_job(kExitDeadlock);
}

}  // namespace bamboo
