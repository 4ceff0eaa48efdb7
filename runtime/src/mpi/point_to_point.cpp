// Point-to-point MPI over virtual ranks, and the calls that start and end a task's MPI.
#include <mpi.h>

#include <cstdlib>
#include <mutex>
#include <vector>

#include "bamboo.h"
#include "messaging/datatype.hpp"
#include "messaging/delivery.hpp"
#include "messaging/routes.hpp"
#include "messaging/rank.hpp"
#include "messaging/send_receive.hpp"
#include "mpi/api.hpp"
#include "util/errors.hpp"
#include "util/mpi_guard.hpp"

namespace bamboo {
namespace {

void set_empty_status(MPI_Status* status) { set_status(status, MPI_ANY_SOURCE, MPI_ANY_TAG, 0); }

void set_request_status(MPI_Status* status, const Request& r) {
    if (r.kind == Request::Kind::send) set_empty_status(status);
    else set_status(status, r.source, r.tag, r.bytes);
}

MPI_Status* status_at(MPI_Status statuses[], int i) {
    return statuses == MPI_STATUSES_IGNORE ? MPI_STATUS_IGNORE : &statuses[i];
}

// Checks an MPI call's send arguments, then starts the send (messaging/send_receive.hpp).
// Returns true if `request` has yet to complete: until then the user's buffer must stay
// untouched.
bool start_send_call(Rank& self, const char* call, bamboo_site at, const void* buf, int count,
                     MPI_Datatype type, int dest, int tag, MPI_Comm comm, Request& request,
                     bool nonblocking = false) {
    CommView view = resolve_comm(self, comm, call, at);
    TypedBuffer data = typed_buffer(self, buf, count, type, call, at);
    check_destination(self, view, dest, call, at);
    if (tag < 0) call_error(MPI_ERR_TAG, self.vrank(), call, at, "the tag %d is negative", tag);
    return start_send(self, MessageKind::point_to_point, nonblocking, view, dest, tag, data, request, call, at);
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
    if (nonblocking) {
        request.held_type = hold_datatype(type, target.layout);
        if (request.held_type != MPI_DATATYPE_NULL) target.type = request.held_type;
    }
    start_receive(self, *view.comm, pattern, target, request, call, at);
}

// The live request `handle` names; nullptr for MPI_REQUEST_NULL.
Request* find_request(Rank& self, MPI_Request handle, const char* call, bamboo_site at) {
    if (handle == MPI_REQUEST_NULL) return nullptr;
    Request* request = self.requests().find(handle);
    if (!request)
        call_error(MPI_ERR_REQUEST, self.vrank(), call, at,
                   "invalid request (not made by MPI_Isend or MPI_Irecv of this task, or already completed)");
    return request;
}

std::vector<Request*> find_requests(Rank& self, int count, MPI_Request handles[],
                                    const char* call, bamboo_site at) {
    if (count < 0) call_error(MPI_ERR_COUNT, self.vrank(), call, at, "the count %d is negative", count);
    if (count > 0 && !handles) call_error(MPI_ERR_ARG, self.vrank(), call, at, "the request array is NULL");
    std::vector<Request*> found(count);
    for (int i = 0; i < count; ++i) found[i] = find_request(self, handles[i], call, at);
    return found;
}

// Reports a completed request's status, frees it and nulls the user's handle.
void retire(Rank& self, MPI_Request* handle, const Request& request, MPI_Status* status) {
    set_request_status(status, request);
    if (request.lent) forget_lent(self, request);
    if (request.held_type != MPI_DATATYPE_NULL) release_datatype(request.held_type);
    self.requests().release(handle);
}

// A poll that found nothing: the other tasks of this worker run first (a polling loop must
// not starve them), and sends lent long enough are bought back, for a loop that polls
// until they complete would wait for ever if their receivers wait for it.
void poll_again_later(Rank& self) {
    buy_back_lent_sends(self.routes(), self.worker(), /*all=*/false);
    self.yield();
}

}  // namespace
}  // namespace bamboo

