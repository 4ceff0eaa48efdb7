// Each process's clock against process 0's, so that the parts of a trace can be put on one
// clock (trace/merge.hpp).
#pragma once

#include <mpi.h>

#include "trace/part_file.hpp"

namespace bamboo::trace {

// Collective over `comm` (the job's processes): this process's clock minus process 0's, now.
// Process 0 asks each process for its clock several times and keeps the answer of the
// shortest round trip, taken as read at its middle.
ClockOffset measure_clock_offset(MPI_Comm comm);

}  // namespace bamboo::trace
