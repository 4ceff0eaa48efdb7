// The deadlock watch, and the end of the job: the job is deadlocked when no task of any
// process can run, no message is in flight anywhere, and that has lasted the deadlock
// timeout (checked over all processes, see transport/quiescence.hpp); then every process
// reports what each of its waiting tasks waits for, and the job is aborted (exit code 3). A
// process whose tasks wait for another that computes, sleeps or does I/O is never reported.
#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <mutex>
#include <string>
#include <vector>

#include "transport/quiescence.hpp"

namespace bamboo {

struct Routes;
class Traffic;

class DeadlockWatch {
public:
    // Collective (all processes construct it, in the same order as other communicators).
    // `routes` are the process's ranks, `traffic` its comm engine's. `idle_blocks`: an idle
    // process blocks in MPI (single-thread mode under SimGrid SMPI): it takes part in the
    // job-wide check only once done, and a deadlock is SimGrid's to report
    // (transport/quiescence.hpp).
    DeadlockWatch(const Routes& routes, Traffic& traffic, double timeout_seconds, bool idle_blocks);

    // Called often, from any thread (workers that drive the comm engine call it
    // concurrently); cheap unless a round of the job-wide check is due. Reports and aborts
    // the job if it is deadlocked. Returns whether the whole job has finished: every task of
    // every process done and every message received, so the process may leave.
    bool job_finished();

    // Runs `hook` once the process has been idle (nothing runnable, nothing moving) for
    // `after`, and again after each later stretch of activity (--bamboo-trace: the part of a
    // process that may be killed without warning).
    void when_idle_for(std::chrono::duration<double> after, std::function<void()> hook) {
        idle_after_ = after;
        on_idle_ = std::move(hook);
    }

    // With `idle_blocks`: the receives of the job-wide check that an idle wait must include.
    void pending_receives(std::vector<MPI_Request*>& out) { rounds_.pending_receives(out); }

private:
    Activity activity();
    [[noreturn]] void report_and_abort() const;

    const Routes& routes_;
    Traffic& traffic_;
    std::mutex stepping_;
    QuiescenceRounds rounds_;
    std::chrono::duration<double> timeout_;
    std::chrono::steady_clock::time_point last_move_;
    std::uint64_t last_moved_ = 0;
    bool finished_ = false;
    std::chrono::duration<double> idle_after_{0};
    std::function<void()> on_idle_;
    bool idle_hook_ran_ = false;  // since the last move
};

}  // namespace bamboo
