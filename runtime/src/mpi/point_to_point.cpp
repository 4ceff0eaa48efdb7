// Point-to-point MPI over virtual ranks, and the calls that start and end a task's MPI.
#include <mpi.h>

#include <cstdlib>
#include <cstring>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "bamboo.h"
#include "core/worker.hpp"
#include "messaging/datatype.hpp"
#include "messaging/delivery.hpp"
#include "messaging/routes.hpp"
#include "messaging/rank.hpp"
#include "messaging/send_receive.hpp"
#include "mpi/api.hpp"
#include "mpi/attributes.hpp"
#include "util/errors.hpp"
#include "util/mpi_guard.hpp"
#include "util/simulation.hpp"

namespace bamboo {
namespace {

void set_empty_status(MPI_Status* status) { set_status(status, MPI_ANY_SOURCE, MPI_ANY_TAG, 0); }

void set_request_status(MPI_Status* status, const Request& r) {
    if (r.cancelled) {
        set_status(status, r.source, r.tag, 0);
        if (status == MPI_STATUS_IGNORE) return;
        MpiGuard guard;
        MPI_Status_set_cancelled(status, 1);
    } else if (r.kind != Request::Kind::receive && r.kind != Request::Kind::file) {
        set_empty_status(status);
    } else {
        set_status(status, r.source, r.tag, r.bytes);
    }
}

// A generalized request's status, as the program's query function tells it (MPI calls the
// function also when the caller ignores the status); returns the function's code.
int query_generalized(const Request& r, MPI_Status* status) {
    MPI_Status ignored;
    return r.generalized->query(r.generalized->extra_state, status == MPI_STATUS_IGNORE ? &ignored : status);
}

MPI_Status* status_at(MPI_Status statuses[], int i) {
    return statuses == MPI_STATUSES_IGNORE ? MPI_STATUS_IGNORE : &statuses[i];
}

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

// The live request `handle` names; nullptr for MPI_REQUEST_NULL.
Request* find_request(Rank& self, MPI_Request handle, const char* call, bamboo_site at) {
    if (handle == MPI_REQUEST_NULL) return nullptr;
    Request* request = self.requests().find(handle);
    if (!request)
        call_error(MPI_ERR_REQUEST, self.vrank(), call, at,
                   "invalid request (not made by a nonblocking or persistent call of this task, or already freed)");
    return request;
}

// The same, but nullptr also for an inactive persistent request, which waits and tests treat
// as a null request.
Request* find_active_request(Rank& self, MPI_Request handle, const char* call, bamboo_site at) {
    Request* request = find_request(self, handle, call, at);
    return request && request->active ? request : nullptr;
}

std::vector<Request*> find_requests(Rank& self, int count, MPI_Request handles[],
                                    const char* call, bamboo_site at) {
    if (count < 0) call_error(MPI_ERR_COUNT, self.vrank(), call, at, "the count %d is negative", count);
    if (count > 0 && !handles) call_error(MPI_ERR_ARG, self.vrank(), call, at, "the request array is NULL");
    std::vector<Request*> found(count);
    for (int i = 0; i < count; ++i) found[i] = find_active_request(self, handles[i], call, at);
    return found;
}

bool any_active(const std::vector<Request*>& requests) {
    for (const Request* r : requests)
        if (r) return true;
    return false;
}

// What a completed operation still holds: a lent buffer, a datatype.
void end_operation(Rank& self, Request& request) {
    if (request.lent) forget_lent(self, request);
    request.lent = false;
    if (request.held_type != MPI_DATATYPE_NULL) release_datatype(request.held_type);
    request.held_type = MPI_DATATYPE_NULL;
}

// Frees a request whose operation is over (or never started) and nulls the user's handle.
// Returns the code of a generalized request's free function.
int free_request(Rank& self, MPI_Request* handle, Request& request) {
    end_operation(self, request);
    if (request.persistent && request.persistent->held_type != MPI_DATATYPE_NULL)
        release_datatype(request.persistent->held_type);
    int code = MPI_SUCCESS;
    if (request.generalized) code = request.generalized->free(request.generalized->extra_state);
    self.requests().release(handle);
    return code;
}

// Reports a completed request's status and frees it, except a persistent request, which
// becomes inactive and keeps its handle for the next MPI_Start. Returns the code of a
// generalized request's query function, else of its free function.
int retire(Rank& self, MPI_Request* handle, Request& request, MPI_Status* status) {
    if (request.generalized) {
        int queried = query_generalized(request, status);
        int freed = free_request(self, handle, request);
        return queried != MPI_SUCCESS ? queried : freed;
    }
    set_request_status(status, request);
    if (!request.persistent) return free_request(self, handle, request);
    end_operation(self, request);
    request.active = false;
    return MPI_SUCCESS;
}

// What a completed receive `r` whose message was truncated makes `call` return: `code`, with a
// report that names the receive's own call when another call completes it (MPI_Wait of an
// MPI_Irecv).
CallError truncation_error(const Rank& self, const Request& r, int code, const char* call, bamboo_site at) {
    std::string message = describe_truncation(r);
    if (std::strcmp(r.call, call) != 0) {
        message += std::string(" of the ") + r.call;
        if (r.site.file) message += std::string(" at ") + r.site.file + ":" + std::to_string(r.site.line);
    }
    return CallError{code, self.vrank(), call, at, message};
}

// What MPI_Recv and MPI_Sendrecv return once their receive `r` is complete: MPI_SUCCESS, or
// for a truncated message MPI_ERR_TRUNCATE, through the error handler of its communicator.
int receive_outcome(const Rank& self, const Request& r, const char* call, bamboo_site at) {
    if (!r.truncated()) return MPI_SUCCESS;
    return raise_error(truncation_error(self, r, MPI_ERR_TRUNCATE, call, at), r.errors_to);
}

// MPI_Wait, MPI_Test, MPI_Waitany and MPI_Testany: retire(), then a truncated receive's
// MPI_ERR_TRUNCATE for the error handler of its communicator.
int retire_one(Rank& self, MPI_Request* handle, Request& request, MPI_Status* status, const char* call,
               bamboo_site at) {
    if (!request.truncated()) return retire(self, handle, request, status);
    CallError error = truncation_error(self, request, MPI_ERR_TRUNCATE, call, at);
    MPI_Comm comm = request.errors_to;
    retire(self, handle, request, status);
    return raise_error(error, comm);
}

// What MPI_Waitall, MPI_Testall, MPI_Waitsome and MPI_Testsome return: MPI_ERR_IN_STATUS when a
// request failed, its code in its status (MPI_SUCCESS in the others'). A generalized request's
// failed callback is returned without the error handler; a truncated receive
// (MPI_ERR_TRUNCATE) goes to the error handler of its communicator, the first one's if several.
class Completions {
public:
    Completions(Rank& self, const char* call, bamboo_site at) : self_(self), call_(call), at_(at) {}

