// What the MPI entry points of the runtime share: finding the calling task, resolving its
// communicators, and checking arguments the way MPI defines them. Every failed check is a
// task_error naming the task, the call and the call's place in the user's source.
#pragma once

#include <mpi.h>

#include "bamboo.h"
#include "comm/communicator.hpp"
#include "messaging/datatype.hpp"
#include "messaging/mailbox.hpp"
#include "messaging/rank.hpp"

namespace bamboo {

constexpr bamboo_site kNoSite{nullptr, 0};

// The rank of the running task, which must be between its MPI_Init and MPI_Finalize.
Rank& calling_rank(const char* call, bamboo_site at);

// MPI_COMM_WORLD, MPI_COMM_SELF or a communicator the task made; anything else is an error.
CommView resolve_comm(Rank& self, MPI_Comm comm, const char* call, bamboo_site at);
// The same, for a communicator the task made, with its table entry (MPI_Comm_free).
CommEntry* made_comm(Rank& self, MPI_Comm comm, const char* call, bamboo_site at);

TypedBuffer typed_buffer(const Rank& self, const void* buf, int count, MPI_Datatype type,
                         const char* call, bamboo_site at);

void check_rank(const Rank& self, const CommView& comm, int rank, const char* role,
                const char* call, bamboo_site at);  // 0 <= rank < size
void check_destination(const Rank& self, const CommView& comm, int dest, const char* call,
                       bamboo_site at);  // also MPI_PROC_NULL
void check_source(const Rank& self, const CommView& comm, int source, const char* call,
                  bamboo_site at);       // also MPI_PROC_NULL, MPI_ANY_SOURCE
void check_count(const Rank& self, int count, const char* what, const char* call, bamboo_site at);
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
