#include "communicators/cart_placement.hpp"

#include <gtest/gtest.h>

#include <numeric>
#include <set>

using namespace bamboo;

namespace {

CartTopology grid(std::vector<int> dims, bool periodic = false) {
    return CartTopology{dims, std::vector<int>(dims.size(), periodic)};
}

// MPI_COMM_WORLD of `processes` x `vf` tasks.
Communicator world(int processes, int vf) {
    std::vector<int> vranks(static_cast<std::size_t>(processes * vf));
    std::iota(vranks.begin(), vranks.end(), 0);
    return Communicator(0, vranks, vf, "MPI_COMM_WORLD");
}

// The processes hosting the grid cells of `rows` x `cols`, as a picture.
std::vector<std::vector<int>> picture(const std::vector<int>& taker, int rows, int cols, int vf) {
    std::vector<std::vector<int>> grid(static_cast<std::size_t>(rows), std::vector<int>(static_cast<std::size_t>(cols)));
    for (int r = 0; r < rows * cols; ++r) grid[r / cols][r % cols] = taker[static_cast<std::size_t>(r)] / vf;
    return grid;
}

}  // namespace

TEST(CartPlacement, EachProcessGetsASquareBlockOfA2DGrid) {
    Communicator parent = world(4, 4);
    std::vector<int> taker = block_placement(parent, grid({4, 4}));
    ASSERT_EQ(taker.size(), 16u);
    EXPECT_EQ(picture(taker, 4, 4, 4), (std::vector<std::vector<int>>{
                                           {0, 0, 1, 1}, {0, 0, 1, 1}, {2, 2, 3, 3}, {2, 2, 3, 3}}));
    EXPECT_EQ(std::set<int>(taker.begin(), taker.end()).size(), 16u);  // a permutation
}

TEST(CartPlacement, KeepsRowsWhenTheyAreAlreadyBlocks) {
    // 2 processes of 8 on a 4x4 grid: two rows each is a 2x4 block, the least surface; on
    // a torus 4 processes in rows split as many pairs as 2x2 blocks.
    std::vector<int> taker = block_placement(world(2, 8), grid({4, 4}));
    std::vector<int> identity(16);
    std::iota(identity.begin(), identity.end(), 0);
    EXPECT_EQ(taker, identity);
    EXPECT_EQ(block_placement(world(4, 4), grid({4, 4}, true)), identity);
    // A line of tasks is its own best placement.
    EXPECT_EQ(block_placement(world(4, 2), grid({8})), std::vector<int>({0, 1, 2, 3, 4, 5, 6, 7}));
}

TEST(CartPlacement, Cuts2By8IntoBlocksSquareInTheDomain) {
    // The grid splits a square domain, so its tasks are 4x as long along the first dimension:
    // 1x4 tasks make square blocks, with two cuts (2x2 tasks: three, though fewer pairs).
    std::vector<int> taker = block_placement(world(4, 4), grid({2, 8}));
    EXPECT_EQ(picture(taker, 2, 8, 4), (std::vector<std::vector<int>>{
                                          {0, 0, 0, 0, 1, 1, 1, 1}, {2, 2, 2, 2, 3, 3, 3, 3}}));
}

TEST(CartPlacement, CutsTheLeastAreaBeforeTheFewestPairs) {
    // A 4x2x2 grid, 4 tasks a process: 1x2x2 blocks split 12 pairs over 3 cut planes, 2x1x2
    // blocks as many pairs over 2 planes, which in a cube domain is less area.
    std::vector<int> taker = block_placement(world(4, 4), grid({4, 2, 2}));
    auto process_of = [&](int z, int y, int x) { return taker[static_cast<std::size_t>((z * 2 + y) * 2 + x)] / 4; };
    EXPECT_EQ(process_of(0, 0, 0), 0);
    EXPECT_EQ(process_of(0, 0, 1), 0);
    EXPECT_EQ(process_of(1, 0, 0), 0);
    EXPECT_EQ(process_of(1, 0, 1), 0);
    EXPECT_NE(process_of(0, 1, 0), 0);
}

TEST(CartPlacement, ARingOfTwoIsOnePairNotTwo) {
    // 2.5D Cannon's 2x2x2 grid, periodic in X and Y, on 2 processes: cutting any axis splits
    // 4 pairs, so rank order stays (X is cut; the Z fibers stay within processes).
    CartTopology cube{{2, 2, 2}, {1, 1, 0}};
    std::vector<int> identity(8);
    std::iota(identity.begin(), identity.end(), 0);
    EXPECT_EQ(block_placement(world(2, 4), cube), identity);
}

TEST(CartPlacement, GivesUpWhenTheGridDoesNotSplitEvenly) {
    EXPECT_TRUE(block_placement(world(2, 4), grid({3, 2})).empty());  // fewer cells than ranks
    EXPECT_TRUE(block_placement(world(2, 3), grid({2, 2})).empty());
    EXPECT_EQ(block_placement(world(2, 3), grid({3, 2})).size(), 6u);  // 3x1 blocks
    EXPECT_EQ(block_placement(world(2, 4), grid({8, 1, 1})).size(), 8u);
    // Members hosted unevenly (ranks 0..4 of a 2 x 4 world: 4 in one process, 1 in the other).
    Communicator uneven(4, {0, 1, 2, 3, 4}, 4, "uneven");
    EXPECT_TRUE(block_placement(uneven, grid({5})).empty());
}
