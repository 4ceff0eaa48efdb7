// Whether the MPI library underneath is SimGrid's SMPI, which simulates the job's processes
// inside one OS process (bench/smpi). There, time passes only in MPI calls and in the code
// between them, so a process that polls for a message makes a simulation event of every
// poll, and one that blocks in MPI costs nothing until the message comes; and SimGrid
// reports a deadlock itself when every simulated process is blocked.
#pragma once

#include <mpi.h>

#include <cstdint>

namespace bamboo {

#ifdef SMPI_H
inline constexpr bool kSimulatedMpi = true;
#else
inline constexpr bool kSimulatedMpi = false;
#endif

// Under SMPI: the simulated time now, in nanoseconds, the code run since the process's last
// MPI call included (it is charged first, as SMPI charges it at the next MPI call: one
// simulation event). Outside SMPI: not to be called.
std::int64_t simulated_now_ns();

}  // namespace bamboo
