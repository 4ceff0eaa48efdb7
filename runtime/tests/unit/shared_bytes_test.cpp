// Whether two buffers share a byte (messaging/shared_bytes.hpp): ghost faces whose spans
// interleave share none; faces that meet at one element do; the answer kept for a pair of
// shapes is the answer for them anywhere, and only for them.
#include "messaging/shared_bytes.hpp"

#include <mpi.h>

#include <gtest/gtest.h>

#include <vector>

#include "typed_buffer.hpp"

namespace bamboo {
namespace {

// A 3D grid of doubles, Z x Y x X with one ghost layer, and its faces as subarrays.
constexpr int kZ = 4, kY = 5, kX = 6;

struct Face {
    explicit Face(int axis) {
        int sizes[3] = {kZ + 2, kY + 2, kX + 2}, sub[3] = {kZ, kY, kX}, start[3] = {0, 0, 0};
        sub[axis] = 1;
        MPI_Type_create_subarray(3, sizes, sub, start, MPI_ORDER_C, MPI_DOUBLE, &type);
        MPI_Type_commit(&type);
    }
    ~Face() {
        forget_datatype(type);
        MPI_Type_free(&type);
    }
    MPI_Datatype type;
};

std::ptrdiff_t at(int z, int y, int x) { return (z * (kY + 2) + y) * (kX + 2) + x; }
const std::ptrdiff_t kStride[3] = {at(1, 0, 0), at(0, 1, 0), 1};

class SharedBytesTest : public ::testing::Test {
protected:
    std::vector<double> grid = std::vector<double>(static_cast<std::size_t>(at(kZ + 2, 0, 0)));
    Face faces[3] = {Face(0), Face(1), Face(2)};
    double* first = grid.data() + at(1, 1, 1);
    // The ghost face below (side 0) or above (side 1) the owned block along `axis`.
    TypedBuffer ghost(int axis, int side) {
        const int len[3] = {kZ, kY, kX};
        return typed(first + (side ? len[axis] : -1) * kStride[axis], 1, faces[axis].type);
    }
    SharedBytes shared;
};

TEST_F(SharedBytesTest, GhostFacesWhoseSpansInterleaveShareNoByte) {
    for (int axis = 0; axis < 3; ++axis)
        for (int side = 0; side < 2; ++side)
            for (int other = 0; other < 3; ++other)
                for (int other_side = 0; other_side < 2; ++other_side) {
                    if (axis == other && side == other_side) continue;
                    EXPECT_FALSE(shared.between(ghost(axis, side), ghost(other, other_side)))
                        << "axis " << axis << " side " << side << " against axis " << other << " side " << other_side;
                }
    // The spans of Y's and X's ghost faces do meet: the exact test is what says they are apart.
    const char *y_first, *y_last, *x_first, *x_last;
    ASSERT_TRUE(ghost(1, 0).byte_range(&y_first, &y_last));
    ASSERT_TRUE(ghost(2, 0).byte_range(&x_first, &x_last));
    EXPECT_TRUE(y_first < x_last && x_first < y_last);
}

TEST_F(SharedBytesTest, FacesThatMeetAtOneElementShareIt) {
    // The owned face at the bottom of Y and the one at the bottom of X share the column x = 1, y = 1.
    EXPECT_TRUE(shared.between(typed(first, 1, faces[1].type), typed(first, 1, faces[2].type)));
    // A face and one double it covers, or a contiguous run through it.
    EXPECT_TRUE(shared.between(ghost(2, 1), typed(first + kX * kStride[2] + 3 * kStride[0], 1, MPI_DOUBLE)));
    EXPECT_TRUE(shared.between(typed(grid.data(), static_cast<int>(grid.size()), MPI_DOUBLE), ghost(1, 0)));
    // ... and one it steps over: the owned point next to the ghost column.
    EXPECT_FALSE(shared.between(ghost(2, 0), typed(first + 2 * kStride[1], 1, MPI_DOUBLE)));
}

TEST_F(SharedBytesTest, AKeptAnswerHoldsForTheSamePairAnywhereAndOnlyForIt) {
    std::vector<double> copy(grid.size());
    double* copy_first = copy.data() + at(1, 1, 1);
    const std::ptrdiff_t x_hi = kX * kStride[2], y_hi = kY * kStride[1];
    for (int round = 0; round < 2; ++round) {  // the second round answers from what was kept
        EXPECT_FALSE(shared.between(ghost(1, 1), ghost(2, 1)));
        EXPECT_FALSE(shared.between(typed(copy_first + y_hi, 1, faces[1].type),
                                    typed(copy_first + x_hi, 1, faces[2].type)));
        // The same shapes at another distance: an X face whose last column reaches the Y face's row.
        EXPECT_TRUE(shared.between(typed(first + y_hi, 1, faces[1].type),
                                   typed(first + kStride[1] + 2, 1, faces[2].type)));
    }
}

TEST_F(SharedBytesTest, DatatypesLeftToMpisEngineAreComparedByTheirBytes) {
    // A cyclic darray (not decoded: messaging/type_map.hpp) of 8 doubles over 2 ranks: rank 0
    // holds the even ones, rank 1 the odd ones.
    MPI_Datatype cyclic[2];
    for (int rank = 0; rank < 2; ++rank) {
        int gsize = 8, distrib = MPI_DISTRIBUTE_CYCLIC, darg = 1, psize = 2;
        MPI_Type_create_darray(2, rank, 1, &gsize, &distrib, &darg, &psize, MPI_ORDER_C, MPI_DOUBLE, &cyclic[rank]);
        MPI_Type_commit(&cyclic[rank]);
    }
    TypedBuffer even = typed(grid.data(), 1, cyclic[0]), odd = typed(grid.data(), 1, cyclic[1]);
    ASSERT_FALSE(even.layout.contiguous || even.layout.map);
    EXPECT_FALSE(shared.between(even, odd));
    EXPECT_TRUE(shared.between(even, typed(grid.data() + 2, 1, MPI_DOUBLE)));
    EXPECT_FALSE(shared.between(even, typed(grid.data() + 3, 1, MPI_DOUBLE)));
    for (MPI_Datatype& type : cyclic) {
        forget_datatype(type);
        MPI_Type_free(&type);
    }
}

TEST_F(SharedBytesTest, EmptyBuffersShareNothing) {
    EXPECT_FALSE(shared.between(typed(first, 0, faces[0].type), ghost(0, 0)));
    EXPECT_FALSE(shared.between(ghost(0, 0), typed(first - kStride[0], 0, MPI_DOUBLE)));
}

}  // namespace
}  // namespace bamboo
