// A window part's passive-target lock (messaging/window_lock.hpp): who gets it at once, who
// waits, and in which order the waiting ones get it.
#include "messaging/window_lock.hpp"

#include <gtest/gtest.h>

#include <vector>

namespace bamboo {
namespace {

LockHolder task(int vrank) { return LockHolder{vrank, static_cast<std::uint64_t>(100 + vrank)}; }

std::vector<int> vranks(const std::vector<LockHolder>& holders) {
    std::vector<int> out;
    for (const LockHolder& holder : holders) out.push_back(holder.vrank);
    return out;
}

TEST(WindowLock, SharedHoldersShare) {
    WindowLock lock;
    EXPECT_TRUE(lock.acquire(LockMode::shared, task(0)));
    EXPECT_TRUE(lock.acquire(LockMode::shared, task(1)));
    EXPECT_TRUE(lock.release(LockMode::shared).empty());
    EXPECT_TRUE(lock.held());
    EXPECT_TRUE(lock.release(LockMode::shared).empty());
    EXPECT_FALSE(lock.held());
}

TEST(WindowLock, AnExclusiveHolderExcludesEveryone) {
    WindowLock lock;
    EXPECT_TRUE(lock.acquire(LockMode::exclusive, task(0)));
    EXPECT_FALSE(lock.acquire(LockMode::exclusive, task(1)));
    EXPECT_FALSE(lock.acquire(LockMode::shared, task(2)));
    // The next exclusive one alone, then the shared one once it lets go.
    EXPECT_EQ(vranks(lock.release(LockMode::exclusive)), std::vector<int>{1});
    EXPECT_EQ(vranks(lock.release(LockMode::exclusive)), std::vector<int>{2});
    EXPECT_TRUE(lock.release(LockMode::shared).empty());
    EXPECT_FALSE(lock.held());
}

TEST(WindowLock, AnExclusiveRequestWaitsForEverySharedHolder) {
    WindowLock lock;
    EXPECT_TRUE(lock.acquire(LockMode::shared, task(0)));
    EXPECT_TRUE(lock.acquire(LockMode::shared, task(1)));
    EXPECT_FALSE(lock.acquire(LockMode::exclusive, task(2)));
    EXPECT_TRUE(lock.release(LockMode::shared).empty());
    EXPECT_EQ(vranks(lock.release(LockMode::shared)), std::vector<int>{2});
}

TEST(WindowLock, SharedRequestsBehindAWaitingExclusiveOneWaitTooThenGoTogether) {
    WindowLock lock;
    EXPECT_TRUE(lock.acquire(LockMode::shared, task(0)));
    EXPECT_FALSE(lock.acquire(LockMode::exclusive, task(1)));
    EXPECT_FALSE(lock.acquire(LockMode::shared, task(2)));  // no overtaking: the exclusive one would starve
    EXPECT_FALSE(lock.acquire(LockMode::shared, task(3)));
    EXPECT_EQ(vranks(lock.release(LockMode::shared)), std::vector<int>{1});
    EXPECT_EQ(vranks(lock.release(LockMode::exclusive)), (std::vector<int>{2, 3}));
}

TEST(WindowLock, AGrantCarriesItsRequestsToken) {
    WindowLock lock;
    EXPECT_TRUE(lock.acquire(LockMode::exclusive, task(0)));
    EXPECT_FALSE(lock.acquire(LockMode::exclusive, task(5)));
    std::vector<LockHolder> granted = lock.release(LockMode::exclusive);
    ASSERT_EQ(granted.size(), 1u);
    EXPECT_EQ(granted[0].token, 105u);
}

}  // namespace
}  // namespace bamboo
