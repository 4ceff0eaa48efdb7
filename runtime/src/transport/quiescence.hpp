// Whether the whole job has finished, or can never move again (a deadlock): a distributed
// quiescence check over all processes.
//
// In rounds, every process contributes what it knows of itself: whether its tasks are all
// done, whether it is quiet (no task can run, the comm engine moves nothing, and nothing
// moved since its previous contribution), and how many messages it sent to and received from
// other processes. The job has
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
//
// A process that blocks in MPI while idle (single-thread mode under SimGrid SMPI, see
// CommEngine::wait_for_any) takes part only once its tasks are done: that is all the end of
// the job needs, and a deadlock leaves every simulated process blocked, which SimGrid
// reports itself.
//
// A round is a sum up a binomial tree of the processes (rooted at process 0) and the total
// back down it, in point-to-point messages on a communicator of its own: each process sends
// and receives at most 2 log2(P) + 2 of them a round. Not MPI_Iallreduce: SimGrid's SMPI
// makes that P - 1 sends and receives per process (P^2 messages a round, each a simulation
// event), bills a failed test of it per message inside, and an MPI_Waitany that includes it
// waits for the whole collective. The receives a round waits for are posted ahead, so that
// an idle process can block in MPI on them together with the comm engine's
// (CommEngine::wait_for_any).
#pragma once

#include <mpi.h>

#include <array>
#include <chrono>
#include <cstdint>
#include <optional>
#include <vector>

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
    // `idle_blocks`: the process blocks in MPI while idle (see above); the rounds' receives
    // then complete only in its waits, which leave them MPI_REQUEST_NULL, and are never tested.
    QuiescenceRounds(int process, int process_count, bool idle_blocks);
    QuiescenceRounds(const QuiescenceRounds&) = delete;
    QuiescenceRounds& operator=(const QuiescenceRounds&) = delete;

    // One step, from one thread at a time: takes what arrived from the tree, contributes to
    // the round if this process has something to contribute (it is done, or, unless it
    // blocks while idle, quiet at most every `idle_interval`) and has not yet, passes the
    // round's sums on, and judges a completed round. Returns what the last completed round
    // found. Once that is a conclusion, no request of the rounds is left pending.
    JobState advance(const Activity& now, std::chrono::steady_clock::duration idle_interval);

    // The receives the round in progress waits for (from the children, then from the parent).
    void pending_receives(std::vector<MPI_Request*>& out);

private:
    static constexpr int kFields = 6;
    using Sums = std::uint64_t[kFields];

    bool step(const Activity& now, std::chrono::steady_clock::duration idle_interval);  // true: a round completed
    bool completed(MPI_Request& request);
    void post_receives();
    bool take_arrivals();  // true once every child's sums are in
    void complete_round(const Sums& totals);

    int process_;
    int process_count_;
    bool idle_blocks_;
    MPI_Comm comm_ = MPI_COMM_NULL;
    int parent_ = -1;             // none at the root
    std::vector<int> children_;
    // Posted for the round in progress: one receive per child, and the total from the parent.
    std::vector<MPI_Request> from_children_;
    std::vector<std::array<std::uint64_t, kFields>> child_sums_;
    std::vector<bool> child_in_;
    MPI_Request from_parent_ = MPI_REQUEST_NULL;
    Sums total_ = {};
    // Sends of the last step; their buffers stay until they complete.
    std::vector<MPI_Request> sends_;
    Sums up_ = {};
    Sums down_ = {};

    Sums partial_ = {};  // this process's contribution and its children's sums
    bool contributed_ = false;
    bool sent_up_ = false;
    std::optional<RoundTotals> previous_;
    std::uint64_t moved_at_contribution_ = ~std::uint64_t{0};  // none yet: not quiet
    JobState state_ = JobState::running;
    std::chrono::steady_clock::time_point last_contribution_{};
};

}  // namespace bamboo
