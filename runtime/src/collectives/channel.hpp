// The messages of one collective call: point-to-point messages between the members of its
// communicator, on the communicator's collective context (so the program's own receives
// never see them), counted as collective traffic by --bamboo-stats.
//
// Sends are buffered as everywhere in Bamboo: when send() returns the data may be reused,
// and no send waits for its receiver. A task that waits in receive() holds no worker.
#pragma once

#include <cstddef>
#include <memory>
#include <vector>

#include "collectives/structure.hpp"
#include "communicators/communicator.hpp"
#include "messaging/mailbox.hpp"
#include "messaging/rank.hpp"
#include "messaging/requests.hpp"

namespace bamboo {

// The messages a channel's rank waited for before it first sent: what collectives/rules.cpp
// says a firing rule may wait for. Tests record the algorithms' runs with it
// (tests/unit/first_receives_test.cpp); a channel without one records nothing.
struct FirstReceives {
    bool sent = false;
    std::vector<Pattern> patterns;
};

class CollectiveChannel {
public:
    // A message to receive: from `source` with `tag`, `bytes` bytes into `data`.
    struct Incoming {
        int source;
        int tag;
        void* data;
        std::size_t bytes;
    };
    class PostedReceives;

    // The channel of the calling rank's next collective call on `comm`.
    CollectiveChannel(Rank& self, const CommView& comm, const char* call, bamboo_site at,
                      FirstReceives* first_receives = nullptr)
        : self_(self), view_(comm), call_(call), at_(at), first_receives_(first_receives),
          tag_base_(tag::numbered(0, self.take_collective_number(comm.comm->collective_context()))) {}

    // A channel whose step tags are offset by `tag_base` instead (tag::kUnnumberedBase and
    // up): for collectives that only some members of `comm` call, which must not take a number.
    CollectiveChannel(Rank& self, const CommView& comm, const char* call, bamboo_site at, int tag_base)
        : self_(self), view_(comm), call_(call), at_(at), first_receives_(nullptr), tag_base_(tag_base) {}

    Rank& caller() const { return self_; }
    const Communicator& comm() const { return *view_.comm; }
    int rank() const { return view_.rank; }
    int size() const { return view_.size(); }
    const char* call() const { return call_; }
    bamboo_site site() const { return at_; }

    void send(int dest, int tag, const void* data, std::size_t bytes);

    // Receives the message from `source` with `tag` into `data`; it must have `bytes` bytes.
    void receive(int source, int tag, void* data, std::size_t bytes);

    // Receives the message from `source` with `tag`, whatever its size.
    Message receive_any_size(int source, int tag);

    // Posts receives together, before the sends they may overlap with; a sender that comes
    // after the posting copies straight into place. wait() before they go out of scope.
    PostedReceives post(const std::vector<Incoming>& incoming);

    // The pattern of this channel's message from `source` with step `tag` (for firing rules).
    Pattern pattern(int source, int tag) const {
        return Pattern{source, tag + tag_base_, view_.comm->collective_context()};
    }

    // Ends the job with an error naming the calling task and its collective call.
    [[noreturn]] void fail(const char* format, ...) const __attribute__((format(printf, 2, 3)));

private:
    void begin_receive(const Incoming& incoming, Request& request);
    // Waits for `request`, the receive of `incoming`, which must bring the bytes expected.
    void end_receive(const Incoming& incoming, const Request& request);
    void received(int source, int tag) {
        if (first_receives_ && !first_receives_->sent) first_receives_->patterns.push_back(pattern(source, tag));
    }

    Rank& self_;
    CommView view_;
    const char* call_;
    bamboo_site at_;
    FirstReceives* first_receives_;
    int tag_base_;  // the call's number among the collectives on its communicator, as a tag offset
};

class CollectiveChannel::PostedReceives {
public:
    // Waits for all; each must have its expected size.
    void wait();

private:
    friend class CollectiveChannel;
    PostedReceives(CollectiveChannel& ch, const std::vector<Incoming>& incoming);

    CollectiveChannel& ch_;
    std::vector<Incoming> incoming_;
    std::unique_ptr<Request[]> requests_;  // posted in the mailbox: addresses must not move
};

}  // namespace bamboo
