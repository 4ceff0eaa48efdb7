// The runtime's settings: --bamboo-* arguments and BAMBOO_* environment variables.
#pragma once

#include <cstddef>
#include <functional>
#include <stdexcept>
#include <string>
#include <vector>

#include "core/scheduler.hpp"
#include "trace/filter.hpp"

namespace bamboo {

// Who drives the comm engine while tasks run: a thread of its own, or the workers between
// tasks. `automatic` gives it a thread when the process has a CPU to spare for it, and when
// it talks to processes over a network: a transfer over TCP moves only while someone calls
// MPI, and workers call it only between tasks. On a core shared with the workers the thread
// naps between polls rather than spin; over shared memory even that costs more than it
// gains (8 B one way 2 -> 5 us, 1 MB 6.4 -> 5.4 GB/s, bench/micro).
enum class CommThread { automatic, on, off };

struct Options {
    int vf = 1;                          // tasks (virtual ranks) per process
    std::vector<int> vf_candidates;      // --bamboo-vf auto[:LIST]: the VFs to choose from
                                         // (empty: vf is fixed)
    std::string profile;                 // where auto keeps its runs' measurements ("": default)
    int workers = 0;                     // worker threads per process; 0: cores / processes on the node
    bool single_thread = false;          // the main thread is the only worker and drives the comm engine
    QueueKind queue = QueueKind::shared; // where runnable tasks wait (core/scheduler.hpp)
    int bind_after = kNeverBind;         // evaluation points before a task is bound
    std::vector<double> slowdown;        // per worker (missing: 1): emulated slower workers
    CommThread comm_thread = CommThread::automatic;
    double deadlock_timeout = 60.0;      // seconds without progress before waiting tasks are reported
    std::size_t stack_size = 8u << 20;   // bytes reserved (not committed) per task stack
    bool payload_piece_auto = true;      // pieces for processes on other nodes only
    std::size_t payload_piece = 0;       // else: bytes per piece of a large payload; 0: whole
    std::size_t buffer_limit = 0;        // bytes for messages sent but not yet received; 0: automatic
    bool stats = false;                  // report the messages each process's tasks sent
    std::string trace;                   // where the job's trace goes ("": no trace)
    std::size_t trace_events = std::size_t(1) << 20;  // records per thread's trace buffer
    trace::Filter trace_filter;                        // what the trace keeps
    bool help = false;
};

class OptionError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

// Returns the value of an environment variable, or nullptr (std::getenv in production).
using EnvLookup = std::function<const char*(const char* name)>;

// Reads the options from the environment, then from argv (argv wins), and removes every
// --bamboo-* argument, with its value, from argv wherever it stands; argv[argc] stays nullptr.
// Throws OptionError naming the offending option.
Options parse_options(int& argc, char** argv, const EnvLookup& getenv);

// The text printed by --bamboo-help.
std::string options_help();

}  // namespace bamboo
