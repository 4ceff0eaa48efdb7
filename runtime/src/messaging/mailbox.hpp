// A task's mailbox: MPI's matching rules over (source, tag, communicator), without MPI.
//
// Receives posted before their message arrived wait in `posted` (posting order); messages
// that arrived before a receive took them are unexpected, kept in arrival order. An arriving
// message goes to the earliest posted receive that accepts it, else it is unexpected; a new
// receive first takes the earliest unexpected message it accepts. Hence MPI's
// non-overtaking order between any two ranks.
//
// Unexpected messages wait in one queue per (source, tag, communicator), each numbered in
// arrival order: a receive that names its source and tag finds its message at once however
// many others wait (a gather's root under tasks that run ahead, say); one with wildcards
// takes the earliest among the queues' heads that it accepts.
//
// The mailbox also holds the task's armed firing rule: counts of expected messages that the
// unexpected queue must reach before the waiting task may run again.
#pragma once

#include <atomic>
#include <climits>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <memory>
#include <unordered_map>
#include <vector>

#include "messaging/buffer_budget.hpp"
#include "util/byte_buffer.hpp"
#include "util/spin.hpp"

namespace bamboo {

// Wildcard for Pattern::source and Pattern::tag (MPI_ANY_SOURCE / MPI_ANY_TAG).
constexpr int kAny = INT_MIN;

// Who sent a message, with which tag, on which communicator (ranks are communicator ranks).
struct Envelope {
    int source;
    int tag;
    int comm;
};

// Which messages a receive, probe or expectation accepts.
struct Pattern {
    int source;
    int tag;
    int comm;

    bool accepts(const Envelope& e) const {
        return comm == e.comm && (source == kAny || source == e.source) &&
               (tag == kAny || tag == e.tag);
    }
    bool operator==(const Pattern& o) const {
        return source == o.source && tag == o.tag && comm == o.comm;
    }
};

struct Request;
struct Announced;

// Where the data of a message announced by another process waits: the comm engine, which
// fetches it when asked.
class AnnouncedData {
public:
    // `receive` took the message (`bytes` bytes, known to fit): fetch the data into it, then
    // complete it.
    virtual void pull(Request& receive, const Envelope& envelope, std::size_t bytes,
                      const Announced& announced) = 0;
    // Nobody will receive the message: its sender goes on.
    virtual void decline(const Announced& announced) = 0;

protected:
    ~AnnouncedData() = default;
};

// A message whose sender kept its data (the receiving process's buffers were full, see
// messaging/buffer_budget.hpp): which process announced it, and its number there.
struct Announced {
    AnnouncedData* source = nullptr;  // none: the message is not announced
    int process = -1;
    std::uint64_t id = 0;
};

// A message nobody has received yet. It owns its bytes, unless its sender still holds them:
// a task of this process (`lender`, its send request) or of another (`announced`).
struct Message {
    Envelope envelope{};
    ByteBuffer storage;  // holds `data` (possibly after a wire header)
    const char* data = nullptr;
    std::size_t bytes = 0;
    Request* lender = nullptr;
    Announced announced;
    BufferCharge charge;  // the part of the buffer budget `storage` holds

    bool data_with_sender() const { return lender || announced.source; }
};

// The part of a receive the mailbox needs; the runtime's Request extends it.
struct PostedReceive {
    Pattern pattern{};
};

// One distinct key of a firing rule: `expected` messages matching `pattern`.
struct Expectation {
    Pattern pattern;
    int expected = 0;
    int arrived = 0;  // unexpected messages matching `pattern` (counted while armed)
};

class Mailbox {
public:
    // Every member below except rule_satisfied() and arrivals() requires this lock.
    SpinLock& mutex() const { return mutex_; }

    // Removes and returns the earliest posted receive that accepts `e`, or nullptr.
    PostedReceive* match_posted(const Envelope& e);

    // Queues a receive that found no unexpected message.
    void post(PostedReceive* receive);
    // Takes back `receive` if no message has matched it yet (MPI_Cancel); false if one has.
    bool unpost(PostedReceive* receive);

    // Appends an arrived message that matched no posted receive. Returns true when the task
    // must be woken: this arrival satisfied the armed firing rule (which is then disarmed), or
    // the task watches every arrival.
    bool add_unexpected(Message&& message);

    // Removes the earliest unexpected message that `p` accepts into *out; false if none.
    bool take_unexpected(const Pattern& p, Message* out);

    // The earliest unexpected message that `p` accepts, left in place; nullptr if none.
    const Message* find_unexpected(const Pattern& p) const;

    // The unexpected message whose data the send `lender` still holds, left in place;
    // nullptr once a receive has taken it.
    Message* lent_by(const Request* lender);

    std::size_t unexpected_count() const { return unexpected_count_; }

    // Arms a copy of a firing rule (distinct patterns with their counts). Returns true,
    // without arming, if the unexpected messages already satisfy it.
    bool arm_rule(const std::vector<Expectation>& rule);
    // The armed rule with current counts (empty when none is armed).
    const std::vector<Expectation>& armed_rule() const { return rule_; }

    // While watched, every unexpected arrival wakes the task: background work of the task
    // (core/background.hpp) waits for a message without arming the rule, which is the task's.
    void watch_arrivals(int delta) { watchers_ += delta; }

    // Whether the last armed rule has been satisfied by arrivals. Lock-free, for the waiter.
    bool rule_satisfied() const { return rule_satisfied_.load(); }

    // The task has finished: no more deliveries are accepted. Returns the messages left
    // unreceived, so the caller can warn about them.
    std::deque<Message> close();
    bool closed() const { return closed_; }

    // Messages delivered so far (posted or unexpected); read without the lock by the
    // deadlock watch to see whether anything moved.
    std::uint64_t arrivals() const { return arrivals_.load(std::memory_order_relaxed); }

private:
    struct Queued {
        std::uint64_t order;  // arrival order among all unexpected messages
        Message message;
    };
    using Queue = std::deque<Queued>;
    struct EnvelopeHash {
        std::size_t operator()(const Envelope& e) const {
            std::uint64_t h = static_cast<std::uint32_t>(e.source);
            h = h * 0x9e3779b97f4a7c15ull ^ static_cast<std::uint32_t>(e.tag);
            h = h * 0x9e3779b97f4a7c15ull ^ static_cast<std::uint32_t>(e.comm);
            return static_cast<std::size_t>(h ^ (h >> 29));
        }
    };
    struct EnvelopeEqual {
        bool operator()(const Envelope& a, const Envelope& b) const {
            return a.source == b.source && a.tag == b.tag && a.comm == b.comm;
        }
    };
    using Queues = std::unordered_map<Envelope, Queue, EnvelopeHash, EnvelopeEqual>;

    // The queue holding the earliest unexpected message `p` accepts, or end().
    Queues::iterator earliest(const Pattern& p);
    Queues::const_iterator earliest(const Pattern& p) const;
    std::size_t count_accepted(const Pattern& p) const;

    // Written under the lock only, so a plain load and store suffice.
    void count_arrival() {
        arrivals_.store(arrivals_.load(std::memory_order_relaxed) + 1, std::memory_order_relaxed);
    }

    mutable SpinLock mutex_;
    std::deque<PostedReceive*> posted_;
    Queues unexpected_;  // no empty queues
    std::uint64_t next_order_ = 0;
    std::size_t unexpected_count_ = 0;
    std::vector<Expectation> rule_;
    std::atomic<bool> rule_satisfied_{false};
    std::atomic<std::uint64_t> arrivals_{0};
    bool closed_ = false;
    int watchers_ = 0;
};

}  // namespace bamboo
