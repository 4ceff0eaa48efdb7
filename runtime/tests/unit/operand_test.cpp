// A reduction's operand over the caller's buffers (collectives/reduction.hpp): where the
// result lands in the user's receive buffer it accumulates there, the input copied in only
// when read, or combined into a contribution received there first; an operand that is only
// sent is read where it lies, and copied before anything writes it.
#include "collectives/reduction.hpp"

#include <gtest/gtest.h>

#include <vector>

namespace bamboo {
namespace {

TypedBuffer ints(std::vector<int>& v) {
    TypedBuffer buffer;
    buffer.base = v.data();
    buffer.count = static_cast<int>(v.size());
    buffer.type = MPI_INT;
    EXPECT_TRUE(describe_datatype(MPI_INT, &buffer.layout));
    return buffer;
}

Reduction sum_of(int count) { return Reduction{MPI_SUM, MPI_INT, count, true}; }

TEST(Operand, OverTheResultCopiesTheInputInOnlyWhenRead) {
    std::vector<int> input{1, 2, 3}, result{-1, -1, -1};
    Operand acc = Operand::over(ints(result), ints(input));
    EXPECT_EQ(acc.vacant(), reinterpret_cast<char*>(result.data()));
    EXPECT_EQ(result, (std::vector<int>{-1, -1, -1}));
    EXPECT_EQ(acc.bytes(), reinterpret_cast<char*>(result.data()));
    EXPECT_EQ(result, input);
    EXPECT_EQ(acc.vacant(), nullptr);
}

TEST(Operand, AContributionReceivedIntoTheVacantResultTakesTheInput) {
    std::vector<int> input{1, 2, 3}, result{-1, -1, -1};
    Operand acc = Operand::over(ints(result), ints(input));
    int* landed = reinterpret_cast<int*>(acc.vacant());
    landed[0] = 10, landed[1] = 20, landed[2] = 30;  // as a receive would
    sum_of(3).combine_input(acc);
    EXPECT_EQ(result, (std::vector<int>{11, 22, 33}));
    EXPECT_EQ(input, (std::vector<int>{1, 2, 3}));
    EXPECT_EQ(acc.vacant(), nullptr);
}

TEST(Operand, InPlaceHasNoInputToWaitFor) {
    std::vector<int> result{4, 5, 6};
    Operand acc = Operand::over(ints(result), ints(result));
    EXPECT_EQ(acc.vacant(), nullptr);
    EXPECT_EQ(result, (std::vector<int>{4, 5, 6}));
}

TEST(Operand, ABorrowedInputIsReadInPlaceAndCopiedBeforeAWrite) {
    std::vector<int> input{1, 2, 3};
    Operand acc = Operand::borrowing(ints(input));
    EXPECT_EQ(acc.bytes(), reinterpret_cast<char*>(input.data()));
    Operand other = sum_of(3).operand(acc.layout());
    int* more = reinterpret_cast<int*>(other.bytes());
    more[0] = more[1] = more[2] = 100;
    sum_of(3).combine(other, acc);  // writes acc: it owns a copy first
    EXPECT_NE(acc.bytes(), reinterpret_cast<char*>(input.data()));
    EXPECT_EQ(input, (std::vector<int>{1, 2, 3}));
    const int* combined = reinterpret_cast<const int*>(acc.bytes());
    EXPECT_EQ(std::vector<int>(combined, combined + 3), (std::vector<int>{101, 102, 103}));
}

}  // namespace
}  // namespace bamboo
