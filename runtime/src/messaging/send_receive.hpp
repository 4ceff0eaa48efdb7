// A rank's sends and receives, for point-to-point calls and collectives alike.
//
// A message for a rank of this process goes straight into its mailbox
// (messaging/delivery.hpp); one for another process to the transport (Routes::link). Either
// way it is counted for --bamboo-stats.
//
// Sends are buffered (messaging/buffer_budget.hpp): the data may be reused once start_send()
// returns false. It returns true when the request completes later: a large message to
// another process leaves straight from the sender's buffer, and beyond the buffer budget a
// point-to-point message waits for its receive. Collective messages never wait for their
// receive: the algorithms send before they receive.
#pragma once

#include <cstdint>

#include "bamboo.h"
#include "communicators/communicator.hpp"
#include "messaging/datatype.hpp"
#include "messaging/mailbox.hpp"
#include "messaging/rank.hpp"
#include "messaging/requests.hpp"

namespace bamboo {

// How a send may complete: MPI's send modes, and for standard sends whether the call blocks.
enum class SendMode : std::uint8_t {
    collective,    // a collective algorithm's message: always buffered (they send before they receive)
    standard,      // MPI_Send, MPI_Rsend: buffered within the budget, beyond it once received
    standard_lending,  // ... in a send block that leaves its buffers untouched until the next
                       // evaluation point: to a rank of this process, lends its buffer until then
    nonblocking,   // MPI_Isend, MPI_Irsend: to a rank of this process, lends its buffer
    synchronous,   // MPI_Ssend, MPI_Issend: completes once a receive has matched the message
    buffered,      // MPI_Bsend, MPI_Ibsend: always buffered, so it completes at once
};

// Starts `self`'s send of `data` to rank `dest` of `from` (MPI_PROC_NULL: to nobody) with
// `tag`: point-to-point on the communicator's own context, or a collective's message on its
// collective context. `request` is set up here and names `call` at `at` in reports. Returns
// true if `request` completes later, as `mode` says; the data must stay untouched until then.
bool start_send(Rank& self, SendMode mode, const CommView& from, int dest, int tag, const TypedBuffer& data,
                Request& request, const char* call, bamboo_site at);

// Starts `self`'s receive into `target` of the message on `comm` that `pattern` accepts
// (source MPI_PROC_NULL: none, it completes at once). `request` is set up here (other than
// its held_type, the caller's) and names `call` at `at` in reports. It completes at once if
// the message is already there.
// Starts `request` as a receive of `message`, which a matched probe took out of the mailbox
// (MPI_Mrecv, MPI_Imrecv): its data goes to `target` at once, or once fetched from its sender.
void receive_matched(Rank& self, const Communicator& comm, Message&& message, const TypedBuffer& target,
                     Request& request, const char* call, bamboo_site at);

void start_receive(Rank& self, const Communicator& comm, const Pattern& pattern, const TypedBuffer& target,
                   Request& request, const char* call, bamboo_site at);

}  // namespace bamboo
