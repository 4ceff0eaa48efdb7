// Which task a worker runs next (core/worker.hpp): a task that suspends while another is
// runnable switches straight to it, the highest priority first and then the earliest queued.
#include "core/worker.hpp"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "task_group.hpp"

namespace bamboo {
namespace {

// Two tasks take turns a thousand times. Every hand-over is a task suspending while the
// other is runnable, so the worker's loop switches only to start the first task and, once
// that one has finished, to the second.
TEST(WorkerSwitch, ASuspendingTaskSwitchesStraightToTheNextRunnable) {
    constexpr int kTurns = 1000;
    int turn = 0;
    std::string order;
    TaskGroup group(2);
    for (int id : {0, 1}) {
        group.add([&, id] {
            for (int i = 0; i < kTurns; ++i) {
                Task::current()->wait_until([&] { return turn == 2 * i + id; });
                order += static_cast<char>('a' + id);
                ++turn;
                group[1 - id].wake();
            }
        });
    }
    group.run();
    EXPECT_EQ(turn, 2 * kTurns);
    std::string alternating;
    for (int i = 0; i < kTurns; ++i) alternating += "ab";
    EXPECT_EQ(order, alternating);
    EXPECT_EQ(group.worker().loop_switches(), 2u);
}

// Four tasks wait; a fifth wakes them in the order 2, 0, 1, 3 and waits in turn. Task 1 has
// the higher priority, so it runs first, then the others in the order they were woken. The
// waker suspends while they are runnable and switches straight to task 1; after that the
// loop takes over each time a task finishes.
TEST(WorkerRunOrder, HighestPriorityFirstThenEarliestQueued) {
    std::vector<bool> go(4, false);
    bool done = false;
    std::vector<std::string> order;
    TaskGroup group(5);
    for (int id = 0; id < 4; ++id) {
        group.add(
            [&, id] {
                Task::current()->wait_until([&] { return go[id]; });
                order.push_back(std::to_string(id));
                if (id == 3) {
                    done = true;
                    group[4].wake();
                }
            },
            id == 1 ? 1 : 0);
    }
    group.add([&] {
        for (int id : {2, 0, 1, 3}) {
            go[id] = true;
            group[id].wake();
        }
        Task::current()->wait_until([&] { return done; });
        order.push_back("waker");
    });
    group.run();
    EXPECT_EQ(order, (std::vector<std::string>{"1", "2", "0", "3", "waker"}));
    // To start the first task (task 1, the higher priority), then after each finish but the last.
    EXPECT_EQ(group.worker().loop_switches(), 5u);
}

}  // namespace
}  // namespace bamboo
