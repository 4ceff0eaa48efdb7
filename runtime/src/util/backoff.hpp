// How long an idle poller pauses: a few yields of the CPU, then sleeps that double up to a
// cap, so an idle process costs little while a busy one answers within microseconds.
#pragma once

#include <chrono>

namespace bamboo {

class Backoff {
public:
    explicit Backoff(std::chrono::microseconds cap) : cap_(cap) {}

    void reset() { rounds_ = 0; }

    // Zero: just yield the CPU this time; otherwise sleep this long.
    std::chrono::microseconds next() {
        ++rounds_;
        if (rounds_ <= kYieldRounds) return std::chrono::microseconds(0);
        int doublings = rounds_ - kYieldRounds - 1;
        if (doublings > 20) return cap_;
        std::chrono::microseconds sleep(1 << doublings);
        return sleep < cap_ ? sleep : cap_;
    }

private:
    static constexpr int kYieldRounds = 16;
    std::chrono::microseconds cap_;
    int rounds_ = 0;
};

}  // namespace bamboo
