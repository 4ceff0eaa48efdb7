#include "process/vf_choice.hpp"

#include <gtest/gtest.h>

#include <cstdio>
#include <string>
#include <vector>

using namespace bamboo;

namespace {

// A network of 1 ms per message and 1 MB/s: transfer seconds are easy to read.
const NetworkCost kSlow{1e-3, 1e6};

RunRecord run(int vf, int workers, double wall, double compute, double remote_bytes, double messages) {
    return RunRecord{vf, workers, wall, compute, remote_bytes, messages, kSlow};
}

}  // namespace

TEST(VfChoice, WithoutHistoryStartsNearestFour) {
    EXPECT_EQ(choose_vf({1, 2, 4, 8, 16}, {}, kSlow, 2).vf, 4);
    EXPECT_EQ(choose_vf({1, 2, 8, 16}, {}, kSlow, 2).vf, 2);  // a tie goes to the smaller
    EXPECT_EQ(choose_vf({18, 32}, {}, kSlow, 2).vf, 18);
}

TEST(VfChoice, ModelOverlapsCommunicationWithTheOtherTasks) {
    // One task per worker exposes all transfer; more tasks hide up to all but a task's share.
    EXPECT_DOUBLE_EQ(predicted_wall(1, 1, 1.0, 1.0, 1.0), 2.0);
    EXPECT_DOUBLE_EQ(predicted_wall(4, 1, 1.0, 1.0, 1.0), 1.25);
    EXPECT_DOUBLE_EQ(predicted_wall(4, 1, 1.0, 1.0, 0.5), 1.0);  // compute-bound
    // Fewer tasks than cores leave cores idle.
    EXPECT_DOUBLE_EQ(predicted_wall(1, 2, 1.0, 0.0, 0.0), 1.0);
    EXPECT_DOUBLE_EQ(predicted_wall(2, 2, 1.0, 0.0, 0.0), 0.5);
}

TEST(VfChoice, OneExposedRunPointsToMoreTasks) {
    // VF 1 took 2 s: 1 s of compute and 1 s of exposed transfer (1 MB at 1 MB/s).
    VfChoice choice = choose_vf({1, 2, 4, 8}, {run(1, 1, 2.0, 1.0, 1e6, 0)}, kSlow, 1);
    EXPECT_EQ(choice.vf, 8);  // compute cost per VF is unknown yet: the largest is tried
    EXPECT_NE(choice.reason.find("best predicted"), std::string::npos) << choice.reason;
}

TEST(VfChoice, GrowingComputeLimitsTheVf) {
    // Compute grows by 0.2167 s per task, and VF 4 is compute-bound at 1.65 s: VF 2 is
    // predicted at max(1.217, 1 + 0.608) = 1.608 s, VF 8 at 2.52 s of compute.
    std::vector<RunRecord> history{run(1, 1, 2.0, 1.0, 1e6, 0), run(4, 1, 1.65, 1.65, 1e6, 0)};
    VfChoice choice = choose_vf({1, 2, 4, 8}, history, kSlow, 1);
    EXPECT_EQ(choice.vf, 2) << choice.reason;
}

TEST(VfChoice, SettlesOnTheBestMeasured) {
    std::vector<RunRecord> history{run(1, 1, 2.0, 1.0, 1e6, 0), run(2, 1, 1.5, 1.2, 1e6, 0),
                                   run(4, 1, 1.7, 1.6, 1e6, 0), run(8, 1, 2.6, 2.4, 1e6, 0)};
    VfChoice choice = choose_vf({1, 2, 4, 8}, history, kSlow, 1);
    EXPECT_EQ(choice.vf, 2);
    EXPECT_NE(choice.reason.find("best measured"), std::string::npos) << choice.reason;
}

TEST(VfChoice, WithoutTrafficFillsTheCores) {
    // One process: nothing to hide; as many tasks as cores, no more (compute grows).
    std::vector<RunRecord> history{run(1, 1, 1.0, 1.0, 0, 0), run(8, 2, 0.6, 1.2, 0, 0)};
    EXPECT_EQ(choose_vf({1, 2, 4, 8}, history, NetworkCost{}, 2).vf, 2);
}

TEST(VfChoice, ProfileKeepsEachKeysRuns) {
    std::string path = ::testing::TempDir() + "vf_choice_profile.txt";
    std::remove(path.c_str());
    EXPECT_TRUE(read_profile(path, "processes=2 args=a").empty());  // no file yet
    ASSERT_TRUE(append_profile(path, "processes=2 args=a", run(4, 1, 1.5, 1.25, 4096, 12)));
    ASSERT_TRUE(append_profile(path, "processes=2 args=b", run(8, 1, 3.0, 2.0, 0, 0)));
    std::vector<RunRecord> a = read_profile(path, "processes=2 args=a");
    ASSERT_EQ(a.size(), 1u);
    EXPECT_EQ(a[0].vf, 4);
    EXPECT_DOUBLE_EQ(a[0].wall_s, 1.5);
    EXPECT_DOUBLE_EQ(a[0].compute_s, 1.25);
    EXPECT_DOUBLE_EQ(a[0].remote_bytes, 4096);
    EXPECT_DOUBLE_EQ(a[0].remote_messages, 12);
    EXPECT_DOUBLE_EQ(a[0].network.bandwidth_Bps, 1e6);
    EXPECT_EQ(read_profile(path, "processes=2 args=b").size(), 1u);
    EXPECT_TRUE(read_profile(path, "processes=4 args=a").empty());
    std::remove(path.c_str());
}
