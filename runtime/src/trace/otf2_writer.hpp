// A job's trace as an OTF2 archive, for Vampir and otf2-print (docs/tracing.md).
//
// Every process is a location group of type PROCESS ("process N") and each of its lanes a
// CPU thread location ("worker N", "comm engine", "vrank V"); spans are regions entered and
// left on their lane, messages sends and receives between tasks' locations, in a paradigm of
// their own and not MPI's (otf2_writer.cpp says why, and how their ranks are numbered).
#pragma once

#include <string>

#include "trace/job_trace.hpp"

namespace bamboo::trace {

// Writes `job` as an OTF2 archive in `directory` (created; its anchor file is
// directory/traces.otf2), in place of an archive already there. Returns false with *error
// set if it cannot, including when the runtime was built without libotf2.
bool write_otf2(const JobTrace& job, const std::string& directory, std::string* error);

}  // namespace bamboo::trace
