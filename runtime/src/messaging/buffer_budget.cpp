#include "messaging/buffer_budget.hpp"

#include <algorithm>

namespace bamboo {
namespace {

// However many processes share the budget, each may send this much eagerly: a few messages
// of the papers' sizes, so that a halo exchange with a neighbour stays overlapped.
constexpr std::size_t kMinCreditPerProcess = 256u << 10;

}  // namespace

BufferBudget::BufferBudget(std::size_t limit, int process_count, int process)
    : limit_(limit),
      local_limit_(process_count > 1 ? limit / 2 : limit),
      credit_per_process_(process_count > 1
                              ? std::max(limit / 2 / static_cast<std::size_t>(process_count - 1), kMinCreditPerProcess)
                              : 0),
      credit_(new std::atomic<std::int64_t>[static_cast<std::size_t>(process_count)]),
      to_refund_(new std::atomic<std::uint64_t>[static_cast<std::size_t>(process_count)]) {
    for (int p = 0; p < process_count; ++p) {
        credit_[p].store(p == process ? 0 : static_cast<std::int64_t>(credit_per_process_));
        to_refund_[p].store(0);
    }
}

bool BufferBudget::reserve_local(std::size_t cost) {
    std::size_t used = local_used_.load(std::memory_order_relaxed);
    do {
        if (used + cost > local_limit_) return false;
    } while (!local_used_.compare_exchange_weak(used, used + cost, std::memory_order_relaxed));
    return true;
}

bool BufferBudget::spend(int process, std::size_t cost) {
    std::int64_t left = credit_[process].load(std::memory_order_relaxed);
    do {
        if (left < static_cast<std::int64_t>(cost)) return false;
    } while (!credit_[process].compare_exchange_weak(left, left - static_cast<std::int64_t>(cost),
                                                     std::memory_order_relaxed));
    return true;
}

void BufferBudget::consumed(int process, std::size_t cost) {
    to_refund_[process].fetch_add(cost, std::memory_order_relaxed);
    if (refund_due(process)) refunds_due_.store(true, std::memory_order_relaxed);
}

BufferCharge& BufferCharge::operator=(BufferCharge&& other) noexcept {
    if (this != &other) {
        release();
        budget_ = other.budget_;
        origin_ = other.origin_;
        cost_ = other.cost_;
        other.budget_ = nullptr;
    }
    return *this;
}

void BufferCharge::release() {
    if (!budget_) return;
    if (origin_ < 0) budget_->release_local(cost_);
    else budget_->consumed(origin_, cost_);
    budget_ = nullptr;
}

}  // namespace bamboo
