#include "messaging/send_receive.hpp"

#include <mpi.h>

#include "messaging/delivery.hpp"
#include "messaging/routes.hpp"

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

}  // namespace

bool start_send(Rank& self, MessageKind::Origin origin, bool nonblocking, const CommView& from, int dest, int tag,
                const TypedBuffer& data, Request& request, const char* call, bamboo_site at) {
    set_up(request, Request::Kind::send, self, data, *from.comm, call, at);
    if (dest == MPI_PROC_NULL) return false;
    const bool point_to_point = origin == MessageCounts::point_to_point;
    int dest_vrank = from.comm->vrank_of(dest);
    request.peer = dest_vrank;
    Envelope envelope{from.rank, tag, point_to_point ? from.context() : from.comm->collective_context()};
    const Routes& routes = self.routes();
    if (Rank* local = routes.local(dest_vrank)) {
        self.sent.count(origin, MessageCounts::same_process, data.bytes());
        Lending lending = !point_to_point ? Lending::never : nonblocking ? Lending::always : Lending::beyond_budget;
        return deliver_from_buffer(*local, envelope, data, &request, lending);
    }
    self.sent.count(origin, MessageCounts::other_process, data.bytes());
    return routes.link->send(envelope, dest_vrank, data, &request, /*may_wait_for_receiver=*/point_to_point);
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

}  // namespace bamboo
