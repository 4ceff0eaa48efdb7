// Moving a message into a task's mailbox, and completing receives.
//
// A message for a task goes straight into the earliest posted receive that accepts it, else
// to the back of the task's unexpected queue. Whoever completes a receive fills its status
// fields, then sets `complete`, then wakes its task (see Task::wait_until).
//
// A message's data is usually buffered (owned by the message); beyond the buffer budget it
// stays with its sender (messaging/buffer_budget.hpp) and moves once a receive takes the
// message.
//
// A nonblocking send to a rank of this process lends its buffer instead: MPI leaves the
// buffer to the send until the program waits for it, so the receive copies the data straight
// from it, one copy in all, where buffering would take two. Behind a firing rule every
// receive comes after its message, so this is the usual way between tasks of a process. A
// lent send completes when a receive takes it, so a program that waits for its send before it
// receives (unsafe in MPI, common where MPI buffers small messages) would wait for ever: its
// worker buys the data back (buffers it after all) once it has nothing else to run for a
// while, or once a task only polls (MPI_Test, MPI_Iprobe) for a while.
//
// A blocking send lends its buffer too where the translator has shown that the task leaves
// it untouched until its next evaluation point (a send block of sends only, right before its
// firing rule: bamboo_send_block_begin_lending). The task goes on at once; at the evaluation
// point it buys back whatever no receive has taken yet. Between tasks of one process, whose
// receives come after their firing rules, the data is then copied once instead of twice.
#pragma once

#include <chrono>
#include <cstddef>
#include <string>

#include "messaging/datatype.hpp"
#include "messaging/mailbox.hpp"
#include "messaging/requests.hpp"

namespace bamboo {

class Rank;
class Worker;
struct Routes;

// How a send to a rank of this process may leave its data with the sender when no receive
// is posted for it yet.
enum class Lending {
    never,          // buffered (small collective messages: their algorithms send before they receive)
    beyond_budget,  // buffered within the buffer budget, lent beyond it (blocking sends)
    always,         // lent, and bought back if it waits too long (nonblocking sends, large
                    // collective messages)
    until_received, // lent until a receive takes it (synchronous sends)
    until_evaluation_point,  // lent until a receive takes it or the sender's next evaluation
                             // point, where it buys it back (take_back)
};

// From a user's send buffer to a task of this process: copied straight into a matching
// posted receive (one copy, no allocation), else buffered or lent as `lending` says. Lent,
// the receive copies from the sender's buffer, then completes `sender` (the send's request,
// owned by the sending rank). Returns true if lent.
bool deliver_from_buffer(Rank& dest, const Envelope& envelope, const TypedBuffer& data, Request* sender,
                         Lending lending);

// How long a send stays lent while nothing but waiting or polling happens on its worker.
constexpr std::chrono::microseconds kLendPatience{50};

// The ranks that `worker` ran last buy back their sends lent to ranks of this process: those
// lent for longer than kLendPatience, or all of them when `all`. Runs on the worker's own
// thread, between tasks or from a polling task.
void buy_back_lent_sends(const Routes& routes, const Worker& worker, bool all);

// `send`, lent, is complete when this returns: its data bought back if no receive has taken
// it (its task is finishing, or has come to the evaluation point it lent it until).
void take_back(Request& send);

// `rank` buys back all its lent sends (it is finishing), or forgets `send`, retired.
void buy_back_all(Rank& rank);
void forget_lent(Rank& rank, const Request& send);

// A message from another process: its bytes, or its announcement. A one-sided message
// (messaging/one_sided.hpp) is applied instead, whatever its task is doing.
void deliver_message(Rank& dest, Message&& message);

// The earliest posted receive of `dest` that accepts `envelope`, removed from its mailbox so
// the caller can place the data and complete it; nullptr if none. *closed tells whether
// `dest` has finished (the message must then be dropped).
Request* claim_posted_receive(Rank& dest, const Envelope& envelope, bool* closed);

// `message` is `receive`'s (claimed, see above): puts its data in place and completes the
// receive, unless the data is still with a task of another process, which the comm engine
// then asks for.
void fill(Request& receive, Message&& message);

// A message longer than its receive's buffer fills the buffer with its first bytes (the
// datatype's unpack and copy keep the part that fits) and completes the receive as any other:
// the sender goes on, and the receive's task learns of it as it completes the request
// (Request::truncated). What its report says: "message truncated (MPI_ERR_TRUNCATE): the
// 40-byte message from vrank 0, tag 0, MPI_COMM_WORLD does not fit the 20-byte receive buffer".
std::string describe_truncation(const Request& receive);

// The receive's data is in place: record its status and wake its task.
void complete_receive(Request& receive, const Envelope& envelope, std::size_t bytes);

// The running task posts `receive`: it takes the earliest unexpected message it accepts
// (completing at once, unless the data is still with a task of another process), else waits
// in the posted queue.
void post_receive(Rank& self, Request& receive);

// A lent message taken out of a mailbox by hand (not by a receive): its data copied into the
// message's own storage, and its send completed.
void own_data(Message& message);

// `message` will never be received (its task has finished): a sender still holding the data
// goes on.
void release_sender(Message& message);

// Warns that a message for the finished task `dest` is dropped.
void warn_dropped(const Rank& dest, const Envelope& envelope);

}  // namespace bamboo
