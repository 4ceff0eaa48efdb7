#include "util/byte_buffer.hpp"

#include <gtest/gtest.h>

#include <thread>
#include <vector>

using namespace bamboo;

// The tests of this binary share one pool; the pool hands out the block given back last.

TEST(ByteBuffer, LargeBlockIsReusedForTheNextRequestOfItsSize) {
    char* first = nullptr;
    {
        ByteBuffer a(1 << 20);
        first = a.get();
        a.get()[0] = 1;
        a.get()[(1 << 20) - 1] = 2;
    }
    ByteBuffer b((1 << 20) - 100);  // same power-of-two class
    EXPECT_EQ(b.get(), first);
}

TEST(ByteBuffer, MovedBufferOwnsTheBlockAlone) {
    ByteBuffer a(1 << 17);
    char* block = a.get();
    ByteBuffer b(std::move(a));
    EXPECT_FALSE(a);
    EXPECT_EQ(b.get(), block);
    ByteBuffer c;
    c = std::move(b);
    EXPECT_EQ(c.get(), block);
}

TEST(ByteBuffer, LargeBlocksAreKeptSmallOnesAreNot) {
    ByteBuffer large(ByteBuffer::kPooledBytes);
    std::size_t before = ByteBuffer::kept_bytes();
    { ByteBuffer small(ByteBuffer::kPooledBytes - 1); }
    EXPECT_EQ(ByteBuffer::kept_bytes(), before);
    ASSERT_LE(before + ByteBuffer::kPooledBytes, ByteBuffer::kKeptBytes);
    large = ByteBuffer();
    EXPECT_EQ(ByteBuffer::kept_bytes(), before + ByteBuffer::kPooledBytes);
}

TEST(ByteBuffer, ThePoolKeepsNoMoreThanItsLimit) {
    {
        std::vector<ByteBuffer> many;
        for (std::size_t kept = 0; kept <= 2 * ByteBuffer::kKeptBytes; kept += 4 << 20) many.emplace_back(4 << 20);
    }
    EXPECT_LE(ByteBuffer::kept_bytes(), ByteBuffer::kKeptBytes);
    EXPECT_GT(ByteBuffer::kept_bytes(), 0u);
}

TEST(ByteBuffer, ThreadsTakeAndGiveBackConcurrently) {
    std::vector<std::thread> threads;
    for (int t = 0; t < 4; ++t)
        threads.emplace_back([t] {
            for (int i = 0; i < 2000; ++i) {
                ByteBuffer b(ByteBuffer::kPooledBytes << (i % 4));
                b.get()[0] = static_cast<char>(t);
                b.get()[ByteBuffer::kPooledBytes - 1] = static_cast<char>(i);
                EXPECT_EQ(b.get()[0], static_cast<char>(t));  // no other thread holds this block
            }
        });
    for (std::thread& thread : threads) thread.join();
    EXPECT_LE(ByteBuffer::kept_bytes(), ByteBuffer::kKeptBytes);
}
