// Runtime errors and warnings, always on stderr and prefixed "bamboo: ".
//
// A runtime error ends the whole job (MPI_Abort) with a non-zero code: a wrong program must
// never hang or lose a message silently. An erroneous MPI call is the one exception the
// program may ask for: its error handler may return the error instead (CallError below).
#pragma once

#include <string>

#include "bamboo.h"

namespace bamboo {

// Exit codes of the job.
constexpr int kExitRuntimeError = 1;
constexpr int kExitDeadlock = 3;

[[noreturn]] void fatal(const char* format, ...) __attribute__((format(printf, 1, 2)));

// "bamboo: task vrank N: CALL at FILE:LINE: message", then abort.
[[noreturn]] void task_error(int vrank, const char* call, bamboo_site at, const char* format, ...)
    __attribute__((format(printf, 4, 5)));

// An erroneous MPI call, found by an argument check: thrown by call_error and caught by the
// entry point it was made in (mpi/api.hpp, checked_call), which applies the communicator's
// error handler: MPI_ERRORS_ARE_FATAL gives task_error's report, MPI_ERRORS_RETURN returns
// `code`.
struct CallError {
    int code;  // the runtime's own checks give an error class (MPI_ERR_RANK...), the library its codes
    int vrank;
    const char* call;
    bamboo_site at;
    std::string message;
};

[[noreturn]] void call_error(int code, int vrank, const char* call, bamboo_site at,
                             const char* format, ...) __attribute__((format(printf, 5, 6)));

void warn(const char* format, ...) __attribute__((format(printf, 1, 2)));

// Why a job is ended before its end.
enum class Stop { runtime_error, deadlock, mpi_abort };

// Ends the job now with `code`, without blocking on anything.
[[noreturn]] void abort_job(int code, Stop why);

// Runs `hook` in abort_job before the job ends (--bamboo-trace writes this process's part).
void before_abort(void (*hook)(Stop why, int code));

}  // namespace bamboo
