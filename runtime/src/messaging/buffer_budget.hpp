// How much memory a process gives to messages that were sent but not yet received
// (--bamboo-buffer-limit), so that a receiver that falls behind never makes its process, or
// the sender's, run out of memory.
//
// Sends are buffered while the budget lasts: the sender goes on at once, the data waits in
// the receiving process, and a task that later needs it finds it there (this is what lets a
// firing rule hide communication). Half the budget is for messages between tasks of this
// process; the other half is shared out as credit to each other process, bytes it may send
// here eagerly (header and data at once). A receiving task that takes such a message frees
// its bytes, and the credit goes back to the sender with its next message this way, or in a
// credit message of its own once enough has gathered.
//
// Beyond the budget a point-to-point send is not buffered: a send to a task of this process
// lends its buffer until the receive takes it, one to another process announces itself and
// leaves its data in place until the receive asks for it. The sending task waits meanwhile
// (MPI_Send completes only once matched, as MPI allows for a standard send; an MPI_Isend's
// request stays incomplete), holding no worker. Collective messages are always buffered:
// their algorithms send before they receive.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <memory>

namespace bamboo {

// What a buffered message costs: its bytes and a share for its bookkeeping, so that even
// empty messages cannot pile up without bound.
inline std::size_t buffer_cost(std::size_t bytes) { return bytes + 64; }

class BufferBudget {
public:
    BufferBudget(std::size_t limit, int process_count, int process);

    std::size_t limit() const { return limit_; }
    std::size_t local_limit() const { return local_limit_; }
    // Bytes another process may have here unreceived (its starting credit).
    std::size_t credit_per_process() const { return credit_per_process_; }

    // A task of this process buffers a message for another task of it: false (nothing
    // reserved) when that would exceed the local share.
    bool reserve_local(std::size_t cost);
    // ... whatever the budget says (collectives).
    void force_reserve_local(std::size_t cost) { local_used_.fetch_add(cost, std::memory_order_relaxed); }
    void release_local(std::size_t cost) { local_used_.fetch_sub(cost, std::memory_order_relaxed); }

    // Sending eagerly to `process` spends credit: false (nothing spent) when too little is
    // left; force_spend() spends it anyway (collectives), possibly below zero.
    bool spend(int process, std::size_t cost);
    void force_spend(int process, std::size_t cost) {
        credit_[process].fetch_sub(static_cast<std::int64_t>(cost), std::memory_order_relaxed);
    }
    // `process` freed `bytes` of what this process sent it.
    void refund(int process, std::uint64_t bytes) {
        credit_[process].fetch_add(static_cast<std::int64_t>(bytes), std::memory_order_relaxed);
    }

    // A buffered message from `process` was received (or dropped): its cost goes back to
    // the sender.
    void consumed(int process, std::size_t cost);
    // The cost freed for `process` not yet returned, now returned (piggybacked on a header).
    std::uint64_t take_refund(int process) { return to_refund_[process].exchange(0, std::memory_order_relaxed); }
    // Whether some process is owed enough for a credit message of its own.
    bool refunds_due() const { return refunds_due_.load(std::memory_order_relaxed); }
    // Whether the refund owed to `process` deserves a message of its own: a quarter of its
    // credit does, so that a sender streaming one way, with nothing coming back to carry the
    // refund, never runs dry.
    bool refund_due(int process) const {
        return to_refund_[process].load(std::memory_order_relaxed) >= credit_per_process_ / 4;
    }
    void refunds_sent() { refunds_due_.store(false, std::memory_order_relaxed); }

private:
    std::size_t limit_;
    std::size_t local_limit_;
    std::size_t credit_per_process_;
    std::atomic<std::size_t> local_used_{0};
    std::unique_ptr<std::atomic<std::int64_t>[]> credit_;        // per destination process
    std::unique_ptr<std::atomic<std::uint64_t>[]> to_refund_;   // per source process
    std::atomic<bool> refunds_due_{false};
};

// The part of the budget one buffered message holds, given back when the message goes (on
// whichever path frees it: received, dropped, or left at the end).
class BufferCharge {
public:
    BufferCharge() = default;
    // From a task of this process (`origin` < 0, already reserved) or from process `origin`.
    BufferCharge(BufferBudget* budget, int origin, std::size_t cost)
        : budget_(budget), origin_(origin), cost_(cost) {}
    BufferCharge(BufferCharge&& other) noexcept { *this = std::move(other); }
    BufferCharge& operator=(BufferCharge&& other) noexcept;
    BufferCharge(const BufferCharge&) = delete;
    BufferCharge& operator=(const BufferCharge&) = delete;
    ~BufferCharge() { release(); }

private:
    void release();

    BufferBudget* budget_ = nullptr;
    int origin_ = -1;
    std::size_t cost_ = 0;
};

}  // namespace bamboo
