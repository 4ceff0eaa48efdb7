// The job's trace out of its processes' parts (trace/part_file.hpp): each part's records
// turned into spans and messages on its own clock, put on process 0's clock by the offsets
// the part carries, and each message's send matched with its arrival.
//
// A message is matched by order, not by a number it carries: between one sender and one
// receiver, messages of one tag on one communicator arrive in the order they were sent
// (MPI's non-overtaking rule, which the runtime keeps between processes too), so the n-th
// send of such a stream is the n-th arrival.
#pragma once

#include <cstddef>
#include <functional>
#include <string>
#include <vector>

#include "trace/job_trace.hpp"
#include "trace/part_file.hpp"

namespace bamboo::trace {

// The trace of the job whose parts these are (one per process at most).
JobTrace assemble_job(const std::vector<Part>& parts);

// Receives what is worth telling the user, a line each.
using Say = std::function<void(const std::string&)>;

// Merges the parts in `directory` into the job's trace, written as `file` (Chrome JSON) and
// `file`.otf2/ (OTF2). Parts of another job there are left out; a process without a part is
// named in the trace (JobTrace::missing). Says what it leaves out, a truncated trace, a
// missing OTF2 archive. Returns how many parts the trace it wrote is made of (0: no trace).
std::size_t merge_trace(const std::string& directory, const std::string& file, const Say& say);

}  // namespace bamboo::trace
