// What --bamboo-stats counts of messages: per rank, the messages it sent; per process, the
// bytes the runtime itself copied for the messages it delivered, the cost of a message beyond
// what moving it takes. A message between ranks of a process ideally costs one copy per
// byte, from the sender's buffer into the receiver's; one between processes none beyond the
// MPI library's, where its data leaves from and arrives into the ranks' own buffers.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>

namespace bamboo {

struct MessageKind {
    enum Origin { point_to_point, collective };
    enum Scope { same_process, other_process };

    // A collective's messages travel on the odd context of its communicator (communicators/communicator.hpp).
    static Origin origin_of(int context) { return (context & 1) ? collective : point_to_point; }
};

// Messages a rank sent, by what sent them and where they went. Written by the rank only.
struct MessageCounts : MessageKind {
    std::uint64_t messages[2][2] = {};
    std::uint64_t bytes[2][2] = {};

    void count(Origin origin, Scope scope, std::size_t size) {
        ++messages[origin][scope];
        bytes[origin][scope] += size;
    }
};

// One-sided operations a rank issued, by operation (trace::RmaOp's order: put, get,
// accumulate, get_accumulate, compare_and_swap) and where their target was. Written by the rank only.
struct OneSidedCounts : MessageKind {
    static constexpr int kOperations = 5;
    std::uint64_t operations[kOperations][2] = {};
    std::uint64_t bytes[kOperations][2] = {};

    void count(int operation, Scope scope, std::size_t size) {
        ++operations[operation][scope];
        bytes[operation][scope] += size;
    }
};

// Bytes delivered into receives, and bytes the runtime copied on their way. Any thread;
// counting changes nothing the runtime depends on, so it is allowed through a const path.
class CopyCounts : public MessageKind {
public:
    void delivered(Origin origin, Scope scope, std::size_t bytes) const { add(delivered_[origin][scope], bytes); }
    void copied(Origin origin, Scope scope, std::size_t bytes) const { add(copied_[origin][scope], bytes); }

    std::uint64_t delivered_bytes(Origin origin, Scope scope) const {
        return delivered_[origin][scope].load(std::memory_order_relaxed);
    }
    std::uint64_t copied_bytes(Origin origin, Scope scope) const {
        return copied_[origin][scope].load(std::memory_order_relaxed);
    }

private:
    static void add(std::atomic<std::uint64_t>& counter, std::size_t bytes) {
        if (bytes) counter.fetch_add(bytes, std::memory_order_relaxed);
    }

    mutable std::atomic<std::uint64_t> delivered_[2][2] = {};
    mutable std::atomic<std::uint64_t> copied_[2][2] = {};
};

}  // namespace bamboo
