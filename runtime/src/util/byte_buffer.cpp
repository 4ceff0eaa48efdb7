#include "util/byte_buffer.hpp"

#include <mutex>
#include <vector>

#include "util/spin.hpp"

namespace bamboo {
namespace {

// Capacities are powers of two, so that a block fits every later request of its class.
constexpr int kSmallestClass = 16;  // 2^16 = kPooledBytes
constexpr int kClasses = 48 - kSmallestClass;
static_assert(ByteBuffer::kPooledBytes == std::size_t(1) << kSmallestClass);

int size_class(std::size_t bytes) {
    int c = kSmallestClass;
    while ((std::size_t(1) << c) < bytes) ++c;
    return c;
}

class Pool {
public:
    char* take(int c) {
        {
            std::lock_guard<SpinLock> lock(mutex_);
            std::vector<char*>& free = free_[c - kSmallestClass];
            if (!free.empty()) {
                char* block = free.back();
                free.pop_back();
                kept_ -= std::size_t(1) << c;
                return block;
            }
        }
        return new char[std::size_t(1) << c];
    }

    void give_back(char* block, int c) {
        {
            std::lock_guard<SpinLock> lock(mutex_);
            if (kept_ + (std::size_t(1) << c) <= ByteBuffer::kKeptBytes) {
                free_[c - kSmallestClass].push_back(block);
                kept_ += std::size_t(1) << c;
                return;
            }
        }
        delete[] block;
    }

    std::size_t kept() {
        std::lock_guard<SpinLock> lock(mutex_);
        return kept_;
    }

private:
    SpinLock mutex_;
    std::vector<char*> free_[kClasses];
    std::size_t kept_ = 0;
};

// Never destroyed: buffers held by static objects may be given back during exit.
Pool& pool() {
    static Pool* the_pool = new Pool;
    return *the_pool;
}

}  // namespace

ByteBuffer::ByteBuffer(std::size_t bytes) {
    if (bytes < kPooledBytes) {
        data_ = new char[bytes];
        return;
    }
    size_class_ = size_class(bytes);
    data_ = pool().take(size_class_);
}

void ByteBuffer::release() {
    if (!data_) return;
    if (size_class_ < 0) delete[] data_;
    else pool().give_back(data_, size_class_);
    data_ = nullptr;
}

std::size_t ByteBuffer::kept_bytes() { return pool().kept(); }

}  // namespace bamboo
