// What the MPI entry points of the runtime share: finding the calling task, resolving its
// communicators, and checking arguments the way MPI defines them. A failed check is a
// call_error with its MPI error class, naming the task, the call and the call's place in the
// user's source; checked_call hands it to the communicator's error handler.
#pragma once

#include <mpi.h>

#include <memory>
#include <optional>
#include <utility>

#include "bamboo.h"
#include "communicators/communicator.hpp"
#include "messaging/datatype.hpp"
#include "messaging/mailbox.hpp"
#include "messaging/rank.hpp"
#include "util/errors.hpp"
#include "util/mpi_guard.hpp"

namespace bamboo {

constexpr bamboo_site kNoSite{nullptr, 0};

// The rank of the running task, which must be between its MPI_Init and MPI_Finalize (else the
// job ends: MPI defines no error handler then).
Rank& calling_rank(const char* call, bamboo_site at);

// Applies the error handler of `comm` (of MPI_COMM_WORLD when `comm` is not one of the task's,
// or for calls on no communicator) to a failed check: the report and the end of the job, the
// error class returned, or the user's handler called, then the error class returned.
int raise_error(const CallError& error, MPI_Comm comm);
// The same for a file's error handler (of MPI_FILE_NULL when `file` is not one of the task's,
// for MPI_File_open and MPI_File_delete): MPI_ERRORS_RETURN unless the program sets another.
int raise_error(const CallError& error, MPI_File file);
// The same for a window's (MPI_Win_set_errhandler); a handle that names no window of the task
// goes to MPI_COMM_WORLD's. A type of its own: MPICH's window and communicator handles are both ints.
struct WindowHandle {
    MPI_Win win;
};
int raise_error(const CallError& error, WindowHandle window);

// Runs an entry point's `body`, which returns an MPI error code; a check that fails in it goes
// to raise_error with `object`, the communicator or file whose handler applies. The handler
// runs after the catch, not in it: a user's handler may call MPI and wait, and the C++ runtime
// keeps its record of the exceptions being handled per thread, which the thread's other tasks
// share.
template <class Handle, class Body>
int checked_call(Handle object, Body body) {
    std::optional<CallError> failure;
    try {
        return body();
    } catch (CallError& error) {
        failure.emplace(std::move(error));
    }
    return raise_error(*failure, object);
}

// MPI_COMM_WORLD, MPI_COMM_SELF or a communicator the task made; anything else is an error.
CommView resolve_comm(Rank& self, MPI_Comm comm, const char* call, bamboo_site at);
// The same, for a communicator the task made, with its table entry (MPI_Comm_free).
CommEntry* made_comm(Rank& self, MPI_Comm comm, const char* call, bamboo_site at);
// The communicator object of `comm`, for what keeps it (windows, files); resolve_comm has
// checked `comm`.
std::shared_ptr<const Communicator> shared_comm(Rank& self, MPI_Comm comm);
// The task's name, error handler and attributes of `comm`, or nullptr if it is not valid.
CommLocal* find_comm_local(Rank& self, MPI_Comm comm);
// The same, checked.
CommLocal& comm_local(Rank& self, MPI_Comm comm, const char* call, bamboo_site at);

TypedBuffer typed_buffer(const Rank& self, const void* buf, int count, MPI_Datatype type,
                         const char* call, bamboo_site at);

// 0 <= rank < size, else `error_class` (MPI_ERR_RANK, or MPI_ERR_ROOT for a root).
void check_rank(const Rank& self, const CommView& comm, int rank, const char* role, int error_class,
                const char* call, bamboo_site at);
void check_destination(const Rank& self, const CommView& comm, int dest, const char* call,
                       bamboo_site at);  // also MPI_PROC_NULL
void check_source(const Rank& self, const CommView& comm, int source, const char* call,
                  bamboo_site at);       // also MPI_PROC_NULL, MPI_ANY_SOURCE
void check_count(const Rank& self, int count, const char* what, const char* call, bamboo_site at);
// A code the MPI library returned: an error other than MPI_SUCCESS is the call's, with the
// library's message.
void check_library(const Rank& self, int code, const char* call, bamboo_site at);

// Inside an entry point: `call`, the MPI library's own, under the MPI lock; an error it
// returns is the entry point's (check_library).
template <class Call>
void call_library(const Rank& self, const char* name, bamboo_site at, Call call) {
    int code;
    {
        MpiGuard guard;
        code = call();
    }
    check_library(self, code, name, at);
}

// An entry point that is the MPI library's own call on its own objects: the calling task
// (checked), then `call` under the MPI lock; an error the library returns goes to the error
// handler of `comm`.
template <class Call>
int library_call(const char* name, bamboo_site at, Call call, MPI_Comm comm = MPI_COMM_WORLD) {
    return checked_call(comm, [&]() -> int {
        call_library(calling_rank(name, at), name, at, call);
        return MPI_SUCCESS;
    });
}
void check_not_null(const Rank& self, const void* pointer, const char* what, const char* call,
                    bamboo_site at);
// Calls that MPI defines for intercommunicators too, but the runtime only for intracommunicators.
void intra_only(const Rank& self, const CommView& comm, const char* call, bamboo_site at);

// The messages a receive, probe or expectation of `source` and `tag` on `comm` accepts, once
// its arguments are checked. (MPI_PROC_NULL passes the checks; callers handle it.)
Pattern receive_pattern(const Rank& self, const CommView& comm, int source, int tag,
                        const char* call, bamboo_site at);

void set_status(MPI_Status* status, int source, int tag, std::size_t bytes);

// A request for a nonblocking call of `self` (requests the program freed early and that have
// completed since are released first).
Request* new_request(Rank& self, MPI_Request* handle, const char* call, bamboo_site at);

// Adds one message to the firing rule the task is putting together (bamboo_expect).
void expect_message(Rank& self, const Pattern& pattern);

}  // namespace bamboo
