#include "requests.hpp"

#include <gtest/gtest.h>

#include <set>

using namespace bamboo;

TEST(RequestEncoding, RoundTripsAndNeverEqualsTheNullRequest) {
    for (std::uint32_t index : {0u, 1u, 2u, 31u, 1000u, (1u << 30) - 1}) {
        MPI_Request handle = encode_request(index);
        EXPECT_NE(handle, MPI_REQUEST_NULL);
        std::optional<std::uint32_t> decoded = decode_request(handle);
        ASSERT_TRUE(decoded.has_value());
        EXPECT_EQ(*decoded, index);
    }
    EXPECT_FALSE(decode_request(MPI_REQUEST_NULL).has_value());
}

// MPICH's MPI_Request is an int and its MPI_REQUEST_NULL is 0x2c000000.
TEST(RequestEncoding, WorksForIntegerHandlesAsInMpich) {
    const int mpich_request_null = 0x2c000000;
    for (std::uint32_t index : {0u, 5u, (1u << 30) - 1}) {
        int handle = encode_request<int>(index);
        EXPECT_NE(handle, mpich_request_null);
        EXPECT_GT(handle, 0);
        EXPECT_EQ(decode_request<int>(handle).value(), index);
    }
    EXPECT_FALSE(decode_request<int>(mpich_request_null).has_value());
    EXPECT_FALSE(decode_request<int>(-1).has_value());
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
    EXPECT_EQ(table.find(encode_request(7)), nullptr);
    MPI_Request h;
    table.allocate(&h);
    EXPECT_EQ(table.find(encode_request(1)), nullptr);
}
