#include "core/run_queue.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <climits>
#include <cstdint>
#include <thread>
#include <vector>

#include "core/scheduler.hpp"

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

TEST(RunQueue, TopPriorityIsWhatPopReturnsNext) {
    RunQueue q;
    EXPECT_EQ(q.top_priority(), INT_MIN);
    q.push(fake(0), -1);
    q.push(fake(1), 3);
    EXPECT_EQ(q.top_priority(), 3);
    q.pop();
    EXPECT_EQ(q.top_priority(), -1);
}

// Several threads push and pop at once: every task comes out exactly once, and pop_above
// never takes a task of its own priority or below.
TEST(SharedRunQueue, EveryTaskOnceUnderConcurrentPushAndPop) {
    constexpr int kThreads = 4, kPerThread = 20000;
    SharedRunQueue q;
    EXPECT_EQ(q.pop_above(INT_MIN), nullptr);
    q.push(fake(0), 0);
    EXPECT_EQ(q.pop_above(0), nullptr);
    EXPECT_EQ(q.pop_above(-1), fake(0));
    std::vector<std::vector<Task*>> taken(kThreads);
    std::vector<std::thread> threads;
    for (int t = 0; t < kThreads; ++t) {
        threads.emplace_back([&, t] {
            for (int i = 0; i < kPerThread; ++i) {
                q.push(fake(1 + t * kPerThread + i), i % 3);
                if (Task* task = q.pop_above(INT_MIN)) taken[t].push_back(task);
            }
        });
    }
    for (std::thread& thread : threads) thread.join();
    std::vector<Task*> all;
    for (auto& part : taken) all.insert(all.end(), part.begin(), part.end());
    while (Task* task = q.pop_above(INT_MIN)) all.push_back(task);
    std::sort(all.begin(), all.end());
    std::vector<Task*> expected;
    for (int i = 1; i <= kThreads * kPerThread; ++i) expected.push_back(fake(i));
    EXPECT_EQ(all, expected);
    EXPECT_TRUE(q.empty());
}
