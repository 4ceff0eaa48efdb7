// What the runtime does differently when the MPI library underneath is SimGrid's SMPI, which
// simulates the job's processes inside one OS process (bench/smpi).
//
// There, time passes only in MPI calls and in the code between them, which SMPI times and
// charges as compute. So a process that polls for a message makes a simulation event of
// every poll, and one that blocks in MPI costs nothing until the message comes (the runtime
// blocks while idle, process/startup.cpp); SimGrid reports a deadlock itself when every
// simulated process is blocked.
//
// SMPI charges MPI's own work by a model (smpi/os, smpi/or: a cost per message and per byte)
// but times the runtime's. Timed, the runtime's work costs several times its native time:
// every simulated process runs on the same core, so each stretch of runtime code starts with
// caches that other processes and the simulator filled, and reading the thread's CPU clock
// around every MPI call costs half a microsecond here. So the same work can be charged by
// the same kind of model (bench/smpi/run measures the costs natively, bench/micro's way):
//   BAMBOO_SMPI_BYTE_COST    simulated seconds per byte of every copy of message data the
//                            runtime makes (packing, unpacking, copies between tasks or out
//                            of a receive slot), SMPI's own copy cost; always modelled
//   BAMBOO_SMPI_SWITCH_COST  per switch to a task
//   BAMBOO_SMPI_MESSAGE_COST per message at each end (sending it, completing its receive)
//   BAMBOO_SMPI_REMOTE_COST  and in addition at each end of a message between processes
// The last three are for simulations that do not time code at all (smpi/simulate-computation
// :no, computation charged by the applications' model, apps/common/compute_model.h); without
// them the runtime's work is timed as SMPI times any code. Outside SMPI all of this is empty.
#pragma once

#include <mpi.h>

#include <chrono>
#include <cstddef>
#include <cstdint>

namespace bamboo {

#ifdef SMPI_H
inline constexpr bool kSimulatedMpi = true;
#else
inline constexpr bool kSimulatedMpi = false;
#endif

// Under SMPI: the simulated time now, in nanoseconds, as of the process's last MPI call
// (what ran since is charged at the next). Outside SMPI: not to be called.
std::int64_t simulated_now_ns();

// The time a process's own decisions go by, in nanoseconds: under SMPI the simulated time
// now, the charges it owes included (settle_charges); elsewhere the steady clock.
std::int64_t process_clock_ns();

// The runtime's own work that a simulation charges by a model (see above).
enum class RuntimeWork { task_switch, message_end, remote_message_end };
void charge(RuntimeWork work);

// Charges are owed until the process next sends, blocks or reads the clock, which pays
// them first, in one simulated computation: what others see of a process's time is when
// its messages leave and when it waits, and a charge is a simulation event, one per such
// call rather than one per switch, message and copy. The runtime calls this right before
// MPI_Isend, MPI_Waitany and MPI_Wtime.
void settle_charges();

// A copy of message data, charged at BAMBOO_SMPI_BYTE_COST with its time left out: an
// object around the copy (what ran before it is timed as usual, if SMPI times code).
class CopyCharge {
public:
    explicit CopyCharge(std::size_t bytes);
    ~CopyCharge();
    CopyCharge(const CopyCharge&) = delete;
    CopyCharge& operator=(const CopyCharge&) = delete;

#ifdef SMPI_H
private:
    double seconds_ = 0;
#endif
};

#ifndef SMPI_H
inline std::int64_t process_clock_ns() {
    return std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now().time_since_epoch())
        .count();
}
inline void charge(RuntimeWork) {}
inline void settle_charges() {}
inline CopyCharge::CopyCharge(std::size_t) {}
inline CopyCharge::~CopyCharge() = default;
#endif

}  // namespace bamboo
