// Runtime errors and warnings, always on stderr and prefixed "bamboo: ".
//
// A runtime error ends the whole job (MPI_Abort) with a non-zero code: a wrong program must
// never hang or lose a message silently.
#pragma once

#include "bamboo.h"

namespace bamboo {

// Exit codes of the job.
constexpr int kExitRuntimeError = 1;
constexpr int kExitDeadlock = 3;

[[noreturn]] void fatal(const char* format, ...) __attribute__((format(printf, 1, 2)));

// "bamboo: task vrank N: CALL at FILE:LINE: message", then abort.
[[noreturn]] void task_error(int vrank, const char* call, bamboo_site at, const char* format, ...)
    __attribute__((format(printf, 4, 5)));

void warn(const char* format, ...) __attribute__((format(printf, 1, 2)));

// Ends the job now with `code`, without blocking on anything.
[[noreturn]] void abort_job(int code);

}  // namespace bamboo
