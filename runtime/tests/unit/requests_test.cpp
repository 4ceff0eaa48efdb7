#include "messaging/requests.hpp"

#include <gtest/gtest.h>

#include <set>

using namespace bamboo;

TEST(RequestEncoding, RoundTripsAndNeverEqualsTheNullRequest) {
    for (std::uint32_t index : {0u, 1u, 2u, 31u, 1000u, kMaxHandles - 1}) {
        MPI_Request handle = encode_handle<MPI_Request>(index);
        EXPECT_NE(handle, MPI_REQUEST_NULL);
        std::optional<std::uint32_t> decoded = decode_handle(handle);
        ASSERT_TRUE(decoded.has_value());
        EXPECT_EQ(*decoded, index);
    }
    EXPECT_FALSE(decode_handle(MPI_REQUEST_NULL).has_value());
}

// MPICH's MPI_Request is an int and its MPI_REQUEST_NULL is 0x2c000000.
TEST(RequestEncoding, WorksForIntegerHandlesAsInMpich) {
    const int mpich_request_null = 0x2c000000;
    for (std::uint32_t index : {0u, 5u, kMaxHandles - 1}) {
        int handle = encode_handle<int>(index);
        EXPECT_NE(handle, mpich_request_null);
        EXPECT_GT(handle, 0);
        EXPECT_EQ(decode_handle<int>(handle).value(), index);
    }
    EXPECT_FALSE(decode_handle<int>(mpich_request_null).has_value());
    EXPECT_FALSE(decode_handle<int>(-1).has_value());
}

TEST(RequestTable, AllocatesDistinctRequestsAndReusesReleasedOnes) {
    RequestTable table;
    std::set<Request*> seen;
    std::vector<MPI_Request> handles(100);
    for (MPI_Request& h : handles) {
        Request* r = table.allocate(&h);
        EXPECT_TRUE(seen.insert(r).second);
        EXPECT_EQ(table.find(h), r);
        EXPECT_FALSE(r->complete.load());
    }
    EXPECT_EQ(table.live_count(), 100u);
    Request* first = table.find(handles[0]);
    first->complete.store(true);
    MPI_Request released = handles[0];
    table.release(&handles[0]);
    EXPECT_EQ(handles[0], MPI_REQUEST_NULL);
    EXPECT_EQ(table.find(released), nullptr);  // a stale handle names nothing
    MPI_Request again;
    Request* reused = table.allocate(&again);
    EXPECT_EQ(reused, first);
    EXPECT_FALSE(reused->complete.load());  // fresh state
    EXPECT_EQ(table.live_count(), 100u);
}

TEST(RequestTable, RejectsHandlesItNeverIssued) {
    RequestTable table;
    EXPECT_EQ(table.find(MPI_REQUEST_NULL), nullptr);
    EXPECT_EQ(table.find(encode_handle<MPI_Request>(7)), nullptr);
    MPI_Request h;
    table.allocate(&h);
    EXPECT_EQ(table.find(encode_handle<MPI_Request>(1)), nullptr);
}

// MPICH's predefined handles (ints with kind bits high; MPI_COMM_SELF is odd) never decode.
TEST(HandleEncoding, PredefinedMpichHandlesAreNotOurs) {
    for (int predefined : {0x44000000, 0x44000001, 0x04000000, 0x48000000, 0x08000000, 0x2c000000})
        EXPECT_FALSE(decode_handle<int>(predefined).has_value()) << std::hex << predefined;
}

TEST(HandleTable, FreedSlotsAreReusedAndStaleHandlesFindNothing) {
    HandleTable<int, int> table;
    int a = table.insert(10), b = table.insert(20);
    EXPECT_EQ(*table.find(a), 10);
    EXPECT_EQ(*table.find(b), 20);
    EXPECT_TRUE(table.erase(a));
    EXPECT_EQ(table.find(a), nullptr);
    EXPECT_FALSE(table.erase(a));
    int c = table.insert(30);
    EXPECT_EQ(c, a);  // the slot is reused
    EXPECT_EQ(*table.find(c), 30);
}
