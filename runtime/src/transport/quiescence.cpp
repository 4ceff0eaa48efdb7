#include "transport/quiescence.hpp"

#include <algorithm>

#include "util/mpi_guard.hpp"

namespace bamboo {
namespace {

constexpr int kUpTag = 1;    // a subtree's sums, to its root's parent
constexpr int kDownTag = 2;  // the round's total, from the root down

}  // namespace

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
QuiescenceRounds::QuiescenceRounds(int process, int process_count, bool idle_blocks)
    : process_(process), process_count_(process_count), idle_blocks_(idle_blocks) {
    if (process_count_ == 1) return;
    MPI_Comm_dup(MPI_COMM_WORLD, &comm_);
    // Binomial tree: a process's parent is itself less its lowest set bit; its children add a
    // lower bit each.
    int low = process_ & -process_;
    if (process_ > 0) parent_ = process_ - low;
    for (int bit = 1; (process_ == 0 || bit < low) && process_ + bit < process_count_; bit <<= 1)
        children_.push_back(process_ + bit);
    from_children_.assign(children_.size(), MPI_REQUEST_NULL);
    child_sums_.resize(children_.size());
    child_in_.assign(children_.size(), false);
    post_receives();
}

void QuiescenceRounds::post_receives() {
    MpiGuard guard;
    for (std::size_t c = 0; c < children_.size(); ++c)
        MPI_Irecv(child_sums_[c].data(), kFields, MPI_UINT64_T, children_[c], kUpTag, comm_, &from_children_[c]);
    if (parent_ >= 0) MPI_Irecv(total_, kFields, MPI_UINT64_T, parent_, kDownTag, comm_, &from_parent_);
}

void QuiescenceRounds::pending_receives(std::vector<MPI_Request*>& out) {
    for (MPI_Request& request : from_children_)
        if (request != MPI_REQUEST_NULL) out.push_back(&request);
    if (from_parent_ != MPI_REQUEST_NULL) out.push_back(&from_parent_);
}

// Whether a receive of the round has completed. MPI_REQUEST_NULL, which an idle wait leaves
// where it completed one, has without asking MPI (SimGrid 3.32's MPI_Test leaves the flag
// unset for a null request when the status is ignored).
bool QuiescenceRounds::completed(MPI_Request& request) {
    if (request == MPI_REQUEST_NULL) return true;
    if (idle_blocks_) return false;
    int flag = 0;
    MpiGuard guard;
    MPI_Test(&request, &flag, MPI_STATUS_IGNORE);
    return flag != 0;
}

// A child's sums that arrived go into the partial sums.
bool QuiescenceRounds::take_arrivals() {
    bool all_in = true;
    for (std::size_t c = 0; c < children_.size(); ++c) {
        if (child_in_[c]) continue;
        if (!completed(from_children_[c])) {
            all_in = false;
            continue;
        }
        child_in_[c] = true;
        for (int f = 0; f < kFields; ++f) partial_[f] += child_sums_[c][f];
    }
    return all_in;
}

// A round completed here is followed at once by this process's contribution to the next, if
// it may contribute now: a process that is done and blocks in MPI would otherwise hold the
// next round up.
JobState QuiescenceRounds::advance(const Activity& now, std::chrono::steady_clock::duration idle_interval) {
    while (state_ == JobState::running && step(now, idle_interval)) continue;
    return state_;
}

bool QuiescenceRounds::step(const Activity& now, std::chrono::steady_clock::duration idle_interval) {
    bool children_in = process_count_ == 1 || take_arrivals();
    auto clock = std::chrono::steady_clock::now();
    bool idle_due = !idle_blocks_ && now.idle && clock - last_contribution_ >= idle_interval;
    if (!contributed_ && (now.done || idle_due)) {
        last_contribution_ = clock;
        bool quiet = now.done || (now.idle && now.moved == moved_at_contribution_);
        moved_at_contribution_ = now.moved;
        const std::uint64_t mine[kFields] = {!now.done, !quiet, !(now.done || (quiet && now.idle_long)),
                                             now.waiting, now.sent, now.received};
        for (int f = 0; f < kFields; ++f) partial_[f] += mine[f];
        contributed_ = true;
    }
    if (!contributed_ || !children_in) return false;
    if (parent_ < 0) {  // the root (or the only process): the round is complete
        complete_round(partial_);
        return true;
    }
    if (!sent_up_) {
        std::copy(partial_, partial_ + kFields, up_);
        MpiGuard guard;
        // Sent last round; received by now, for the parent answered the up message and every
        // child sent this round's, each only after receiving last round's down message.
        MPI_Waitall(static_cast<int>(sends_.size()), sends_.data(), MPI_STATUSES_IGNORE);
        sends_.assign(1, MPI_REQUEST_NULL);
        MPI_Isend(up_, kFields, MPI_UINT64_T, parent_, kUpTag, comm_, &sends_[0]);
        sent_up_ = true;
    }
    if (!completed(from_parent_)) return false;
    complete_round(total_);
    return true;
}

// The round's total (at the root, its partial sums) is known here: judged, passed down, and
// the next round's receives posted (none once the job has finished or deadlocked, and no send
// left pending).
void QuiescenceRounds::complete_round(const Sums& totals) {
    std::copy(totals, totals + kFields, down_);
    RoundTotals round{down_[0], down_[1], down_[2], down_[3], down_[4], down_[5]};
    state_ = judge(previous_, round);
    previous_ = round;
    std::fill(partial_, partial_ + kFields, 0);
    contributed_ = sent_up_ = false;
    std::fill(child_in_.begin(), child_in_.end(), false);
    if (process_count_ == 1) return;
    {
        MpiGuard guard;
        MPI_Waitall(static_cast<int>(sends_.size()), sends_.data(), MPI_STATUSES_IGNORE);
        sends_.assign(children_.size(), MPI_REQUEST_NULL);
        for (std::size_t c = 0; c < children_.size(); ++c)
            MPI_Isend(down_, kFields, MPI_UINT64_T, children_[c], kDownTag, comm_, &sends_[c]);
        if (state_ != JobState::running) {
            MPI_Waitall(static_cast<int>(sends_.size()), sends_.data(), MPI_STATUSES_IGNORE);
            sends_.clear();
            return;
        }
    }
    post_receives();
}

}  // namespace bamboo
