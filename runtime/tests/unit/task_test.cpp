// Tasks waiting, being woken and yielding (core/task.hpp), on a real worker.
#include "core/task.hpp"

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <string>
#include <thread>
#include <vector>

#include "task_group.hpp"

namespace bamboo {
namespace {

void spin_until(const std::atomic<int>& value, int at_least) {
    while (value.load() < at_least) std::this_thread::yield();
}

// A pause of up to a few microseconds, different for each `seed`: the waiters and wakers
// meet at varying points of their protocols.
void jitter(unsigned seed) {
    unsigned spins = (seed * 2654435761u) >> 21;  // 0..2047
    for (volatile unsigned i = 0; i < spins; ++i) {
    }
}

// A task waiting, round after round, for `go` to reach the round, and how many of its looks
// at that condition found it false. In each round at most two may: the look before it
// announces the wait, and its last look after; once woken, which is after the change, it
// finds the condition true. More mean that it ran again without a wake-up.
struct Rounds {
    explicit Rounds(int count) : false_looks(static_cast<std::size_t>(count) + 1, 0) {}

    void wait_for(int round) {
        Task::current()->wait_until([this, round] {
            bool ready = go.load() >= round;
            if (!ready) ++false_looks[static_cast<std::size_t>(round)];
            return ready;
        });
    }
    // The first round in which the task ran again without a wake-up, or 0.
    int first_run_without_wake_up() const {
        for (std::size_t round = 1; round < false_looks.size(); ++round)
            if (false_looks[round] > 2) return static_cast<int>(round);
        return 0;
    }

