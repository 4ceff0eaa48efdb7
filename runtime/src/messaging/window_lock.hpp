// The passive-target lock of one task's part of a window (MPI_Win_lock): exclusive holders
// exclude everyone, shared holders only exclusive ones.
//
// Requests are granted in the order they came: a shared request behind a waiting exclusive
// one waits too, so a stream of shared locks never starves an exclusive one. Whoever asks is
// a `Holder`, told apart only by the caller (a task of this process, or one of another
// process that is sent its grant); the queue itself is plain data, locked by its owner.
#pragma once

#include <cstdint>
#include <deque>
#include <vector>

namespace bamboo {

enum class LockMode : std::uint8_t { shared, exclusive };

// Who asked for the lock: the asking task's vrank, and a token the grant carries back to it.
struct LockHolder {
    int vrank = -1;
    std::uint64_t token = 0;
};

class WindowLock {
public:
    // Grants `holder` the lock in `mode` now (true), or queues the request (false).
    bool acquire(LockMode mode, const LockHolder& holder);
    // A holder in `mode` lets go; returns the queued requests that this grants, in order.
    std::vector<LockHolder> release(LockMode mode);

    bool held() const { return exclusive_ || shared_ > 0; }

private:
    struct Waiting {
        LockMode mode;
        LockHolder holder;
    };
    bool grantable(LockMode mode) const { return !exclusive_ && (mode == LockMode::shared || shared_ == 0); }
    void take(LockMode mode);

    bool exclusive_ = false;
    int shared_ = 0;
    std::deque<Waiting> waiting_;
};

}  // namespace bamboo
