#include "deadlock_watch.hpp"

#include <cstdio>
#include <mutex>

#include "comm_engine.hpp"
#include "errors.hpp"
#include "reports.hpp"
#include "runtime.hpp"
#include "task.hpp"

namespace bamboo {
namespace {

constexpr auto kCheckInterval = std::chrono::milliseconds(50);

std::string request_text(const Request& r) {
    if (r.kind == Request::Kind::receive) return describe_message(r.comm, r.pattern);
    return "its " + std::to_string(r.target.bytes()) + "-byte message to vrank " +
           std::to_string(r.peer) + " to leave the process";
}

// "from vrank 0 tag 3", "from rank 1 (vrank 3) tag 2 of <communicator>", as a rule lists them.
std::string expectation_text(const Task& task, const Pattern& p) {
    const Communicator* comm = task.communicator_with_context(p.comm);
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
    if (w.call && rule.size() == 1)
        return text + " for " + describe_message(task.communicator_with_context(rule[0].pattern.comm), rule[0].pattern);
    std::string list;
    for (const Expectation& x : rule) {
        if (x.arrived >= x.expected) continue;
        list += list.empty() ? "" : ", ";
        list += expectation_text(task, x.pattern);
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
