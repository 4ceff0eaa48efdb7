#include "core/run_queue.hpp"

#include <gtest/gtest.h>

#include <vector>

using namespace bamboo;

namespace {
// The queue never dereferences tasks, so distinct addresses stand in for them.
Task* fake(int i) { return reinterpret_cast<Task*>(static_cast<std::uintptr_t>(0x1000 + 16 * i)); }

std::vector<Task*> drain(RunQueue& q) {
    std::vector<Task*> order;
    while (Task* t = q.pop()) order.push_back(t);
    return order;
}
}  // namespace

TEST(RunQueue, FirstInFirstOutAmongEqualPriorities) {
    RunQueue q;
    for (int i = 0; i < 5; ++i) q.push(fake(i), 0);
    EXPECT_EQ(q.size(), 5u);
    EXPECT_EQ(drain(q), (std::vector<Task*>{fake(0), fake(1), fake(2), fake(3), fake(4)}));
    EXPECT_TRUE(q.empty());
}

TEST(RunQueue, HigherPriorityFirstAndMinusOneLast) {
    RunQueue q;
    q.push(fake(0), 0);
    q.push(fake(1), -1);
    q.push(fake(2), 5);
    q.push(fake(3), 0);
    q.push(fake(4), 5);
    q.push(fake(5), 2);
    EXPECT_EQ(drain(q), (std::vector<Task*>{fake(2), fake(4), fake(5), fake(0), fake(3), fake(1)}));
}

TEST(RunQueue, InterleavedPushAndPop) {
    RunQueue q;
    q.push(fake(0), 1);
    q.push(fake(1), 1);
    EXPECT_EQ(q.pop(), fake(0));
    q.push(fake(2), 3);
    q.push(fake(0), 1);
    EXPECT_EQ(drain(q), (std::vector<Task*>{fake(2), fake(1), fake(0)}));
    EXPECT_EQ(q.pop(), nullptr);
}
