// What the MPI entry points of the runtime share: finding the calling task, resolving its
// communicators, and checking arguments the way MPI defines them. Every failed check is a
// task_error naming the task, the call and the call's place in the user's source.
#pragma once

#include <mpi.h>

#include "bamboo.h"
#include "comm/communicator.hpp"
#include "core/task.hpp"
#include "messaging/datatype.hpp"
#include "messaging/mailbox.hpp"

namespace bamboo {

constexpr bamboo_site kNoSite{nullptr, 0};

// The running task, which must be between its MPI_Init and MPI_Finalize.
Task& calling_task(const char* call, bamboo_site at);

// A communicator as the calling task sees it.
struct CommView {
    const Communicator* comm;
    int rank;

    int size() const { return comm->size(); }
    int context() const { return comm->context(); }
};

// MPI_COMM_WORLD, MPI_COMM_SELF or a communicator the task made; anything else is an error.
CommView resolve_comm(Task& task, MPI_Comm comm, const char* call, bamboo_site at);
// The same, for a communicator the task made, with its table entry (MPI_Comm_free).
CommEntry* made_comm(Task& task, MPI_Comm comm, const char* call, bamboo_site at);

TypedBuffer typed_buffer(const Task& task, const void* buf, int count, MPI_Datatype type,
                         const char* call, bamboo_site at);

void check_rank(const Task& task, const CommView& comm, int rank, const char* role,
                const char* call, bamboo_site at);  // 0 <= rank < size
void check_destination(const Task& task, const CommView& comm, int dest, const char* call,
                       bamboo_site at);  // also MPI_PROC_NULL
void check_source(const Task& task, const CommView& comm, int source, const char* call,
                  bamboo_site at);       // also MPI_PROC_NULL, MPI_ANY_SOURCE
void check_count(const Task& task, int count, const char* what, const char* call, bamboo_site at);
void check_not_null(const Task& task, const void* pointer, const char* what, const char* call,
                    bamboo_site at);

// The messages a receive, probe or expectation of `source` and `tag` on `comm` accepts, once
// its arguments are checked. (MPI_PROC_NULL passes the checks; callers handle it.)
Pattern receive_pattern(const Task& task, const CommView& comm, int source, int tag,
                        const char* call, bamboo_site at);

void set_status(MPI_Status* status, int source, int tag, std::size_t bytes);

// Adds one message to the firing rule the task is putting together (bamboo_expect).
void expect_message(Task& task, const Pattern& pattern);

}  // namespace bamboo
