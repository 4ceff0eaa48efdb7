#include "mpi/api.hpp"

#include "messaging/routes.hpp"
#include "util/errors.hpp"
#include "util/mpi_guard.hpp"

namespace bamboo {

Rank& calling_rank(const char* call, bamboo_site at) {
    Rank* self = Rank::current();
    // A thread the program started is not a task: nothing could suspend it while it waits, and
    // nothing says which rank it speaks for (docs/mpi-support.md, MPI_Init_thread).
    if (!self)
        fatal("%s called from a thread that is not a task: only the program's main() and what it calls, on the "
              "task's own thread, may use MPI under Bamboo, which provides MPI_THREAD_FUNNELED at most",
              call);
    if (!self->initialized) task_error(self->vrank(), call, at, "called before MPI_Init");
    if (self->finalized) task_error(self->vrank(), call, at, "called after MPI_Finalize");
    // The task's nonblocking collectives go on at each of its MPI calls.
    if (!self->background.empty()) self->background.progress();
    return *self;
}

CommEntry* made_comm(Rank& self, MPI_Comm comm, const char* call, bamboo_site at) {
    if (comm == MPI_COMM_NULL) call_error(MPI_ERR_COMM, self.vrank(), call, at, "the communicator is MPI_COMM_NULL");
    CommEntry* entry = self.comms.find(comm);
    if (!entry)
        call_error(MPI_ERR_COMM, self.vrank(), call, at,
                   "invalid communicator (freed, or not made by this task's MPI calls)");
    return entry;
}

CommLocal* find_comm_local(Rank& self, MPI_Comm comm) {
    if (comm == MPI_COMM_WORLD) return &self.world_local;
    if (comm == MPI_COMM_SELF) return &self.self_local;
    if (comm == MPI_COMM_NULL) return nullptr;
    CommEntry* entry = self.comms.find(comm);
    return entry ? &entry->local : nullptr;
}

CommLocal& comm_local(Rank& self, MPI_Comm comm, const char* call, bamboo_site at) {
    if (CommLocal* local = find_comm_local(self, comm)) return *local;
    return made_comm(self, comm, call, at)->local;  // reports why it is not valid
}

CommView resolve_comm(Rank& self, MPI_Comm comm, const char* call, bamboo_site at) {
    if (comm == MPI_COMM_WORLD) return {self.routes().world.get(), self.vrank()};
    if (comm == MPI_COMM_SELF) return {self.self_comm.get(), 0};
    CommEntry* entry = made_comm(self, comm, call, at);
    return {entry->comm.get(), entry->rank};
}

std::shared_ptr<const Communicator> shared_comm(Rank& self, MPI_Comm comm) {
    if (comm == MPI_COMM_WORLD) return self.routes().world;
    if (comm == MPI_COMM_SELF) return self.self_comm;
    return self.comms.find(comm)->comm;
}

TypedBuffer typed_buffer(const Rank& self, const void* buf, int count, MPI_Datatype type,
                         const char* call, bamboo_site at) {
    if (count < 0) call_error(MPI_ERR_COUNT, self.vrank(), call, at, "the count %d is negative", count);
    TypedBuffer buffer;
    buffer.base = const_cast<void*>(buf);
    buffer.count = count;
    buffer.type = type;
    if (!describe_datatype(type, &buffer.layout))
        call_error(MPI_ERR_TYPE, self.vrank(), call, at, "invalid datatype");
    return buffer;
}

void check_rank(const Rank& self, const CommView& comm, int rank, const char* role, int error_class,
                const char* call, bamboo_site at) {
    if (rank < 0 || rank >= comm.size())
        call_error(error_class, self.vrank(), call, at, "%s rank %d is out of range (0..%d)", role, rank,
                   comm.size() - 1);
}

// A rank that point-to-point calls name: of the remote group on an intercommunicator.
void check_peer(const Rank& self, const CommView& comm, int rank, const char* role, const char* call,
                bamboo_site at) {
    int count = comm.comm->peer_count();
    if (rank < 0 || rank >= count)
        call_error(MPI_ERR_RANK, self.vrank(), call, at, "%s rank %d is out of range (0..%d%s)", role, rank,
                   count - 1, comm.comm->is_inter() ? ", the remote group of an intercommunicator" : "");
}

void check_destination(const Rank& self, const CommView& comm, int dest, const char* call,
                       bamboo_site at) {
    if (dest != MPI_PROC_NULL) check_peer(self, comm, dest, "destination", call, at);
}

void check_source(const Rank& self, const CommView& comm, int source, const char* call,
                  bamboo_site at) {
    if (source != MPI_ANY_SOURCE && source != MPI_PROC_NULL)
        check_peer(self, comm, source, "source", call, at);
}

void check_count(const Rank& self, int count, const char* what, const char* call, bamboo_site at) {
    if (count < 0) call_error(MPI_ERR_COUNT, self.vrank(), call, at, "%s %d is negative", what, count);
}

void check_not_null(const Rank& self, const void* pointer, const char* what, const char* call,
                    bamboo_site at) {
    if (!pointer) call_error(MPI_ERR_ARG, self.vrank(), call, at, "%s is NULL", what);
}

void check_library(const Rank& self, int code, const char* call, bamboo_site at) {
    if (code == MPI_SUCCESS) return;
    char text[MPI_MAX_ERROR_STRING];
    int length = 0;
    {
        MpiGuard guard;
        MPI_Error_string(code, text, &length);
    }
    call_error(code, self.vrank(), call, at, "the MPI library: %s", text);
}

void intra_only(const Rank& self, const CommView& comm, const char* call, bamboo_site at) {
    if (comm.comm->is_inter())
        call_error(MPI_ERR_COMM, self.vrank(), call, at,
                   "%s on an intercommunicator is not supported by the Bamboo runtime yet", call);
}

Pattern receive_pattern(const Rank& self, const CommView& view, int source, int tag,
                        const char* call, bamboo_site at) {
    check_source(self, view, source, call, at);
    if (tag < 0 && tag != MPI_ANY_TAG) call_error(MPI_ERR_TAG, self.vrank(), call, at, "the tag %d is negative", tag);
    return Pattern{source == MPI_ANY_SOURCE ? kAny : source, tag == MPI_ANY_TAG ? kAny : tag,
                   view.context()};
}

void set_status(MPI_Status* status, int source, int tag, std::size_t bytes) {
    if (status == MPI_STATUS_IGNORE) return;
    status->MPI_SOURCE = source;
    status->MPI_TAG = tag;
    status->MPI_ERROR = MPI_SUCCESS;
    // The library's own count and cancelled fields, so that MPI_Get_count can answer for any
    // datatype and MPI_Test_cancelled for any status.
    MpiGuard guard;
    MPI_Status_set_elements_x(status, MPI_BYTE, static_cast<MPI_Count>(bytes));
    MPI_Status_set_cancelled(status, 0);
}

void expect_message(Rank& self, const Pattern& pattern) {
    for (Expectation& x : self.pending_rule) {
        if (x.pattern == pattern) {
            ++x.expected;
            return;
        }
    }
    self.pending_rule.push_back(Expectation{pattern, 1, 0});
}

}  // namespace bamboo
