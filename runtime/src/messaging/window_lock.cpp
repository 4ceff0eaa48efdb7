#include "messaging/window_lock.hpp"

#include "util/errors.hpp"

namespace bamboo {

void WindowLock::take(LockMode mode) {
    if (mode == LockMode::exclusive) exclusive_ = true;
    else ++shared_;
}

bool WindowLock::acquire(LockMode mode, const LockHolder& holder) {
    if (waiting_.empty() && grantable(mode)) {
        take(mode);
        return true;
    }
    waiting_.push_back(Waiting{mode, holder});
    return false;
}

std::vector<LockHolder> WindowLock::release(LockMode mode) {
    if (mode == LockMode::exclusive ? !exclusive_ : shared_ == 0)
        fatal("a window lock released in a mode nobody holds it in");
    if (mode == LockMode::exclusive) exclusive_ = false;
    else --shared_;
    std::vector<LockHolder> granted;
    while (!waiting_.empty() && grantable(waiting_.front().mode)) {
        take(waiting_.front().mode);
        granted.push_back(waiting_.front().holder);
        waiting_.pop_front();
    }
    return granted;
}

}  // namespace bamboo
