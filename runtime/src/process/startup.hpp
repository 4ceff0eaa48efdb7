// Start-up policy: whether the runtime runs on one thread, how many workers a process has,
// whether the comm engine gets a thread of its own and whether it shares a core with the
// workers, what the workers do besides running tasks, and how much memory buffers messages.
//
// Pure functions of what start-up has found out (the options, the machine, the job), so that
// the policy is tested without MPI or the machine it runs on (tests/unit/startup_test.cpp);
// process/runtime.cpp finds the facts out and acts on the answers.
#pragma once

#include <cstddef>

#include "process/options.hpp"

namespace bamboo {

// What start-up finds out about the machine.
struct Machine {
    int online_cpus = 1;           // the node's
    int usable_cpus = 1;           // this process's (mpirun may have bound it to fewer)
    int processes_on_node = 1;     // of this job, this one included
    std::size_t memory_bytes = 1;  // the node's physical memory
    bool mpi_simulated = false;    // MPI is SimGrid's SMPI (util/simulation.hpp)
};

// Threads, given the thread support MPI_Init_thread provided.
struct Threading {
    bool single_thread = false;   // the main thread is the only one: one worker, no engine thread
    bool mpi_serialized = false;  // the runtime's MPI calls take the MPI lock (util/mpi_guard.hpp)
    bool fallback = false;        // single-threaded only because MPI supports no calls from
                                  // several threads (worth a warning)
};
Threading choose_threading(const Options& options, int provided);

// The workers a process would have with enough tasks: one per core of the node's share, at
// most the CPUs it may use.
int workers_wanted(const Options& options, bool single_thread, const Machine& machine);

// --bamboo-buffer-limit auto: 256M, or less where the node's memory shared by its processes
// is small.
std::size_t buffer_limit(const Options& options, const Machine& machine);

// Who runs what while the tasks run.
struct ThreadPlan {
    int workers = 1;
    bool comm_thread = false;  // the comm engine has a thread of its own (see CommThread)
    bool shares_core = false;  // workers and engine thread outnumber the usable CPUs: spinning
                               // threads yield the CPU at once (util/spin.hpp)
    // What the workers do besides running tasks (core/worker.hpp's WorkerDuties):
    bool idle_polls_engine = false;       // drive the comm engine while idle
    bool idle_runs_watch = false;         // run the deadlock watch while idle
    bool spins_while_in_transit = false;  // keep polling rather than nap while messages travel
    bool polls_between_tasks = false;     // drive the comm engine between tasks too
    bool naps = false;                    // nap between idle polls rather than sleep
    bool never_sleeps = false;            // keep polling (see WorkerDuties)
    bool blocks_when_idle = false;        // idle: block in MPI until a request completes
    bool corks_send_blocks = false;       // consecutive tasks' send blocks may leave joined
                                          // (transport/cork.hpp)
};
// `network_peers`: some other process is reached over a network rather than shared memory.
ThreadPlan plan_threads(const Options& options, bool single_thread, int workers_wanted, int vf,
                        int process_count, bool network_peers, const Machine& machine);

}  // namespace bamboo
