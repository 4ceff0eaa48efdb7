// Background work inside a task (core/background.hpp), driven from a plain thread: the
// pieces need only the thread of whoever resumes them.
#include "core/background.hpp"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace bamboo {
namespace {

TEST(BackgroundWork, APieceRunsAtOnceUntilItWaits) {
    BackgroundWork work;
    std::vector<std::string> steps;
    bool go = false;
    work.start([&] {
        steps.push_back("started");
        work.wait_until([&] { return go; });
        steps.push_back("resumed");
    });
    EXPECT_EQ(steps, std::vector<std::string>{"started"});
    EXPECT_FALSE(work.any_ready());
    work.progress();  // nothing it waits for has happened: it stays where it is
    EXPECT_EQ(steps.size(), 1u);
    go = true;
    EXPECT_TRUE(work.any_ready());
    work.progress();
    EXPECT_EQ(steps, (std::vector<std::string>{"started", "resumed"}));
    EXPECT_TRUE(work.empty());
}

TEST(BackgroundWork, APieceThatNeverWaitsEndsInStart) {
    BackgroundWork work;
    int runs = 0;
    work.start([&] { ++runs; });
    EXPECT_EQ(runs, 1);
    EXPECT_TRUE(work.empty());
}

TEST(BackgroundWork, PiecesMoveOnIndependentlyAndKeepTheirStacks) {
    BackgroundWork work;
    int stage[3] = {0, 0, 0};
    int released[3] = {0, 0, 0};
    for (int p = 0; p < 3; ++p) {
        work.start([&, p] {
            int local = 100 * p;  // on the piece's own stack, across its waits
            for (int round = 1; round <= 3; ++round) {
                work.wait_until([&, round] { return released[p] >= round; });
                stage[p] = local + round;
            }
        });
    }
    released[1] = 3;
    work.progress();
    EXPECT_EQ(stage[0], 0);
    EXPECT_EQ(stage[1], 103);
    EXPECT_EQ(stage[2], 0);
    released[2] = 1;
    released[0] = 2;
    work.progress();
    EXPECT_EQ(stage[0], 2);
    EXPECT_EQ(stage[2], 201);
    EXPECT_FALSE(work.empty());
    released[0] = released[2] = 3;
    work.progress();
    EXPECT_EQ(stage[0], 3);
    EXPECT_EQ(stage[2], 203);
    EXPECT_TRUE(work.empty());
}

TEST(BackgroundWork, OnlyThePieceItselfIsInside) {
    BackgroundWork work;
    bool inside_piece = false, go = false;
    work.start([&] {
        inside_piece = work.inside();
        work.wait_until([&] { return go; });
    });
    EXPECT_TRUE(inside_piece);
    EXPECT_FALSE(work.inside());
    go = true;
    work.progress();
}

}  // namespace
}  // namespace bamboo
