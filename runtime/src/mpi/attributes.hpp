// Attributes cached on a task's communicators, and what happens to them when a communicator
// is duplicated or freed.
#pragma once

#include <mpi.h>

#include "bamboo.h"
#include "messaging/rank.hpp"

namespace bamboo {

// MPI_Comm_dup: each attribute of `parent` whose key's copy callback says so, on `child`.
void copy_attributes(Rank& self, MPI_Comm parent_handle, const CommLocal& parent, CommLocal& child,
                     const char* call, bamboo_site at);
// MPI_Comm_free, and MPI_COMM_SELF's at MPI_Finalize: every attribute of `comm` deleted, the
// last set first, each key's delete callback run.
void delete_attributes(Rank& self, MPI_Comm handle, CommLocal& comm, const char* call, bamboo_site at);

// MPI_Comm_free: the hints kept for MPI_Comm_get_info are freed.
void forget_info(CommLocal& comm);

}  // namespace bamboo
