#include "messaging/send_receive.hpp"

#include <mpi.h>

#include "core/worker.hpp"
#include "messaging/delivery.hpp"
#include "messaging/routes.hpp"
#include "trace/recorder.hpp"
#include "util/simulation.hpp"

namespace bamboo {
namespace {

void set_up(Request& request, Request::Kind kind, Rank& owner, const TypedBuffer& target,
            const Communicator& comm, const char* call, bamboo_site at) {
    request.kind = kind;
    request.owner = &owner;
    request.target = target;
    request.comm = &comm;
    request.call = call;
    request.site = at;
}

// From this size on, a collective's message to a task of this process that has not posted its
// receive yet is lent rather than copied: the receive then copies it once, from the sender's
// buffer. Copied, a MiB cost two copies (into the message, out of it), and a 1 MiB MPI_Reduce
// between two tasks spent most of its time in them. Smaller messages are copied: the sender
// goes on at once instead of waiting for the receive.
constexpr std::size_t kLentCollectiveBytes = std::size_t(64) << 10;

Lending local_lending(SendMode mode, std::size_t bytes) {
    switch (mode) {
        case SendMode::standard: return Lending::beyond_budget;
        case SendMode::standard_lending: return Lending::until_evaluation_point;
        case SendMode::nonblocking: return Lending::always;
        case SendMode::synchronous: return Lending::until_received;
        case SendMode::collective: return bytes >= kLentCollectiveBytes ? Lending::always : Lending::never;
        case SendMode::buffered: break;
    }
    return Lending::never;
}

ReceiverWait receiver_wait(SendMode mode) {
    switch (mode) {
        case SendMode::standard:
        case SendMode::standard_lending:
        case SendMode::nonblocking: return ReceiverWait::beyond_credit;
        case SendMode::synchronous: return ReceiverWait::always;
        case SendMode::collective:
        case SendMode::buffered: break;
    }
    return ReceiverWait::never;
}

}  // namespace

bool start_send(Rank& self, SendMode mode, const CommView& from, int dest, int tag, const TypedBuffer& data,
                Request& request, const char* call, bamboo_site at) {
    set_up(request, Request::Kind::send, self, data, *from.comm, call, at);
    if (dest == MPI_PROC_NULL) return false;
    charge(RuntimeWork::message_end);
    const MessageKind::Origin origin =
        mode == SendMode::collective ? MessageKind::collective : MessageKind::point_to_point;
    int dest_vrank = from.comm->peer_vrank(dest);
    request.peer = dest_vrank;
    request.synchronous = mode == SendMode::synchronous;
    Envelope envelope{from.rank, tag, origin == MessageKind::point_to_point ? from.context() : from.comm->collective_context()};
    const Routes& routes = self.routes();
    if (trace::on(trace::Kind::message)) {
        Worker* worker = Worker::current();
        trace::sent(worker ? worker->index() : -1, self.vrank(), dest_vrank, envelope.source, envelope.tag,
                    envelope.comm, data.bytes());
    }
    if (Rank* local = routes.local(dest_vrank)) {
        self.sent.count(origin, MessageCounts::same_process, data.bytes());
        return deliver_from_buffer(*local, envelope, data, &request, local_lending(mode, data.bytes()));
    }
    self.sent.count(origin, MessageCounts::other_process, data.bytes());
    return routes.link->send(envelope, dest_vrank, data, &request, receiver_wait(mode));
}

void start_receive(Rank& self, const Communicator& comm, const Pattern& pattern, const TypedBuffer& target,
                   Request& request, const char* call, bamboo_site at) {
    set_up(request, Request::Kind::receive, self, target, comm, call, at);
    if (pattern.source == MPI_PROC_NULL) {
        request.source = MPI_PROC_NULL;
        request.tag = MPI_ANY_TAG;
        request.bytes = 0;
        request.complete.store(true);
        return;
    }
    request.pattern = pattern;
    post_receive(self, request);
}

void receive_matched(Rank& self, const Communicator& comm, Message&& message, const TypedBuffer& target,
                     Request& request, const char* call, bamboo_site at) {
    set_up(request, Request::Kind::receive, self, target, comm, call, at);
    request.pattern = Pattern{message.envelope.source, message.envelope.tag, message.envelope.comm};
    fill(request, std::move(message));
}

}  // namespace bamboo
