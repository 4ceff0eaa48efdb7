#include "transport/peer_queues.hpp"

#include <gtest/gtest.h>
#include <malloc.h>

#include <algorithm>
#include <deque>
#include <vector>

using namespace bamboo;

namespace {
std::vector<int> busy(PeerQueues<int>& q) {
    std::vector<int> processes;
    q.visit_busy([&](int process, std::deque<int>&) { processes.push_back(process); });
    std::sort(processes.begin(), processes.end());
    return processes;
}

std::size_t heap_in_use() { return mallinfo2().uordblks; }
}  // namespace

// Its reason to exist: a job of many processes costs a pointer per peer, not a queue (a
// std::deque per process of 100,000 took ~60 MB).
TEST(PeerQueues, IdlePeersCostAPointerEach) {
    const std::size_t before = heap_in_use();
    PeerQueues<int> q(100000);
    q.push(7, 1);
    EXPECT_LT(heap_in_use() - before, 100000 * sizeof(void*) + (64u << 10));
}

TEST(PeerQueues, KeepsEachPeersOrder) {
    PeerQueues<int> q(4);
    for (int i = 0; i < 3; ++i) {
        q.push(2, i);
        q.push(0, 10 + i);
    }
    std::vector<int> two, zero;
    q.visit_busy([&](int process, std::deque<int>& items) {
        std::vector<int>& out = process == 2 ? two : zero;
        while (!items.empty()) {
            out.push_back(items.front());
            items.pop_front();
        }
    });
    EXPECT_EQ(two, (std::vector<int>{0, 1, 2}));
    EXPECT_EQ(zero, (std::vector<int>{10, 11, 12}));
    EXPECT_FALSE(q.any());
    EXPECT_TRUE(q.empty(2));
}

TEST(PeerQueues, BusyListsEachNonEmptyQueueOnce) {
    PeerQueues<int> q(5);
    EXPECT_FALSE(q.any());
    q.push(3, 1);
    q.push(3, 2);
    q.push(1, 3);
    EXPECT_EQ(busy(q), (std::vector<int>{1, 3}));
    // Emptied and refilled within one visit: still listed once.
    q.visit_busy([&](int process, std::deque<int>& items) {
        if (process != 3) return;
        items.clear();
        q.push(3, 4);
    });
    EXPECT_EQ(busy(q), (std::vector<int>{1, 3}));
    q.visit_busy([](int, std::deque<int>& items) { items.clear(); });
    EXPECT_FALSE(q.any());
    EXPECT_EQ(busy(q), std::vector<int>{});
}

TEST(PeerQueues, QueuesPushedDuringAVisitAreVisitedToo) {
    PeerQueues<int> q(3);
    q.push(0, 1);
    std::vector<int> seen;
    q.visit_busy([&](int process, std::deque<int>& items) {
        seen.push_back(process);
        items.clear();
        if (process == 0) q.push(2, 5);
    });
    EXPECT_EQ(seen, (std::vector<int>{0, 2}));
    EXPECT_FALSE(q.any());
}
