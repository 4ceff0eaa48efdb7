#include "messaging/buffer_budget.hpp"

#include <gtest/gtest.h>

#include <utility>

namespace bamboo {
namespace {

constexpr std::size_t kMiB = 1u << 20;

TEST(BufferBudget, OneProcessKeepsTheWholeLimitForItsOwnTasks) {
    BufferBudget budget(4 * kMiB, 1, 0);
    EXPECT_EQ(budget.local_limit(), 4 * kMiB);
    EXPECT_TRUE(budget.reserve_local(4 * kMiB));
    EXPECT_FALSE(budget.reserve_local(1));
    budget.release_local(4 * kMiB);
    EXPECT_TRUE(budget.reserve_local(1));
}

TEST(BufferBudget, OtherProcessesShareHalfAsCredit) {
    BufferBudget budget(64 * kMiB, 5, 2);
    EXPECT_EQ(budget.local_limit(), 32 * kMiB);
    EXPECT_EQ(budget.credit_per_process(), 8 * kMiB);
    EXPECT_TRUE(budget.spend(0, 8 * kMiB));
    EXPECT_FALSE(budget.spend(0, 1));  // spent, and a refused spend takes nothing
    EXPECT_TRUE(budget.spend(1, 1));   // credit is per process
    budget.refund(0, 100);
    EXPECT_TRUE(budget.spend(0, 100));
    EXPECT_FALSE(budget.spend(0, 1));
}

TEST(BufferBudget, ManyProcessesStillGetAFewMessagesWorthEach) {
    BufferBudget budget(8 * kMiB, 4096, 0);
    EXPECT_EQ(budget.credit_per_process(), 256u << 10);
}

TEST(BufferBudget, CollectivesSpendBelowZeroAndWaitForRefunds) {
    BufferBudget budget(8 * kMiB, 2, 0);
    budget.force_spend(1, budget.credit_per_process() + 10);
    EXPECT_FALSE(budget.spend(1, 1));
    budget.refund(1, 11);
    EXPECT_TRUE(budget.spend(1, 1));
}

TEST(BufferBudget, ARefundIsDueOnceAQuarterOfTheCreditWasConsumed) {
    BufferBudget budget(8 * kMiB, 2, 0);
    std::size_t quarter = budget.credit_per_process() / 4;
    budget.consumed(1, quarter - 1);
    EXPECT_FALSE(budget.refunds_due());
    EXPECT_FALSE(budget.refund_due(1));
    budget.consumed(1, 1);
    EXPECT_TRUE(budget.refunds_due());
    EXPECT_TRUE(budget.refund_due(1));
    EXPECT_EQ(budget.take_refund(1), quarter);
    EXPECT_EQ(budget.take_refund(1), 0u);
    EXPECT_FALSE(budget.refund_due(1));
}

TEST(BufferCharge, GivesItsShareBackOnceWhereverTheMessageGoes) {
    BufferBudget budget(8 * kMiB, 2, 0);
    ASSERT_TRUE(budget.reserve_local(budget.local_limit()));
    {
        BufferCharge local(&budget, -1, budget.local_limit());
        BufferCharge moved = std::move(local);
        BufferCharge assigned;
        assigned = std::move(moved);
        EXPECT_FALSE(budget.reserve_local(1));
    }
    EXPECT_TRUE(budget.reserve_local(budget.local_limit()));
    {
        BufferCharge remote(&budget, 1, 1000);
    }
    EXPECT_EQ(budget.take_refund(1), 1000u);
}

TEST(BufferCost, EvenEmptyMessagesCost) {
    EXPECT_GT(buffer_cost(0), 0u);
    EXPECT_EQ(buffer_cost(1000) - buffer_cost(0), 1000u);
}

}  // namespace
}  // namespace bamboo
