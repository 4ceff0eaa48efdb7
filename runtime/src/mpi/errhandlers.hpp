// Error handlers of a task's communicators, counted as MPI counts them.
#pragma once

#include <mpi.h>

#include "messaging/rank.hpp"

namespace bamboo {

// One more communicator or handle refers to `handler` (nothing for the predefined ones).
void retain_errhandler(Rank& self, MPI_Errhandler handler);
// One fewer does; the last frees a user's handler.
void release_errhandler(Rank& self, MPI_Errhandler handler);

}  // namespace bamboo
