// The deadlock watch: when tasks of this process wait, none can run, and no message has
// moved for the deadlock timeout, it reports what every waiting task waits for and aborts
// the job (exit code 3).
#pragma once

#include <chrono>
#include <cstdint>
#include <mutex>
#include <string>

namespace bamboo {

struct Runtime;
class Task;

class DeadlockWatch {
public:
    DeadlockWatch(const Runtime& runtime, double timeout_seconds);

    // Called often, from any thread (workers that drive the comm engine call it
    // concurrently); cheap unless a check is due.
    void check();

private:
    std::uint64_t messages_moved() const;
    bool all_waiting_or_done() const;
    [[noreturn]] void report_and_abort(double idle_seconds) const;

    const Runtime& runtime_;
    std::mutex checking_;
    std::chrono::duration<double> timeout_;
    std::chrono::steady_clock::time_point last_check_{};
    std::chrono::steady_clock::time_point last_progress_;
    std::uint64_t last_moved_ = 0;
};

// One line on what `task` waits for, e.g. "waits in MPI_Recv at ring.c:14 for a message
// from vrank 2, tag 7, MPI_COMM_WORLD". Meaningful only while the task waits.
std::string describe_wait(const Task& task);

}  // namespace bamboo
