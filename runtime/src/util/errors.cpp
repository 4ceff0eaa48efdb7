#include "util/errors.hpp"

#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cstdarg>
#include <cstdio>
#include <string>
#include <thread>

namespace bamboo {
namespace {

// One write per line, so lines from several threads and processes do not interleave.
void emit(const std::string& prefix, const char* format, va_list args) {
    char text[1024];
    std::vsnprintf(text, sizeof text, format, args);
    std::string line = prefix + text + "\n";
    std::fflush(stdout);
    std::fwrite(line.data(), 1, line.size(), stderr);
    std::fflush(stderr);
}

}  // namespace

namespace {
std::atomic<void (*)(Stop, int)> abort_hook{nullptr};
}  // namespace

void before_abort(void (*hook)(Stop why, int code)) { abort_hook = hook; }

void abort_job(int code, Stop why) {
    // Once: not again from a second thread, nor if the hook itself fails.
    if (auto hook = abort_hook.exchange(nullptr)) hook(why, code);
    int initialized = 0, finalized = 0;
    MPI_Initialized(&initialized);
    if (initialized) {
        // A moment for the launcher to forward what was just written: MPICH's mpiexec
        // (hydra) can end the job on MPI_Abort before reading a process's last stderr lines.
        std::this_thread::sleep_for(std::chrono::milliseconds(200));
        MPI_Finalized(&finalized);
        // No MpiGuard: the lock may be held by the thread that is stuck.
        if (!finalized) MPI_Abort(MPI_COMM_WORLD, code);
    }
    _exit(code);
}

void fatal(const char* format, ...) {
    va_list args;
    va_start(args, format);
    emit("bamboo: ", format, args);
    va_end(args);
    abort_job(kExitRuntimeError, Stop::runtime_error);
}

void task_error(int vrank, const char* call, bamboo_site at, const char* format, ...) {
    std::string prefix = "bamboo: task vrank " + std::to_string(vrank) + ": " + call;
    if (at.file) prefix += std::string(" at ") + at.file + ":" + std::to_string(at.line);
    prefix += ": ";
    va_list args;
    va_start(args, format);
    emit(prefix, format, args);
    va_end(args);
    abort_job(kExitRuntimeError, Stop::runtime_error);
}

void call_error(int code, int vrank, const char* call, bamboo_site at, const char* format, ...) {
    char text[1024];
    va_list args;
    va_start(args, format);
    std::vsnprintf(text, sizeof text, format, args);
    va_end(args);
    throw CallError{code, vrank, call, at, text};
}

void warn(const char* format, ...) {
    va_list args;
    va_start(args, format);
    emit("bamboo: warning: ", format, args);
    va_end(args);
}

}  // namespace bamboo
