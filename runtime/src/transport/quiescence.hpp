// Whether the whole job has finished, or can never move again (a deadlock): a distributed
// quiescence check over all processes.
//
// In rounds, every process contributes what it knows of itself (nonblocking allreduce on a
// communicator of its own): whether its tasks are all done, whether it is quiet (no task can
// run, the comm engine moves nothing, and nothing moved since its previous contribution), and
// how many messages it sent to and received from other processes. The job has
//   - finished when every process is done and as many messages were received as were sent
//     (done processes send nothing new, so one round suffices);
//   - deadlocked when two consecutive rounds find every process quiet, some task waiting, as
//     many messages received as sent, and the same counts in both rounds, and in the second
//     every process has been quiet for the deadlock timeout. Contributions are taken at
//     different moments; a message sent after one process's contribution and received before
//     another's could balance the counts of a single round, but the sender is then not quiet
//     in the next (Mattern's four-counter method).
// A process that is running tasks contributes nothing: the round waits for it, which costs
// nothing, since no conclusion is possible while it runs. A long computation, sleep or I/O in
// any process therefore never looks like a deadlock.
#pragma once

#include <mpi.h>

#include <chrono>
#include <cstdint>
#include <optional>

namespace bamboo {

enum class JobState { running, finished, deadlocked };

// What a process knows of itself when it may contribute to a round.
struct Activity {
    bool done = false;        // its tasks have finished and its engine has nothing left to do
    bool idle = false;        // no task can run and its engine moves nothing now
    bool idle_long = false;   // ... and nothing has moved for the deadlock timeout
    bool waiting = false;     // some task waits
    std::uint64_t moved = 0;     // messages moved in this process so far (any kind)
    std::uint64_t sent = 0;      // messages to other processes, since the start
    std::uint64_t received = 0;  // messages from other processes
};

// A round's sums over all processes.
struct RoundTotals {
    std::uint64_t not_done = 0;
    std::uint64_t not_quiet = 0;
    std::uint64_t not_quiet_long = 0;
    std::uint64_t waiting = 0;
    std::uint64_t sent = 0;
    std::uint64_t received = 0;
};

// What a completed round tells, given the round before it (none for the first).
JobState judge(const std::optional<RoundTotals>& previous, const RoundTotals& current);

class QuiescenceRounds {
public:
    // Collective over MPI_COMM_WORLD (it duplicates it) when there are several processes.
    explicit QuiescenceRounds(int process_count);
    QuiescenceRounds(const QuiescenceRounds&) = delete;
    QuiescenceRounds& operator=(const QuiescenceRounds&) = delete;

    // One step, from one thread at a time: completes the pending round if MPI has, and starts
    // the next one if this process has something to contribute (it is done, or quiet at most
    // every `idle_interval`). Returns what the last completed round found.
    JobState advance(const Activity& now, std::chrono::steady_clock::duration idle_interval);

private:
    static constexpr int kFields = 6;

    int process_count_;
    MPI_Comm comm_ = MPI_COMM_NULL;
    MPI_Request round_ = MPI_REQUEST_NULL;
    std::uint64_t mine_[kFields] = {};
    std::uint64_t sums_[kFields] = {};
    std::optional<RoundTotals> previous_;
    std::uint64_t moved_at_contribution_ = ~std::uint64_t{0};  // none yet: not quiet
    JobState state_ = JobState::running;
    std::chrono::steady_clock::time_point last_start_{};
};

}  // namespace bamboo
