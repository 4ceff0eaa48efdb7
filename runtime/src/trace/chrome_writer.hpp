// A job's trace as Chrome trace-event JSON, which Perfetto's UI and chrome://tracing open:
// processes as processes, lanes as threads, spans as begin/end pairs, messages as flows.
// docs/tracing.md describes the file; bin/bamboo trace reads it.
#pragma once

#include <string>

#include "trace/job_trace.hpp"

namespace bamboo::trace {

// Returns false with *error set if the file cannot be written.
bool write_chrome(const JobTrace& job, const std::string& path, std::string* error);

}  // namespace bamboo::trace
