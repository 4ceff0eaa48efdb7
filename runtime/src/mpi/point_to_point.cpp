// Point-to-point MPI over virtual ranks: sends, receives, persistent and generalized requests,
// probes (waits and tests: mpi/completion.cpp).
#include <mpi.h>

#include <cstring>
#include <memory>
#include <mutex>
#include <vector>

#include "bamboo.h"
#include "core/worker.hpp"
#include "messaging/datatype.hpp"
#include "messaging/delivery.hpp"
#include "messaging/routes.hpp"
#include "messaging/rank.hpp"
#include "messaging/send_receive.hpp"
#include "mpi/api.hpp"
#include "mpi/requests.hpp"
#include "util/errors.hpp"
#include "util/mpi_guard.hpp"
#include "util/simulation.hpp"

namespace bamboo {
namespace {

// A buffered send must fit the buffer the task attached (MPI_Buffer_attach). The runtime
// buffers it in memory of its own, so earlier buffered sends take none of that space.
void check_attached_buffer(const Rank& self, std::size_t bytes, const char* call, bamboo_site at) {
    std::size_t needed = bytes + MPI_BSEND_OVERHEAD;
    if (needed > static_cast<std::size_t>(self.attached_buffer.size))
        call_error(MPI_ERR_BUFFER, self.vrank(), call, at,
                   "the %zu-byte message needs %zu bytes of attached buffer (with MPI_BSEND_OVERHEAD), "
                   "but %d are attached (MPI_Buffer_attach)",
                   bytes, needed, self.attached_buffer.size);
}

// Checks an MPI call's send arguments, then starts the send (messaging/send_receive.hpp).
// Returns true if `request` has yet to complete: until then the user's buffer must stay
// untouched.
bool start_send_call(Rank& self, const char* call, bamboo_site at, const void* buf, int count,
                     MPI_Datatype type, int dest, int tag, MPI_Comm comm, Request& request, SendMode mode) {
    CommView view = resolve_comm(self, comm, call, at);
    TypedBuffer data = typed_buffer(self, buf, count, type, call, at);
    check_destination(self, view, dest, call, at);
    if (tag < 0) call_error(MPI_ERR_TAG, self.vrank(), call, at, "the tag %d is negative", tag);
    if (mode == SendMode::buffered) check_attached_buffer(self, data.bytes(), call, at);
    return start_send(self, mode, view, dest, tag, data, request, call, at);
}

// Checks an MPI call's receive arguments, then starts the receive; it completes at once for
// MPI_PROC_NULL or a message already there. `nonblocking`: the program may free `type`
// before the receive completes, so a derived datatype is unpacked with a duplicate the
// request holds.
void start_receive_call(Rank& self, const char* call, bamboo_site at, void* buf, int count,
                        MPI_Datatype type, int source, int tag, MPI_Comm comm, Request& request,
                        bool nonblocking = false) {
    CommView view = resolve_comm(self, comm, call, at);
    Pattern pattern = receive_pattern(self, view, source, tag, call, at);
    TypedBuffer target = typed_buffer(self, buf, count, type, call, at);
    request.errors_to = comm;
    if (nonblocking) {
        request.held_type = hold_datatype(type, target.layout);
        if (request.held_type != MPI_DATATYPE_NULL) target.type = request.held_type;
    }
    start_receive(self, *view.comm, pattern, target, request, call, at);
}

// A receive call of a window whose receives its firing rule posted at the evaluation point
// (messaging/announced_receives.hpp): it takes over the next one, which it must name; the
// handle of its request, complete.
MPI_Request take_announced(Rank& self, const void* buf, int count, MPI_Datatype type, int source, int tag,
                           MPI_Comm comm, const char* call, bamboo_site at) {
    AnnouncedReceives& announced = self.announced;
    if (!AnnouncedReceives::names(announced.next_posted(), buf, count, type, source, tag, comm))
        announced.mismatch(self.vrank(), call, at);
    return announced.take_next();
}

// What MPI_Recv and MPI_Sendrecv return once their receive `r` is complete: MPI_SUCCESS, or
// for a truncated message MPI_ERR_TRUNCATE, through the error handler of its communicator.
int receive_outcome(const Rank& self, const Request& r, const char* call, bamboo_site at) {
    if (!r.truncated()) return MPI_SUCCESS;
    return raise_error(truncation_error(self, r, MPI_ERR_TRUNCATE, call, at), r.errors_to);
}

// A matched probe's take: the earliest message `pattern` accepts, out of the mailbox into a
// new message handle; false (and MPI_MESSAGE_NULL) if none has come. From MPI_PROC_NULL,
// MPI_MESSAGE_NO_PROC at once.
bool take_matched(Rank& self, const CommView& view, const Pattern& pattern, MPI_Comm comm, MPI_Message* handle,
                  MPI_Status* status) {
    if (pattern.source == MPI_PROC_NULL) {
        *handle = MPI_MESSAGE_NO_PROC;
        set_status(status, MPI_PROC_NULL, MPI_ANY_TAG, 0);
        return true;
    }
    Message message;
    {
        std::lock_guard<SpinLock> lock(self.mailbox().mutex());
        if (!self.mailbox().take_unexpected(pattern, &message)) {
            *handle = MPI_MESSAGE_NULL;
            return false;
        }
    }
    own_data(message);  // a lending sender goes on: the message may wait long in the handle
    set_status(status, message.envelope.source, message.envelope.tag, message.bytes);
    *handle = self.matched.insert(MatchedMessage{std::move(message), view.comm, comm});
    return true;
}

// Starts `request` as the receive of the message a matched probe took (MPI_Mrecv, MPI_Imrecv),
// and sets the handle to MPI_MESSAGE_NULL; false for MPI_MESSAGE_NO_PROC, which receives
// nothing.
bool start_matched_receive(Rank& self, void* buf, int count, MPI_Datatype type, MPI_Message* handle,
                           Request& request, bool nonblocking, const char* call, bamboo_site at) {
    check_not_null(self, handle, "the message pointer", call, at);
    if (*handle == MPI_MESSAGE_NO_PROC) {
        *handle = MPI_MESSAGE_NULL;
        return false;
    }
    MatchedMessage* matched = self.matched.find(*handle);
    if (!matched)
        call_error(MPI_ERR_REQUEST, self.vrank(), call, at,
                   "the message handle names no message of a matched probe (MPI_Mprobe, MPI_Improbe) that this "
                   "task has not received yet");
    TypedBuffer target = typed_buffer(self, buf, count, type, call, at);
    if (nonblocking) {
        request.held_type = hold_datatype(type, target.layout);
        if (request.held_type != MPI_DATATYPE_NULL) target.type = request.held_type;
    }
    request.errors_to = matched->errors_to;
    const Communicator& comm = *matched->comm;
    Message message = std::move(matched->message);
    self.matched.erase(*handle);
    *handle = MPI_MESSAGE_NULL;
    receive_matched(self, comm, std::move(message), target, request, call, at);
    return true;
}

// Requests freed by MPI_Request_free before they completed: released once they have.
// Checked whenever the task makes a request, so they do not pile up.
void release_completed_orphans(Rank& self) {
    std::vector<MPI_Request>& orphans = self.requests().orphans();
    for (std::size_t i = 0; i < orphans.size();) {
        Request* r = self.requests().find(orphans[i]);
        if (!r->complete.load()) {
            ++i;
            continue;
        }
        // Off the list first: a generalized request's free function may call MPI, and come here.
        MPI_Request handle = orphans[i];
        orphans[i] = orphans.back();
        orphans.pop_back();
        free_request(self, &handle, *r);
    }
}

// A standard send in a send block that leaves its buffers untouched until the rank's next
// evaluation point: lent to a rank of this process, it completes there at the latest, so its
// request outlives the call, in the rank's table.
int lending_send(Rank& self, const char* call, bamboo_site at, const void* buf, int count, MPI_Datatype type,
                 int dest, int tag, MPI_Comm comm) {
    MPI_Request handle;
    Request* request = self.requests().allocate(&handle);
    bool completes_later;
    try {
        completes_later = start_send_call(self, call, at, buf, count, type, dest, tag, comm, *request,
                                          SendMode::standard_lending);
    } catch (const CallError&) {
        self.requests().release(&handle);
        throw;
    }
    if (completes_later && request->lent == Request::Lent::until_evaluation_point) {
        self.keep_until_evaluation_point(handle);
        return MPI_SUCCESS;
    }
    if (completes_later) self.wait_for(*request, call, at);  // to another process, as MPI_Send
    self.requests().release(&handle);
    return MPI_SUCCESS;
}

int blocking_send(const char* call, SendMode mode, bamboo_site at, const void* buf, int count, MPI_Datatype type,
                  int dest, int tag, MPI_Comm comm) {
    Rank& self = calling_rank(call, at);
    if (mode == SendMode::standard && self.lends_until_evaluation_point())
        return lending_send(self, call, at, buf, count, type, dest, tag, comm);
    Request request;
    if (start_send_call(self, call, at, buf, count, type, dest, tag, comm, request, mode))
        self.wait_for(request, call, at);
    return MPI_SUCCESS;
}

int nonblocking_send(const char* call, SendMode mode, bamboo_site at, const void* buf, int count,
                     MPI_Datatype type, int dest, int tag, MPI_Comm comm, MPI_Request* request) {
    Rank& self = calling_rank(call, at);
    Request* r = new_request(self, request, call, at);
    try {
        if (!start_send_call(self, call, at, buf, count, type, dest, tag, comm, *r, mode)) r->complete.store(true);
    } catch (const CallError&) {
        self.requests().release(request);  // nothing started: no request to wait for
        throw;
    }
    return MPI_SUCCESS;
}

// A persistent request, inactive until MPI_Start. Its datatype is held as a nonblocking
// receive's is, since the program may free its own meanwhile.
void make_persistent(Rank& self, MPI_Request* handle, PersistentCall call, bamboo_site at) {
    TypedBuffer data = typed_buffer(self, call.buf, call.count, call.type, call.call, at);
    Request* r = new_request(self, handle, call.call, at);
    call.held_type = hold_datatype(call.type, data.layout);
    r->persistent = std::make_unique<PersistentCall>(call);
    r->active = false;
    r->complete.store(true);
}

int persistent_send(const char* call, SendMode mode, bamboo_site at, const void* buf, int count,
                    MPI_Datatype type, int dest, int tag, MPI_Comm comm, MPI_Request* request) {
    Rank& self = calling_rank(call, at);
    // The arguments are checked now, as MPI checks them, and again at each start.
    CommView view = resolve_comm(self, comm, call, at);
    check_destination(self, view, dest, call, at);
    if (tag < 0) call_error(MPI_ERR_TAG, self.vrank(), call, at, "the tag %d is negative", tag);
    PersistentCall persistent;
    persistent.is_send = true;
    persistent.mode = mode;
    persistent.call = call;
    persistent.buf = const_cast<void*>(buf);
    persistent.count = count;
    persistent.type = type;
    persistent.peer = dest;
    persistent.tag = tag;
    persistent.comm = comm;
    make_persistent(self, request, std::move(persistent), at);
    return MPI_SUCCESS;
}

// MPI_Start: the persistent request's operation, started as its nonblocking call would start it.
void start_persistent(Rank& self, Request* request, bamboo_site at) {
    if (!request || !request->persistent)
        call_error(MPI_ERR_REQUEST, self.vrank(), "MPI_Start", at, "the request is not a persistent request");
    if (request->active)
        call_error(MPI_ERR_REQUEST, self.vrank(), "MPI_Start", at, "the request is active (started and not yet completed)");
    RequestTable::renew(*request);
    const PersistentCall& p = *request->persistent;
    MPI_Datatype type = p.held_type != MPI_DATATYPE_NULL ? p.held_type : p.type;
    if (!p.is_send) {
        start_receive_call(self, p.call, at, p.buf, p.count, type, p.peer, p.tag, p.comm, *request);
    } else if (!start_send_call(self, p.call, at, p.buf, p.count, type, p.peer, p.tag, p.comm, *request, p.mode)) {
        request->complete.store(true);
    }
}

}  // namespace

Request* new_request(Rank& self, MPI_Request* handle, const char* call, bamboo_site at) {
    check_not_null(self, handle, "the request pointer", call, at);
    release_completed_orphans(self);
    return self.requests().allocate(handle);
}

}  // namespace bamboo

