#include "transport/cork.hpp"

#include <gtest/gtest.h>

using namespace bamboo;

namespace {

constexpr std::int64_t kShort = Cork::kShortRunNs;

// Task `task` runs from `at` for `run` ns, ending a send block `tail` ns before it stops
// (its block sent, not corked, taking `sending` ns); returns when it stopped.
std::int64_t run_with_block(Cork& cork, int task, std::int64_t at, std::int64_t run, std::int64_t tail,
                            std::int64_t sending = 0) {
    cork.started(task, at);
    cork.sent(sending);
    cork.block_ended(task, at + run - tail);
    cork.stopped(at + run);
    return at + run;
}

}  // namespace

TEST(Cork, NothingMeasuredNothingCorked) {
    Cork cork(2);
    cork.closed(0);
    EXPECT_FALSE(cork.may_cork(0));
    EXPECT_FALSE(cork.may_stay_closed(1, 0));
}

// An exchange: short runs, each waiting in a receive right after its block.
TEST(Cork, ShortRunsWithShortTailsStayCorked) {
    Cork cork(2);
    std::int64_t at = run_with_block(cork, 0, 0, 1000, 100);
    at = run_with_block(cork, 1, at, 1000, 100);
    EXPECT_TRUE(cork.may_cork(0));
    cork.closed(at);
    EXPECT_TRUE(cork.may_stay_closed(1, at + 1000));
}

// A block sent rather than corked makes the run long: that time is not counted, or a task
// would never be corked for having been sent.
TEST(Cork, SendingABlockIsNotPartOfTheRun) {
    Cork cork(2);
    std::int64_t at = run_with_block(cork, 0, 0, 3 * kShort, 100, 3 * kShort - 1000);
    EXPECT_TRUE(cork.may_cork(0));
    cork.closed(at);
    EXPECT_TRUE(cork.may_stay_closed(0, at));
}

// An overlapped region: the task computes after its block, so its messages leave at once.
TEST(Cork, ALongTailAfterTheBlockIsNotCorked) {
    Cork cork(2);
    run_with_block(cork, 0, 0, 10 * kShort, 8 * kShort);
    EXPECT_FALSE(cork.may_cork(0));
}

// Corked messages do not wait over a task whose last run was long.
TEST(Cork, OpensBeforeALongRun) {
    Cork cork(2);
    std::int64_t at = run_with_block(cork, 0, 0, 1000, 100);
    at = run_with_block(cork, 1, at, 2 * kShort, 100);
    cork.closed(at);
    EXPECT_TRUE(cork.may_stay_closed(0, at));
    EXPECT_FALSE(cork.may_stay_closed(1, at));
}

TEST(Cork, OpensOnceClosedTheLongest) {
    Cork cork(1);
    run_with_block(cork, 0, 0, 1000, 100);
    cork.closed(2000);
    EXPECT_TRUE(cork.may_stay_closed(0, 2000 + Cork::kLongestNs - 1));
    EXPECT_FALSE(cork.may_stay_closed(0, 2000 + Cork::kLongestNs));
}

// Idle time between runs is not counted as a task's run.
TEST(Cork, IdleIsNotARun) {
    Cork cork(1);
    std::int64_t at = run_with_block(cork, 0, 0, 1000, 100);
    cork.closed(at + 100 * kShort);
    EXPECT_TRUE(cork.may_stay_closed(0, at + 100 * kShort));
}