    void retire(MPI_Request* handle, Request& request, MPI_Status* status) {
        int code;
        if (request.truncated()) {
            if (!truncation_) {
                truncation_ = truncation_error(self_, request, MPI_ERR_IN_STATUS, call_, at_);
                errors_to_ = request.errors_to;
            }
            bamboo::retire(self_, handle, request, status);
            code = MPI_ERR_TRUNCATE;
        } else {
            code = bamboo::retire(self_, handle, request, status);
        }
        if (code == MPI_SUCCESS) return;
        if (status != MPI_STATUS_IGNORE) status->MPI_ERROR = code;
        result_ = MPI_ERR_IN_STATUS;
    }

    int result() const { return truncation_ ? raise_error(*truncation_, errors_to_) : result_; }

private:
    Rank& self_;
    const char* call_;
    bamboo_site at_;
    int result_ = MPI_SUCCESS;
    std::optional<CallError> truncation_;
    MPI_Comm errors_to_ = MPI_COMM_NULL;
};

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

// MPI_Waitsome and MPI_Testsome: retires the completed requests among `found` (the
// program's `handles`), telling their places in `indices`; returns how many.
int retire_completed(Completions& completions, const std::vector<Request*>& found, MPI_Request handles[],
                     int indices[], MPI_Status statuses[]) {
    int done = 0;
    for (std::size_t i = 0; i < found.size(); ++i) {
        if (!found[i] || !found[i]->complete.load()) continue;
        indices[done] = static_cast<int>(i);
        completions.retire(&handles[i], *found[i], status_at(statuses, done));
        ++done;
    }
    return done;
}

int blocking_send(const char* call, SendMode mode, bamboo_site at, const void* buf, int count, MPI_Datatype type,
                  int dest, int tag, MPI_Comm comm) {
    Rank& self = calling_rank(call, at);
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

// A poll that found nothing: the other tasks of this worker run first (a polling loop must
// not starve them), and sends lent long enough are bought back, for a loop that polls
// until they complete would wait for ever if their receivers wait for it.
void poll_again_later(Rank& self) {
    buy_back_lent_sends(self.routes(), self.worker(), /*all=*/false);
    self.worker().polled_in_vain();
    self.yield();
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
    Rank::current()->thread_level = required < MPI_THREAD_FUNNELED ? required : MPI_THREAD_FUNNELED;
    if (provided) *provided = Rank::current()->thread_level;
    return MPI_SUCCESS;
}

int bamboo_query_thread(int* provided) {
    return checked_call(MPI_COMM_WORLD, [&]() -> int {
        Rank& self = calling_rank("MPI_Query_thread", kNoSite);
        check_not_null(self, provided, "the level pointer", "MPI_Query_thread", kNoSite);
        *provided = self.thread_level;
        return MPI_SUCCESS;
    });
}

int bamboo_is_thread_main(int* flag) {
    return checked_call(MPI_COMM_WORLD, [&]() -> int {
        Rank& self = calling_rank("MPI_Is_thread_main", kNoSite);
        check_not_null(self, flag, "the flag pointer", "MPI_Is_thread_main", kNoSite);
        *flag = 1;  // MPI calls come from the task itself (MPI_THREAD_FUNNELED at most)
        return MPI_SUCCESS;
    });
}

int bamboo_initialized(int* flag) {
    Rank* self = Rank::current();
    *flag = self && self->initialized;
    return MPI_SUCCESS;
}

int bamboo_finalize(void) {
    Rank& self = calling_rank("MPI_Finalize", kNoSite);
    // MPI deletes MPI_COMM_SELF's attributes first, as if the communicator were freed.
    int code = checked_call(MPI_COMM_SELF, [&]() -> int {
        delete_attributes(self, MPI_COMM_SELF, self.self_local, "MPI_Finalize", kNoSite);
        return MPI_SUCCESS;
    });
    self.finalized = true;
    return code;
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
    settle_charges();
    MpiGuard guard;
    return MPI_Wtime();
}

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

int bamboo_wait(bamboo_site at, MPI_Request* request, MPI_Status* status) {
    return checked_call(MPI_COMM_WORLD, [&]() -> int {
        Rank& self = calling_rank("MPI_Wait", at);
        check_not_null(self, request, "the request pointer", "MPI_Wait", at);
        Request* r = find_active_request(self, *request, "MPI_Wait", at);
        if (!r) {
            set_empty_status(status);
            return MPI_SUCCESS;
        }
        self.wait_for(*r, "MPI_Wait", at);
        return retire_one(self, request, *r, status, "MPI_Wait", at);
    });
}

int bamboo_waitall(bamboo_site at, int count, MPI_Request requests[], MPI_Status statuses[]) {
    return checked_call(MPI_COMM_WORLD, [&]() -> int {
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
        Completions completions(self, "MPI_Waitall", at);
        for (int i = 0; i < count; ++i) {
            if (found[i]) completions.retire(&requests[i], *found[i], status_at(statuses, i));
            else set_empty_status(status_at(statuses, i));
        }
        return completions.result();
    });
}

int bamboo_waitany(bamboo_site at, int count, MPI_Request requests[], int* index,
                   MPI_Status* status) {
    return checked_call(MPI_COMM_WORLD, [&]() -> int {
        Rank& self = calling_rank("MPI_Waitany", at);
        std::vector<Request*> found = find_requests(self, count, requests, "MPI_Waitany", at);
        int completed = MPI_UNDEFINED;
        if (!any_active(found)) {
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
        return retire_one(self, &requests[completed], *found[completed], status, "MPI_Waitany", at);
    });
}

int bamboo_test(bamboo_site at, MPI_Request* request, int* flag, MPI_Status* status) {
    return checked_call(MPI_COMM_WORLD, [&]() -> int {
        Rank& self = calling_rank("MPI_Test", at);
        check_not_null(self, request, "the request pointer", "MPI_Test", at);
        Request* r = find_active_request(self, *request, "MPI_Test", at);
        if (!r) {
            *flag = 1;
            set_empty_status(status);
            return MPI_SUCCESS;
        }
        if (r->complete.load()) {
            *flag = 1;
            return retire_one(self, request, *r, status, "MPI_Test", at);
        }
        *flag = 0;
        poll_again_later(self);
        return MPI_SUCCESS;
    });
}

int bamboo_testall(bamboo_site at, int count, MPI_Request requests[], int* flag,
                   MPI_Status statuses[]) {
    return checked_call(MPI_COMM_WORLD, [&]() -> int {
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
        Completions completions(self, "MPI_Testall", at);
        for (int i = 0; i < count; ++i) {
            if (found[i]) completions.retire(&requests[i], *found[i], status_at(statuses, i));
            else set_empty_status(status_at(statuses, i));
        }
        return completions.result();
    });
}

int bamboo_testany(bamboo_site at, int count, MPI_Request requests[], int* index, int* flag,
                   MPI_Status* status) {
    return checked_call(MPI_COMM_WORLD, [&]() -> int {
        Rank& self = calling_rank("MPI_Testany", at);
        std::vector<Request*> found = find_requests(self, count, requests, "MPI_Testany", at);
        *index = MPI_UNDEFINED;
        if (!any_active(found)) {
            *flag = 1;
            set_empty_status(status);
            return MPI_SUCCESS;
        }
        for (int i = 0; i < count; ++i) {
            if (found[i] && found[i]->complete.load()) {
                *flag = 1;
                *index = i;
                return retire_one(self, &requests[i], *found[i], status, "MPI_Testany", at);
            }
        }
        *flag = 0;
        poll_again_later(self);
        return MPI_SUCCESS;
    });
}

int bamboo_waitsome(bamboo_site at, int incount, MPI_Request requests[], int* outcount, int indices[],
                    MPI_Status statuses[]) {
    return checked_call(MPI_COMM_WORLD, [&]() -> int {
        Rank& self = calling_rank("MPI_Waitsome", at);
        std::vector<Request*> found = find_requests(self, incount, requests, "MPI_Waitsome", at);
        if (!any_active(found)) {
            *outcount = MPI_UNDEFINED;
            return MPI_SUCCESS;
        }
        WaitInfo info;
        info.call = "MPI_Waitsome";
        info.site = at;
        info.handles = requests;
        info.handle_count = incount;
        self.wait_until(info, [&found] {
            for (const Request* r : found)
                if (r && r->complete.load()) return true;
            return false;
        });
        Completions completions(self, "MPI_Waitsome", at);
        *outcount = retire_completed(completions, found, requests, indices, statuses);
        return completions.result();
    });
}

int bamboo_testsome(bamboo_site at, int incount, MPI_Request requests[], int* outcount, int indices[],
                    MPI_Status statuses[]) {
    return checked_call(MPI_COMM_WORLD, [&]() -> int {
        Rank& self = calling_rank("MPI_Testsome", at);
        std::vector<Request*> found = find_requests(self, incount, requests, "MPI_Testsome", at);
        if (!any_active(found)) {
            *outcount = MPI_UNDEFINED;
            return MPI_SUCCESS;
        }
        Completions completions(self, "MPI_Testsome", at);
        *outcount = retire_completed(completions, found, requests, indices, statuses);
        if (*outcount == 0) poll_again_later(self);
        return completions.result();
    });
}

int bamboo_request_get_status(bamboo_site at, MPI_Request request, int* flag, MPI_Status* status) {
    return checked_call(MPI_COMM_WORLD, [&]() -> int {
        Rank& self = calling_rank("MPI_Request_get_status", at);
        Request* r = find_active_request(self, request, "MPI_Request_get_status", at);
        if (!r) {
            *flag = 1;
            set_empty_status(status);
        } else if (r->complete.load()) {
            *flag = 1;
            // The request lives on: a wait or test retires it.
            if (r->generalized) return query_generalized(*r, status);
            set_request_status(status, *r);
        } else {
            *flag = 0;
            poll_again_later(self);
        }
        return MPI_SUCCESS;
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
    self.evaluation_point();  // the region runs here, on the worker that runs the task now
}

// No check of MPI_Init here: a send block may run before it, sending nothing.
void bamboo_send_block_begin(void) {
    if (Rank* self = Rank::current()) self->hold_sends();
}

void bamboo_send_block_end(void) {
    if (Rank* self = Rank::current()) self->release_sends();
}

void bamboo_set_priority(int priority) {
    Rank* self = Rank::current();
    if (!self) fatal("#pragma bamboo priority reached outside a task");
    self->set_priority(priority);
}

}  // extern "C"
