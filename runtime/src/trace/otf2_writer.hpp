// A job's trace as an OTF2 archive, for Vampir and otf2-print (docs/tracing.md).
//
// Every process is a location group ("process N") and each of its lanes a location ("worker
// N", "comm engine", "vrank V"); spans are regions entered and left on their lane, messages
// MPI sends and receives between lanes (otf2_writer.cpp says how their ranks are numbered).
#pragma once

#include <string>

#include "trace/job_trace.hpp"

namespace bamboo::trace {

// Writes `job` as an OTF2 archive in `directory` (created; its anchor file is
// directory/traces.otf2), in place of an archive already there. Returns false with *error
// set if it cannot, including when the runtime was built without libotf2.
bool write_otf2(const JobTrace& job, const std::string& directory, std::string* error);

}  // namespace bamboo::trace
