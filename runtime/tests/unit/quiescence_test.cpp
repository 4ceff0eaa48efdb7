#include "transport/quiescence.hpp"

#include <gtest/gtest.h>

namespace bamboo {
namespace {

// A round in which every process is quiet, has been for the timeout, and some task waits.
RoundTotals still(std::uint64_t sent, std::uint64_t received) {
    RoundTotals t;
    t.not_done = 2;
    t.waiting = 1;
    t.sent = sent;
    t.received = received;
    return t;
}

TEST(Quiescence, FinishedOnceEveryProcessIsDoneAndEveryMessageReceived) {
    RoundTotals t;
    t.sent = t.received = 7;
    EXPECT_EQ(judge(std::nullopt, t), JobState::finished);
    t.received = 6;  // one still in flight: a done process may still receive it
    EXPECT_EQ(judge(std::nullopt, t), JobState::running);
    t.received = 7;
    t.not_done = 1;
    EXPECT_EQ(judge(std::nullopt, t), JobState::running);
}

TEST(Quiescence, OneStillRoundIsNotEnough) {
    EXPECT_EQ(judge(std::nullopt, still(5, 5)), JobState::running);
}

TEST(Quiescence, TwoStillRoundsWithTheSameCountsAreADeadlock) {
    EXPECT_EQ(judge(still(5, 5), still(5, 5)), JobState::deadlocked);
}

// Counts that balance in each round but moved between them: a message was sent after one
// contribution and received before another, so something ran.
TEST(Quiescence, CountsThatMovedBetweenRoundsAreNoDeadlock) {
    EXPECT_EQ(judge(still(5, 5), still(6, 6)), JobState::running);
}

TEST(Quiescence, AMessageInFlightIsNoDeadlock) {
    EXPECT_EQ(judge(still(6, 5), still(6, 5)), JobState::running);
}

TEST(Quiescence, AProcessThatIsNotQuietIsNoDeadlock) {
    RoundTotals busy = still(5, 5);
    busy.not_quiet = 1;
    EXPECT_EQ(judge(still(5, 5), busy), JobState::running);
    EXPECT_EQ(judge(busy, still(5, 5)), JobState::running);
}

TEST(Quiescence, ADeadlockWaitsForTheTimeoutEverywhere) {
    RoundTotals recent = still(5, 5);
    recent.not_quiet_long = 1;
    EXPECT_EQ(judge(still(5, 5), recent), JobState::running);
}

TEST(Quiescence, NoWaitingTaskIsNoDeadlock) {
    RoundTotals none = still(5, 5);
    none.waiting = 0;
    EXPECT_EQ(judge(none, none), JobState::running);
}

}  // namespace
}  // namespace bamboo
