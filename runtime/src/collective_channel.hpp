// The messages of one collective call: point-to-point messages between the members of its
// communicator, on the communicator's collective context (so the program's own receives
// never see them), counted as collective traffic by --bamboo-stats.
//
// Sends are buffered as everywhere in Bamboo: when send() returns the data may be reused,
// and no send waits for its receiver. A task that waits in receive() holds no worker.
#pragma once

#include <cstddef>

#include "api.hpp"
#include "mailbox.hpp"

namespace bamboo {

class CollectiveChannel {
public:
    CollectiveChannel(Task& self, const CommView& comm, const char* call, bamboo_site at)
        : self_(self), comm_(*comm.comm), rank_(comm.rank), call_(call), at_(at) {}

    Task& task() const { return self_; }
    const Communicator& comm() const { return comm_; }
    int rank() const { return rank_; }
    int size() const { return comm_.size(); }
    const char* call() const { return call_; }
    bamboo_site site() const { return at_; }

    void send(int dest, int tag, const void* data, std::size_t bytes);

    // Receives the message from `source` with `tag` into `data`; it must have `bytes` bytes.
    void receive(int source, int tag, void* data, std::size_t bytes);

    // Receives the message from `source` with `tag`, whatever its size.
    Message receive_any_size(int source, int tag);

    // The pattern of this channel's message from `source` with `tag` (for firing rules).
    Pattern pattern(int source, int tag) const {
        return Pattern{source, tag, comm_.collective_context()};
    }

    // Ends the job with an error naming the calling task and its collective call.
    [[noreturn]] void fail(const char* format, ...) const __attribute__((format(printf, 2, 3)));

private:
    Task& self_;
    const Communicator& comm_;
    int rank_;
    const char* call_;
    bamboo_site at_;
};

}  // namespace bamboo
