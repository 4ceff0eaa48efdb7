// What the window calls share: windows made and freed (mpi/windows.cpp), their one-sided
// operations (mpi/one_sided.cpp) and synchronization (mpi/window_epochs.cpp).
#pragma once

#include <mpi.h>

#include "bamboo.h"
#include "communicators/communicator.hpp"
#include "messaging/one_sided.hpp"
#include "messaging/rank.hpp"

namespace bamboo {

// The task's window `win`, checked.
WindowEntry& window_of(Rank& self, MPI_Win win, const char* call, bamboo_site at);

// Collective over the window's members: every one-sided operation any of them started on it
// has completed, at its origin and at its target (MPI_Win_fence, MPI_Win_free).
void complete_operations(Rank& self, WindowEntry& window, const char* call, bamboo_site at);

}  // namespace bamboo
