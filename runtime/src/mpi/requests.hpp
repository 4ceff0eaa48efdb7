// The life of a request as the entry points see it (mpi/point_to_point, mpi/completion):
// finding the program's handles, the status of a completed request, what a completed
// operation still holds, and freeing it.
#pragma once

#include <mpi.h>

#include "bamboo.h"
#include "messaging/rank.hpp"
#include "mpi/api.hpp"

namespace bamboo {

// The status MPI gives an empty request (MPI_REQUEST_NULL, an inactive persistent request).
void set_empty_status(MPI_Status* status);

// A completed request's status: a receive's source, tag and size; cancelled or not.
void set_request_status(MPI_Status* status, const Request& r);

// The live request `handle` names; nullptr for MPI_REQUEST_NULL.
Request* find_request(Rank& self, MPI_Request handle, const char* call, bamboo_site at);

// The same, but nullptr also for an inactive persistent request, which waits and tests treat
// as a null request.
Request* find_active_request(Rank& self, MPI_Request handle, const char* call, bamboo_site at);

// What a completed operation still holds: a lent buffer, a datatype.
void end_operation(Rank& self, Request& request);

// Frees a request whose operation is over (or never started) and nulls the user's handle.
// Returns the code of a generalized request's free function.
int free_request(Rank& self, MPI_Request* handle, Request& request);

// What a completed receive `r` whose message was truncated makes `call` return: `code`, with a
// report that names the receive's own call when another call completes it (MPI_Wait of an
// MPI_Irecv).
CallError truncation_error(const Rank& self, const Request& r, int code, const char* call, bamboo_site at);

// A poll that found nothing: the other tasks of this worker run first (a polling loop must
// not starve them), and sends lent long enough are bought back, for a loop that polls
// until they complete would wait for ever if their receivers wait for it.
void poll_again_later(Rank& self);

}  // namespace bamboo