using namespace bamboo;

extern "C" {

int bamboo_send(bamboo_site at, const void* buf, int count, MPI_Datatype type, int dest, int tag,
                MPI_Comm comm) {
    return checked_call(comm, [&]() -> int {
        return blocking_send("MPI_Send", SendMode::standard, at, buf, count, type, dest, tag, comm);
    });
}

int bamboo_ssend(bamboo_site at, const void* buf, int count, MPI_Datatype type, int dest, int tag,
                 MPI_Comm comm) {
    return checked_call(comm, [&]() -> int {
        return blocking_send("MPI_Ssend", SendMode::synchronous, at, buf, count, type, dest, tag, comm);
    });
}

int bamboo_rsend(bamboo_site at, const void* buf, int count, MPI_Datatype type, int dest, int tag,
                 MPI_Comm comm) {
    return checked_call(comm, [&]() -> int {
        return blocking_send("MPI_Rsend", SendMode::standard, at, buf, count, type, dest, tag, comm);
    });
}

int bamboo_bsend(bamboo_site at, const void* buf, int count, MPI_Datatype type, int dest, int tag,
                 MPI_Comm comm) {
    return checked_call(comm, [&]() -> int {
        return blocking_send("MPI_Bsend", SendMode::buffered, at, buf, count, type, dest, tag, comm);
    });
}

int bamboo_isend(bamboo_site at, const void* buf, int count, MPI_Datatype type, int dest,
                 int tag, MPI_Comm comm, MPI_Request* request) {
    return checked_call(comm, [&]() -> int {
        return nonblocking_send("MPI_Isend", SendMode::nonblocking, at, buf, count, type, dest, tag, comm, request);
    });
}

int bamboo_issend(bamboo_site at, const void* buf, int count, MPI_Datatype type, int dest,
                  int tag, MPI_Comm comm, MPI_Request* request) {
    return checked_call(comm, [&]() -> int {
        return nonblocking_send("MPI_Issend", SendMode::synchronous, at, buf, count, type, dest, tag, comm, request);
    });
}

int bamboo_irsend(bamboo_site at, const void* buf, int count, MPI_Datatype type, int dest,
                  int tag, MPI_Comm comm, MPI_Request* request) {
    return checked_call(comm, [&]() -> int {
        return nonblocking_send("MPI_Irsend", SendMode::nonblocking, at, buf, count, type, dest, tag, comm, request);
    });
}

int bamboo_ibsend(bamboo_site at, const void* buf, int count, MPI_Datatype type, int dest,
                  int tag, MPI_Comm comm, MPI_Request* request) {
    return checked_call(comm, [&]() -> int {
        return nonblocking_send("MPI_Ibsend", SendMode::buffered, at, buf, count, type, dest, tag, comm, request);
    });
}

int bamboo_buffer_attach(bamboo_site at, void* buffer, int size) {
    return checked_call(MPI_COMM_WORLD, [&]() -> int {
        Rank& self = calling_rank("MPI_Buffer_attach", at);
        if (self.attached_buffer.base)
            call_error(MPI_ERR_BUFFER, self.vrank(), "MPI_Buffer_attach", at,
                       "a buffer is already attached (MPI_Buffer_detach it first)");
        if (size < 0) call_error(MPI_ERR_ARG, self.vrank(), "MPI_Buffer_attach", at, "the size %d is negative", size);
        self.attached_buffer = AttachedBuffer{buffer, size};
        return MPI_SUCCESS;
    });
}

int bamboo_buffer_detach(bamboo_site at, void* buffer_addr, int* size) {
    return checked_call(MPI_COMM_WORLD, [&]() -> int {
        Rank& self = calling_rank("MPI_Buffer_detach", at);
        check_not_null(self, buffer_addr, "the buffer address", "MPI_Buffer_detach", at);
        check_not_null(self, size, "the size pointer", "MPI_Buffer_detach", at);
        // Nothing to wait for: buffered sends keep their data in the runtime's memory, not here.
        *static_cast<void**>(buffer_addr) = self.attached_buffer.base;
        *size = self.attached_buffer.size;
        self.attached_buffer = AttachedBuffer{};
        return MPI_SUCCESS;
    });
}

int bamboo_recv(bamboo_site at, void* buf, int count, MPI_Datatype type, int source, int tag,
                MPI_Comm comm, MPI_Status* status) {
    return checked_call(comm, [&]() -> int {
        Rank& self = calling_rank("MPI_Recv", at);
        if (self.announced.any_posted()) {
            MPI_Request handle = take_announced(self, buf, count, type, source, tag, comm, "MPI_Recv", at);
            const Request& request = *self.requests().find(handle);
            set_request_status(status, request);
            int outcome = receive_outcome(self, request, "MPI_Recv", at);
            self.requests().release(&handle);
            return outcome;
        }
        Request request;
        start_receive_call(self, "MPI_Recv", at, buf, count, type, source, tag, comm, request);
        self.wait_for(request, "MPI_Recv", at);
        set_request_status(status, request);
        return receive_outcome(self, request, "MPI_Recv", at);
    });
}

int bamboo_irecv(bamboo_site at, void* buf, int count, MPI_Datatype type, int source, int tag,
                 MPI_Comm comm, MPI_Request* request) {
    return checked_call(comm, [&]() -> int {
        Rank& self = calling_rank("MPI_Irecv", at);
        if (self.announced.any_posted()) {
            check_not_null(self, request, "the request pointer", "MPI_Irecv", at);
            *request = take_announced(self, buf, count, type, source, tag, comm, "MPI_Irecv", at);
            return MPI_SUCCESS;
        }
        Request* r = new_request(self, request, "MPI_Irecv", at);
        try {
            start_receive_call(self, "MPI_Irecv", at, buf, count, type, source, tag, comm, *r, true);
        } catch (const CallError&) {
            self.requests().release(request);  // nothing started: no request to wait for
            throw;
        }
        return MPI_SUCCESS;
    });
}

int bamboo_send_init(bamboo_site at, const void* buf, int count, MPI_Datatype type, int dest, int tag,
                     MPI_Comm comm, MPI_Request* request) {
    return checked_call(comm, [&]() -> int {
        return persistent_send("MPI_Send_init", SendMode::nonblocking, at, buf, count, type, dest, tag, comm, request);
    });
}

int bamboo_ssend_init(bamboo_site at, const void* buf, int count, MPI_Datatype type, int dest, int tag,
                      MPI_Comm comm, MPI_Request* request) {
    return checked_call(comm, [&]() -> int {
        return persistent_send("MPI_Ssend_init", SendMode::synchronous, at, buf, count, type, dest, tag, comm,
                               request);
    });
}

int bamboo_rsend_init(bamboo_site at, const void* buf, int count, MPI_Datatype type, int dest, int tag,
                      MPI_Comm comm, MPI_Request* request) {
    return checked_call(comm, [&]() -> int {
        return persistent_send("MPI_Rsend_init", SendMode::nonblocking, at, buf, count, type, dest, tag, comm,
                               request);
    });
}

int bamboo_bsend_init(bamboo_site at, const void* buf, int count, MPI_Datatype type, int dest, int tag,
                      MPI_Comm comm, MPI_Request* request) {
    return checked_call(comm, [&]() -> int {
        return persistent_send("MPI_Bsend_init", SendMode::buffered, at, buf, count, type, dest, tag, comm,
                               request);
    });
}

int bamboo_recv_init(bamboo_site at, void* buf, int count, MPI_Datatype type, int source, int tag,
                     MPI_Comm comm, MPI_Request* request) {
    return checked_call(comm, [&]() -> int {
        Rank& self = calling_rank("MPI_Recv_init", at);
        CommView view = resolve_comm(self, comm, "MPI_Recv_init", at);
        receive_pattern(self, view, source, tag, "MPI_Recv_init", at);
        PersistentCall call;
        call.call = "MPI_Recv_init";
        call.buf = buf;
        call.count = count;
        call.type = type;
        call.peer = source;
        call.tag = tag;
        call.comm = comm;
        make_persistent(self, request, std::move(call), at);
        return MPI_SUCCESS;
    });
}

int bamboo_start(bamboo_site at, MPI_Request* request) {
    return checked_call(MPI_COMM_WORLD, [&]() -> int {
        Rank& self = calling_rank("MPI_Start", at);
        check_not_null(self, request, "the request pointer", "MPI_Start", at);
        start_persistent(self, find_request(self, *request, "MPI_Start", at), at);
        return MPI_SUCCESS;
    });
}

int bamboo_startall(bamboo_site at, int count, MPI_Request requests[]) {
    return checked_call(MPI_COMM_WORLD, [&]() -> int {
        Rank& self = calling_rank("MPI_Startall", at);
        if (count < 0) call_error(MPI_ERR_COUNT, self.vrank(), "MPI_Startall", at, "the count %d is negative", count);
        if (count > 0) check_not_null(self, requests, "the request array", "MPI_Startall", at);
        for (int i = 0; i < count; ++i) start_persistent(self, find_request(self, requests[i], "MPI_Startall", at), at);
        return MPI_SUCCESS;
    });
}

int bamboo_request_free(bamboo_site at, MPI_Request* request) {
    return checked_call(MPI_COMM_WORLD, [&]() -> int {
        Rank& self = calling_rank("MPI_Request_free", at);
        check_not_null(self, request, "the request pointer", "MPI_Request_free", at);
        Request* r = find_request(self, *request, "MPI_Request_free", at);
        if (!r) call_error(MPI_ERR_REQUEST, self.vrank(), "MPI_Request_free", at, "the request is MPI_REQUEST_NULL");
        if (!r->active || r->complete.load()) return free_request(self, request, *r);
        // MPI lets the operation go on: the request is freed once it completes.
        self.requests().orphans().push_back(*request);
        *request = MPI_REQUEST_NULL;
        return MPI_SUCCESS;
    });
}

int bamboo_cancel(bamboo_site at, MPI_Request* request) {
    return checked_call(MPI_COMM_WORLD, [&]() -> int {
        Rank& self = calling_rank("MPI_Cancel", at);
        check_not_null(self, request, "the request pointer", "MPI_Cancel", at);
        Request* r = find_active_request(self, *request, "MPI_Cancel", at);
        if (r && r->generalized) return r->generalized->cancel(r->generalized->extra_state, r->complete.load());
        // MPI lets a cancel fail, the operation then completing as usual: sends are never taken
        // back (they may already be in another process's hands), receives only before a message
        // has matched them.
        if (!r || r->kind != Request::Kind::receive || r->complete.load()) return MPI_SUCCESS;
        bool taken_back;
        {
            std::lock_guard<SpinLock> lock(self.mailbox().mutex());
            taken_back = self.mailbox().unpost(r);
        }
        if (taken_back) {
            r->cancelled = true;
            r->source = MPI_ANY_SOURCE;
            r->tag = MPI_ANY_TAG;
            r->complete.store(true);
        }
        return MPI_SUCCESS;
    });
}

int bamboo_grequest_start(bamboo_site at, MPI_Grequest_query_function* query_fn, MPI_Grequest_free_function* free_fn,
                          MPI_Grequest_cancel_function* cancel_fn, void* extra_state, MPI_Request* request) {
    return checked_call(MPI_COMM_WORLD, [&]() -> int {
        const char* call = "MPI_Grequest_start";
        Rank& self = calling_rank(call, at);
        check_not_null(self, reinterpret_cast<const void*>(query_fn), "the query function", call, at);
        check_not_null(self, reinterpret_cast<const void*>(free_fn), "the free function", call, at);
        check_not_null(self, reinterpret_cast<const void*>(cancel_fn), "the cancel function", call, at);
        Request* r = new_request(self, request, call, at);
        r->kind = Request::Kind::generalized;
        r->owner = &self;
        r->call = call;
        r->site = at;
        r->generalized = std::make_unique<GeneralizedCall>(GeneralizedCall{query_fn, free_fn, cancel_fn, extra_state});
        return MPI_SUCCESS;
    });
}

int bamboo_grequest_complete(bamboo_site at, MPI_Request request) {
    return checked_call(MPI_COMM_WORLD, [&]() -> int {
        const char* call = "MPI_Grequest_complete";
        Rank& self = calling_rank(call, at);
        Request* r = find_request(self, request, call, at);
        if (!r || !r->generalized)
            call_error(MPI_ERR_REQUEST, self.vrank(), call, at, "the request is not a generalized request (MPI_Grequest_start)");
        if (r->complete.load()) call_error(MPI_ERR_REQUEST, self.vrank(), call, at, "the generalized request is complete already");
        r->complete.store(true);
        // If the program freed it already (MPI_Request_free), it is freed now: MPI calls its free
        // function when it completes.
        release_completed_orphans(self);
        return MPI_SUCCESS;
    });
}

int bamboo_sendrecv(bamboo_site at, const void* sendbuf, int sendcount, MPI_Datatype sendtype,
                    int dest, int sendtag, void* recvbuf, int recvcount, MPI_Datatype recvtype,
                    int source, int recvtag, MPI_Comm comm, MPI_Status* status) {
    return checked_call(comm, [&]() -> int {
        Rank& self = calling_rank("MPI_Sendrecv", at);
        Request send, receive;
        bool send_pending = start_send_call(self, "MPI_Sendrecv", at, sendbuf, sendcount, sendtype, dest,
                                            sendtag, comm, send, SendMode::standard);
        start_receive_call(self, "MPI_Sendrecv", at, recvbuf, recvcount, recvtype, source, recvtag, comm,
                           receive);
        if (send_pending) self.wait_for(send, "MPI_Sendrecv", at);
        self.wait_for(receive, "MPI_Sendrecv", at);
        set_request_status(status, receive);
        return receive_outcome(self, receive, "MPI_Sendrecv", at);
    });
}

// The send leaves from a copy of the buffer (the same datatype over the copy's bytes), so that
// the receive may land in the buffer whenever its message comes.
int bamboo_sendrecv_replace(bamboo_site at, void* buf, int count, MPI_Datatype type, int dest, int sendtag, int source,
                            int recvtag, MPI_Comm comm, MPI_Status* status) {
    return checked_call(comm, [&]() -> int {
        const char* call = "MPI_Sendrecv_replace";
        Rank& self = calling_rank(call, at);
        TypedBuffer user = typed_buffer(self, buf, count, type, call, at);
        std::size_t span = count > 0 ? user.layout.span(count) : 0;
        std::vector<char> copy(span);
        if (span) std::memcpy(copy.data(), static_cast<char*>(buf) + user.layout.true_lb, span);
        const void* sendbuf = copy.data() - user.layout.true_lb;
        Request send, receive;
        bool send_pending = start_send_call(self, call, at, sendbuf, count, type, dest, sendtag, comm, send,
                                            SendMode::standard);
        start_receive_call(self, call, at, buf, count, type, source, recvtag, comm, receive);
        if (send_pending) self.wait_for(send, call, at);
        self.wait_for(receive, call, at);
        set_request_status(status, receive);
        return receive_outcome(self, receive, call, at);
    });
}

int bamboo_probe(bamboo_site at, int source, int tag, MPI_Comm comm, MPI_Status* status) {
    return checked_call(comm, [&]() -> int {
        Rank& self = calling_rank("MPI_Probe", at);
        Pattern pattern = receive_pattern(self, resolve_comm(self, comm, "MPI_Probe", at), source, tag,
                                          "MPI_Probe", at);
        if (source == MPI_PROC_NULL) {
            set_status(status, MPI_PROC_NULL, MPI_ANY_TAG, 0);
            return MPI_SUCCESS;
        }
        self.wait_for_message(pattern, "MPI_Probe", at);
        Envelope envelope;
        std::size_t bytes;
        {
            std::lock_guard<SpinLock> lock(self.mailbox().mutex());
            const Message* message = self.mailbox().find_unexpected(pattern);
            envelope = message->envelope;
            bytes = message->bytes;
        }
        set_status(status, envelope.source, envelope.tag, bytes);
        return MPI_SUCCESS;
    });
}

int bamboo_iprobe(bamboo_site at, int source, int tag, MPI_Comm comm, int* flag,
                  MPI_Status* status) {
    return checked_call(comm, [&]() -> int {
        Rank& self = calling_rank("MPI_Iprobe", at);
        Pattern pattern = receive_pattern(self, resolve_comm(self, comm, "MPI_Iprobe", at), source,
                                          tag, "MPI_Iprobe", at);
        if (source == MPI_PROC_NULL) {
            *flag = 1;
            set_status(status, MPI_PROC_NULL, MPI_ANY_TAG, 0);
            return MPI_SUCCESS;
        }
        Mailbox& mailbox = self.mailbox();
        bool found = false;
        Envelope envelope{};
        std::size_t bytes = 0;
        {
            std::lock_guard<SpinLock> lock(mailbox.mutex());
            if (const Message* message = mailbox.find_unexpected(pattern)) {
                found = true;
                envelope = message->envelope;
                bytes = message->bytes;
            }
        }
        *flag = found;
        if (found) set_status(status, envelope.source, envelope.tag, bytes);
        else poll_again_later(self);
        return MPI_SUCCESS;
    });
}

// Matched probes: the message leaves the mailbox with the probe, into a handle of the task's,
// so that only the MPI_Mrecv or MPI_Imrecv given that handle receives it.
int bamboo_mprobe(bamboo_site at, int source, int tag, MPI_Comm comm, MPI_Message* message, MPI_Status* status) {
    return checked_call(comm, [&]() -> int {
        const char* call = "MPI_Mprobe";
        Rank& self = calling_rank(call, at);
        check_not_null(self, message, "the message pointer", call, at);
        CommView view = resolve_comm(self, comm, call, at);
        Pattern pattern = receive_pattern(self, view, source, tag, call, at);
        if (source != MPI_PROC_NULL) self.wait_for_message(pattern, call, at);
        take_matched(self, view, pattern, comm, message, status);
        return MPI_SUCCESS;
    });
}

int bamboo_improbe(bamboo_site at, int source, int tag, MPI_Comm comm, int* flag, MPI_Message* message,
                   MPI_Status* status) {
    return checked_call(comm, [&]() -> int {
        const char* call = "MPI_Improbe";
        Rank& self = calling_rank(call, at);
        check_not_null(self, message, "the message pointer", call, at);
        CommView view = resolve_comm(self, comm, call, at);
        *flag = take_matched(self, view, receive_pattern(self, view, source, tag, call, at), comm, message, status);
        if (!*flag) poll_again_later(self);
        return MPI_SUCCESS;
    });
}

int bamboo_mrecv(bamboo_site at, void* buf, int count, MPI_Datatype type, MPI_Message* message,
                 MPI_Status* status) {
    return checked_call(MPI_COMM_WORLD, [&]() -> int {
        const char* call = "MPI_Mrecv";
        Rank& self = calling_rank(call, at);
        Request request;
        if (!start_matched_receive(self, buf, count, type, message, request, false, call, at)) {
            set_status(status, MPI_PROC_NULL, MPI_ANY_TAG, 0);
            return MPI_SUCCESS;
        }
        self.wait_for(request, call, at);
        set_request_status(status, request);
        return receive_outcome(self, request, call, at);
    });
}

int bamboo_imrecv(bamboo_site at, void* buf, int count, MPI_Datatype type, MPI_Message* message,
                  MPI_Request* request) {
    return checked_call(MPI_COMM_WORLD, [&]() -> int {
        const char* call = "MPI_Imrecv";
        Rank& self = calling_rank(call, at);
        Request* r = new_request(self, request, call, at);
        try {
            if (!start_matched_receive(self, buf, count, type, message, *r, true, call, at))  // MPI_MESSAGE_NO_PROC
                start_receive(self, *resolve_comm(self, MPI_COMM_WORLD, call, at).comm,
                              Pattern{MPI_PROC_NULL, kAny, 0}, typed_buffer(self, buf, 0, type, call, at), *r, call, at);
        } catch (const CallError&) {
            self.requests().release(request);
            throw;
        }
        return MPI_SUCCESS;
    });
}

int bamboo_get_count(const MPI_Status* status, MPI_Datatype type, int* count) {
    return checked_call(MPI_COMM_WORLD, [&]() -> int {
        if (status == MPI_STATUS_IGNORE) {
            Rank* self = Rank::current();
            call_error(MPI_ERR_ARG, self ? self->vrank() : -1, "MPI_Get_count", kNoSite, "the status is MPI_STATUS_IGNORE");
        }
        MpiGuard guard;
        return MPI_Get_count(status, type, count);
    });
}

}  // extern "C"