    std::atomic<int> go{0};
    std::vector<int> false_looks;
};

// Round after round the task waits for `go` to reach the round while a thread (each round
// another one) sets it and wakes the task, racing the task's last look at the condition. A
// lost wake-up leaves the task waiting for ever (the test times out); a task queued without
// a wake-up finds its condition false.
TEST(TaskWait, AWakeUpRacingTheLastLookIsNeverLost) {
    constexpr int kRounds = 20000;
    constexpr int kWakers = 3;
    Rounds rounds(kRounds);
    std::atomic<int> armed{0}, woken{0};
    TaskGroup group(1);
    Task& task = group.add([&] {
        for (int round = 1; round <= kRounds; ++round) {
            // The task may have gone on before the previous round's wake-up: a wake-up that
            // came now would wake this round's wait.
            spin_until(woken, round - 1);
            armed.store(round);
            jitter(static_cast<unsigned>(round));
            rounds.wait_for(round);
        }
    });
    std::vector<std::thread> wakers;
    for (int w = 0; w < kWakers; ++w) {
        wakers.emplace_back([&, w] {
            for (int round = 1 + w; round <= kRounds; round += kWakers) {
                spin_until(armed, round);
                jitter(static_cast<unsigned>(round * kWakers + w));
                rounds.go.store(round);  // the change first, then the wake-up
                task.wake();
                woken.store(round);
            }
        });
    }
    group.run();
    for (std::thread& waker : wakers) waker.join();
    EXPECT_EQ(rounds.first_run_without_wake_up(), 0);
}

// Several threads wake a waiting task at the same moment, while its worker is held in its
// idle poll (so the wakers have the CPUs to themselves). Only one of them may queue the task:
// a second queue entry would run it once more without a wake-up, in its next wait, where it
// finds its condition false.
TEST(TaskWake, SimultaneousWakeUpsQueueTheTaskOnce) {
    constexpr int kRounds = 20000;
    constexpr int kWakers = 4;
    Rounds rounds(kRounds);
    std::atomic<int> due{0}, woken{0};
    WorkerDuties duties;
    duties.poll_when_idle = [&] {
        // Idle: the task waits for the next round.
        int round = rounds.go.load() + 1;
        rounds.go.store(round);
        due.store(round);
        spin_until(woken, kWakers * round);
        return false;
    };
    TaskGroup group(1, duties);
    Task& task = group.add([&] {
        for (int round = 1; round <= kRounds; ++round) rounds.wait_for(round);
    });
    std::vector<std::thread> wakers;
    for (int w = 0; w < kWakers; ++w) {
        wakers.emplace_back([&] {
            for (int round = 1; round <= kRounds; ++round) {
                spin_until(due, round);
                task.wake();
                woken.fetch_add(1);
            }
        });
    }
    group.run();
    for (std::thread& waker : wakers) waker.join();
    EXPECT_EQ(rounds.first_run_without_wake_up(), 0);
}

TEST(TaskWait, AConditionThatHoldsDoesNotSuspend) {
    std::vector<std::string> order;
    TaskGroup group(2);
    group.add([&] {
        Task::current()->wait_until([] { return true; });
        order.push_back("0 went on");
    });
    group.add([&] { order.push_back("1"); });
    group.run();
    EXPECT_EQ(order, (std::vector<std::string>{"0 went on", "1"}));
}

// A wake-up for a task that is not waiting (running, or queued to start) queues nothing. A
// second queue entry would run the task again in its next wait, without a wake-up: it would
// look at its condition more than twice.
TEST(TaskWake, OnlyAWaitingTaskIsQueued) {
    bool go = false;
    int looks[2] = {0, 0};
    TaskGroup group(3);
    auto wait_for_go = [&](int id) {
        Task::current()->wait_until([&] {
            ++looks[id];
            return go;
        });
    };
    group.add(
        [&] {
            for (int i = 0; i < 3; ++i) {
                Task::current()->wake();  // running
                group[1].wake();          // queued, not started
            }
            wait_for_go(0);
        },
        1);  // a wrong queue entry for this task would come first
    group.add([&] { wait_for_go(1); });
    group.add([&] {
        Task::current()->yield();  // behind any wrong entry for task 1
        go = true;
        group[0].wake();
        group[1].wake();
    });
    group.run();
    // Each: a look before announcing the wait, the last look after it, and one once woken.
    EXPECT_EQ(looks[0], 3);
    EXPECT_EQ(looks[1], 3);
}

TEST(TaskYield, GoesBehindTheTasksQueuedAtItsPriority) {
    std::string order;
    TaskGroup group(3);
    for (char id : {'a', 'b', 'c'}) {
        group.add([&order, id] {
            for (int i = 0; i < 3; ++i) {
                order += id;
                Task::current()->yield();
            }
        });
    }
    group.run();
    EXPECT_EQ(order, "abcabcabc");
}

TEST(TaskYield, AtAHigherPriorityKeepsTheWorker) {
    std::string order;
    TaskGroup group(3);
    for (auto [id, priority] : {std::pair{'a', 0}, std::pair{'B', 1}, std::pair{'c', 0}}) {
        group.add(
            [&order, id = id] {
                for (int i = 0; i < 3; ++i) {
                    order += id;
                    Task::current()->yield();
                }
            },
            priority);
    }
    group.run();
    EXPECT_EQ(order, "BBBacacac");
}

TEST(TaskYield, GoesBehindATaskItWoke) {
    std::string order;
    bool flag = false;
    TaskGroup group(2);
    group.add([&] {
        Task::current()->wait_until([&] { return flag; });
        order += "woken ";
    });
    group.add([&] {
        flag = true;
        group[0].wake();
        Task::current()->yield();
        order += "waker";
    });
    group.run();
    EXPECT_EQ(order, "woken waker");
}

TEST(TaskSleep, LetsTheWorkersOtherTasksRun) {
    std::string order;
    TaskGroup group(2);
    group.add([&] {
        order += "sleeps ";
        Task::current()->sleep_until(std::chrono::steady_clock::now() + std::chrono::milliseconds(20));
        order += "wakes";
    });
    group.add([&] { order += "runs "; });
    group.run();
    EXPECT_EQ(order, "sleeps runs wakes");
}

TEST(TaskSleep, TasksWakeInTheOrderOfTheirTimes) {
    // The worker has nothing else to do: it sleeps until the first time comes.
    std::string order;
    TaskGroup group(2);
    auto start = std::chrono::steady_clock::now();
    group.add([&] {
        Task::current()->sleep_until(start + std::chrono::milliseconds(40));
        order += "late ";
    });
    group.add([&] {
        Task::current()->sleep_until(start + std::chrono::milliseconds(10));
        order += "early ";
    });
    group.run();
    EXPECT_EQ(order, "early late ");
    EXPECT_GE(std::chrono::steady_clock::now() - start, std::chrono::milliseconds(40));
}

}  // namespace
}  // namespace bamboo
