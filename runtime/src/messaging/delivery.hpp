// Moving a message into a task's mailbox, and completing receives.
//
// A message for a task goes straight into the earliest posted receive that accepts it, else
// to the back of the task's unexpected queue. Whoever completes a receive fills its status
// fields, then sets `complete`, then wakes its task (see Task::wait_until).
//
// A message's data is usually buffered (owned by the message); beyond the buffer budget it
// stays with its sender (messaging/buffer_budget.hpp) and moves once a receive takes the message.
#pragma once

#include <cstddef>

#include "messaging/datatype.hpp"
#include "messaging/mailbox.hpp"
#include "messaging/requests.hpp"

namespace bamboo {

class Rank;

// From a user's send buffer to a task of this process: copied straight into a matching
// posted receive (one copy, no allocation), else into a new buffered message. With a
// `lender` (the send's request, which its task waits for), beyond the buffer budget the
// message is lent instead: the receive copies from the sender's buffer, then completes
// `lender`. Returns true if lent.
bool deliver_from_buffer(Rank& dest, const Envelope& envelope, const TypedBuffer& data, Request* lender);

// A message from another process: its bytes, or its announcement.
void deliver_message(Rank& dest, Message&& message);

// The earliest posted receive of `dest` that accepts `envelope`, removed from its mailbox so
// the caller can place the data and complete it; nullptr if none. *closed tells whether
// `dest` has finished (the message must then be dropped).
Request* claim_posted_receive(Rank& dest, const Envelope& envelope, bool* closed);

// Aborts with MPI_ERR_TRUNCATE's meaning if `bytes` do not fit the receive buffer.
void check_fits(const Request& receive, const Envelope& envelope, std::size_t bytes);

// The receive's data is in place: record its status and wake its task.
void complete_receive(Request& receive, const Envelope& envelope, std::size_t bytes);

// The running task posts `receive`: it takes the earliest unexpected message it accepts
// (completing at once, unless the data is still with a task of another process), else waits
// in the posted queue.
void post_receive(Rank& self, Request& receive);

// `message` will never be received (its task has finished): a sender still holding the data
// goes on.
void release_sender(Message& message);

// Warns that a message for the finished task `dest` is dropped.
void warn_dropped(const Rank& dest, const Envelope& envelope);

}  // namespace bamboo
