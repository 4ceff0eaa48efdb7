#include "transport/quiescence.hpp"

#include "util/mpi_guard.hpp"

namespace bamboo {

JobState judge(const std::optional<RoundTotals>& previous, const RoundTotals& current) {
    bool balanced = current.sent == current.received;
    if (current.not_done == 0 && balanced) return JobState::finished;
    auto still = [](const RoundTotals& t) {
        return t.not_quiet == 0 && t.waiting > 0 && t.sent == t.received;
    };
    if (previous && still(*previous) && still(current) && previous->sent == current.sent &&
        previous->received == current.received && current.not_quiet_long == 0)
        return JobState::deadlocked;
    return JobState::running;
}

// The communicator lives until MPI_Finalize. Every process stops after the same round (the one
// that found the job finished), so none is left pending.
QuiescenceRounds::QuiescenceRounds(int process_count) : process_count_(process_count) {
    if (process_count_ > 1) MPI_Comm_dup(MPI_COMM_WORLD, &comm_);
}

JobState QuiescenceRounds::advance(const Activity& now, std::chrono::steady_clock::duration idle_interval) {
    if (state_ != JobState::running) return state_;
    if (round_ != MPI_REQUEST_NULL) {
        int complete = 0;
        {
            MpiGuard guard;
            MPI_Test(&round_, &complete, MPI_STATUS_IGNORE);
        }
        if (!complete) return state_;
        RoundTotals totals{sums_[0], sums_[1], sums_[2], sums_[3], sums_[4], sums_[5]};
        state_ = judge(previous_, totals);
        previous_ = totals;
        if (state_ != JobState::running) return state_;
    }
    auto clock = std::chrono::steady_clock::now();
    if (!now.done && !(now.idle && clock - last_start_ >= idle_interval)) return state_;
    last_start_ = clock;
    bool quiet = now.done || (now.idle && now.moved == moved_at_contribution_);
    moved_at_contribution_ = now.moved;
    mine_[0] = !now.done;
    mine_[1] = !quiet;
    mine_[2] = !(now.done || (quiet && now.idle_long));
    mine_[3] = now.waiting;
    mine_[4] = now.sent;
    mine_[5] = now.received;
    if (process_count_ == 1) {
        RoundTotals totals{mine_[0], mine_[1], mine_[2], mine_[3], mine_[4], mine_[5]};
        state_ = judge(previous_, totals);
        previous_ = totals;
        return state_;
    }
    MpiGuard guard;
    MPI_Iallreduce(mine_, sums_, kFields, MPI_UINT64_T, MPI_SUM, comm_, &round_);
    return state_;
}

}  // namespace bamboo