using namespace bamboo;

extern "C" {

int bamboo_init(int*, char***) {
    Rank* self = Rank::current();
    if (!self) fatal("MPI_Init called outside a task");
    if (self->initialized) task_error(self->vrank(), "MPI_Init", kNoSite, "MPI is already initialized");
    self->initialized = true;
    return MPI_SUCCESS;
}

int bamboo_init_thread(int* argc, char*** argv, int required, int* provided) {
    bamboo_init(argc, argv);
    // A task's MPI calls must come from the task itself, not from threads it starts.
    if (provided) *provided = required < MPI_THREAD_FUNNELED ? required : MPI_THREAD_FUNNELED;
    return MPI_SUCCESS;
}

int bamboo_initialized(int* flag) {
    Rank* self = Rank::current();
    *flag = self && self->initialized;
    return MPI_SUCCESS;
}

int bamboo_finalize(void) {
    Rank& self = calling_rank("MPI_Finalize", kNoSite);
    self.finalized = true;
    return MPI_SUCCESS;
}

int bamboo_finalized(int* flag) {
    Rank* self = Rank::current();
    *flag = self && self->finalized;
    return MPI_SUCCESS;
}

long bamboo_random(void) {
    Rank* self = Rank::current();
    return self ? self->random.next() : random();
}

void bamboo_srandom(unsigned seed) {
    if (Rank* self = Rank::current()) self->random.seed(seed);
    else srandom(seed);
}

int bamboo_rand(void) { return static_cast<int>(bamboo_random()); }

void bamboo_srand(unsigned seed) { bamboo_srandom(seed); }

void bamboo_exit(int status) {
    Rank* self = Rank::current();
    if (!self) std::exit(status);  // outside tasks (an atexit handler, say) it is the process's
    self->exit(status);
}

int bamboo_abort(MPI_Comm, int errorcode) {
    Rank* self = Rank::current();
    warn("task vrank %d called MPI_Abort with error code %d", self ? self->vrank() : -1, errorcode);
    abort_job(errorcode);
}

double bamboo_wtime(void) {
    MpiGuard guard;
    return MPI_Wtime();
}

int bamboo_send(bamboo_site at, const void* buf, int count, MPI_Datatype type, int dest, int tag,
                MPI_Comm comm) {
    return checked_call(comm, [&] {
        Rank& self = calling_rank("MPI_Send", at);
        Request request;
        if (start_send_call(self, "MPI_Send", at, buf, count, type, dest, tag, comm, request))
            self.wait_for(request, "MPI_Send", at);
        return MPI_SUCCESS;
    });
}

int bamboo_isend(bamboo_site at, const void* buf, int count, MPI_Datatype type, int dest,
                 int tag, MPI_Comm comm, MPI_Request* request) {
    return checked_call(comm, [&] {
        Rank& self = calling_rank("MPI_Isend", at);
        check_not_null(self, request, "the request pointer", "MPI_Isend", at);
        Request* r = self.requests().allocate(request);
        try {
            if (!start_send_call(self, "MPI_Isend", at, buf, count, type, dest, tag, comm, *r, /*nonblocking=*/true))
                r->complete.store(true);
        } catch (const CallError&) {
            self.requests().release(request);  // nothing started: no request to wait for
            throw;
        }
        return MPI_SUCCESS;
    });
}

int bamboo_recv(bamboo_site at, void* buf, int count, MPI_Datatype type, int source, int tag,
                MPI_Comm comm, MPI_Status* status) {
    return checked_call(comm, [&] {
        Rank& self = calling_rank("MPI_Recv", at);
        Request request;
        start_receive_call(self, "MPI_Recv", at, buf, count, type, source, tag, comm, request);
        self.wait_for(request, "MPI_Recv", at);
        set_request_status(status, request);
        return MPI_SUCCESS;
    });
}

int bamboo_irecv(bamboo_site at, void* buf, int count, MPI_Datatype type, int source, int tag,
                 MPI_Comm comm, MPI_Request* request) {
    return checked_call(comm, [&] {
        Rank& self = calling_rank("MPI_Irecv", at);
        check_not_null(self, request, "the request pointer", "MPI_Irecv", at);
        Request* r = self.requests().allocate(request);
        try {
            start_receive_call(self, "MPI_Irecv", at, buf, count, type, source, tag, comm, *r, true);
        } catch (const CallError&) {
            self.requests().release(request);  // nothing started: no request to wait for
            throw;
        }
        return MPI_SUCCESS;
    });
}

int bamboo_sendrecv(bamboo_site at, const void* sendbuf, int sendcount, MPI_Datatype sendtype,
                    int dest, int sendtag, void* recvbuf, int recvcount, MPI_Datatype recvtype,
                    int source, int recvtag, MPI_Comm comm, MPI_Status* status) {
    return checked_call(comm, [&] {
        Rank& self = calling_rank("MPI_Sendrecv", at);
        Request send, receive;
        bool send_pending = start_send_call(self, "MPI_Sendrecv", at, sendbuf, sendcount, sendtype, dest,
                                            sendtag, comm, send);
        start_receive_call(self, "MPI_Sendrecv", at, recvbuf, recvcount, recvtype, source, recvtag, comm,
                           receive);
        if (send_pending) self.wait_for(send, "MPI_Sendrecv", at);
        self.wait_for(receive, "MPI_Sendrecv", at);
        set_request_status(status, receive);
        return MPI_SUCCESS;
    });
}

int bamboo_wait(bamboo_site at, MPI_Request* request, MPI_Status* status) {
    return checked_call(MPI_COMM_WORLD, [&] {
        Rank& self = calling_rank("MPI_Wait", at);
        check_not_null(self, request, "the request pointer", "MPI_Wait", at);
        Request* r = find_request(self, *request, "MPI_Wait", at);
        if (!r) {
            set_empty_status(status);
            return MPI_SUCCESS;
        }
        self.wait_for(*r, "MPI_Wait", at);
        retire(self, request, *r, status);
        return MPI_SUCCESS;
    });
}

int bamboo_waitall(bamboo_site at, int count, MPI_Request requests[], MPI_Status statuses[]) {
    return checked_call(MPI_COMM_WORLD, [&] {
        Rank& self = calling_rank("MPI_Waitall", at);
        std::vector<Request*> found = find_requests(self, count, requests, "MPI_Waitall", at);
        WaitInfo info;
        info.call = "MPI_Waitall";
        info.site = at;
        info.handles = requests;
        info.handle_count = count;
        self.wait_until(info, [&found] {
            for (const Request* r : found)
                if (r && !r->complete.load()) return false;
            return true;
        });
        for (int i = 0; i < count; ++i) {
            if (found[i]) retire(self, &requests[i], *found[i], status_at(statuses, i));
            else set_empty_status(status_at(statuses, i));
        }
        return MPI_SUCCESS;
    });
}

int bamboo_waitany(bamboo_site at, int count, MPI_Request requests[], int* index,
                   MPI_Status* status) {
    return checked_call(MPI_COMM_WORLD, [&] {
        Rank& self = calling_rank("MPI_Waitany", at);
        std::vector<Request*> found = find_requests(self, count, requests, "MPI_Waitany", at);
        int completed = MPI_UNDEFINED;
        bool any_active = false;
        for (const Request* r : found) any_active = any_active || r;
        if (!any_active) {
            *index = MPI_UNDEFINED;
            set_empty_status(status);
            return MPI_SUCCESS;
        }
        WaitInfo info;
        info.call = "MPI_Waitany";
        info.site = at;
        info.handles = requests;
        info.handle_count = count;
        self.wait_until(info, [&] {
            for (int i = 0; i < count; ++i) {
                if (found[i] && found[i]->complete.load()) {
                    completed = i;
                    return true;
                }
            }
            return false;
        });
        *index = completed;
        retire(self, &requests[completed], *found[completed], status);
        return MPI_SUCCESS;
    });
}

int bamboo_test(bamboo_site at, MPI_Request* request, int* flag, MPI_Status* status) {
    return checked_call(MPI_COMM_WORLD, [&] {
        Rank& self = calling_rank("MPI_Test", at);
        check_not_null(self, request, "the request pointer", "MPI_Test", at);
        Request* r = find_request(self, *request, "MPI_Test", at);
        if (!r) {
            *flag = 1;
            set_empty_status(status);
            return MPI_SUCCESS;
        }
        if (r->complete.load()) {
            *flag = 1;
            retire(self, request, *r, status);
            return MPI_SUCCESS;
        }
        *flag = 0;
        poll_again_later(self);
        return MPI_SUCCESS;
    });
}

int bamboo_testall(bamboo_site at, int count, MPI_Request requests[], int* flag,
                   MPI_Status statuses[]) {
    return checked_call(MPI_COMM_WORLD, [&] {
        Rank& self = calling_rank("MPI_Testall", at);
        std::vector<Request*> found = find_requests(self, count, requests, "MPI_Testall", at);
        for (const Request* r : found) {
            if (r && !r->complete.load()) {
                *flag = 0;
                poll_again_later(self);
                return MPI_SUCCESS;
            }
        }
        *flag = 1;
        for (int i = 0; i < count; ++i) {
            if (found[i]) retire(self, &requests[i], *found[i], status_at(statuses, i));
            else set_empty_status(status_at(statuses, i));
        }
        return MPI_SUCCESS;
    });
}

int bamboo_probe(bamboo_site at, int source, int tag, MPI_Comm comm, MPI_Status* status) {
    return checked_call(comm, [&] {
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
    return checked_call(comm, [&] {
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

int bamboo_get_count(const MPI_Status* status, MPI_Datatype type, int* count) {
    return checked_call(MPI_COMM_WORLD, [&] {
        if (status == MPI_STATUS_IGNORE) {
            Rank* self = Rank::current();
            call_error(MPI_ERR_ARG, self ? self->vrank() : -1, "MPI_Get_count", kNoSite, "the status is MPI_STATUS_IGNORE");
        }
        MpiGuard guard;
        return MPI_Get_count(status, type, count);
    });
}

void bamboo_expect(int source, int tag, MPI_Comm comm) {
    Rank& self = calling_rank("bamboo_expect", kNoSite);
    if (source == MPI_PROC_NULL) return;
    try {
        expect_message(self, receive_pattern(self, resolve_comm(self, comm, "bamboo_expect", kNoSite),
                                             source, tag, "bamboo_expect", kNoSite));
    } catch (const CallError&) {
        // Expects nothing: the receive reports the arguments, under its communicator's handler.
    }
}

void bamboo_fire(bamboo_site at) {
    Rank& self = calling_rank("the firing rule", at);
    Mailbox& mailbox = self.mailbox();
    bool satisfied = true;
    if (!self.pending_rule.empty()) {
        {
            std::lock_guard<SpinLock> lock(mailbox.mutex());
            satisfied = mailbox.arm_rule(self.pending_rule);
        }
        self.pending_rule.clear();  // keeps its capacity for the next evaluation point
    }
    if (!satisfied) {
        WaitInfo info;
        info.site = at;
        self.wait_until(info, [&mailbox] { return mailbox.rule_satisfied(); });
    } else if (self.priority() == -1) {
        self.yield();  // priority -1: give way at every evaluation point
    }
}

void bamboo_set_priority(int priority) {
    Rank* self = Rank::current();
    if (!self) fatal("#pragma bamboo priority reached outside a task");
    self->set_priority(priority);
}

}  // extern "C"
