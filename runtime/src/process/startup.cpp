#include "process/startup.hpp"

#include <mpi.h>

#include <algorithm>

namespace bamboo {

Threading choose_threading(const Options& options, int provided) {
    Threading threading;
    threading.single_thread = options.single_thread;
    if (!threading.single_thread && provided < MPI_THREAD_SERIALIZED) {
        threading.single_thread = true;
        threading.fallback = true;
    }
    threading.mpi_serialized = !threading.single_thread && provided < MPI_THREAD_MULTIPLE;
    return threading;
}

int workers_wanted(const Options& options, bool single_thread, const Machine& machine) {
    if (single_thread) return 1;
    if (options.workers > 0) return options.workers;
    int cores = machine.online_cpus / machine.processes_on_node;
    return std::max(1, std::min(cores, machine.usable_cpus));
}

std::size_t buffer_limit(const Options& options, const Machine& machine) {
    if (options.buffer_limit) return options.buffer_limit;
    constexpr std::size_t kDefault = 256u << 20;
    std::size_t share = machine.memory_bytes / 4 / static_cast<std::size_t>(machine.processes_on_node);
    return std::max<std::size_t>(std::min(kDefault, share), 1u << 20);
}

namespace {

// The CPUs this process may count on: those it may run on, but no more than its share of
// the node's, which the node's other processes run on too (unbound, each may run anywhere).
int cpu_share(const Machine& machine) {
    return std::min(machine.usable_cpus, std::max(1, machine.online_cpus / machine.processes_on_node));
}

// Who drives the comm engine (see CommThread). Single-thread mode has no thread to give it.
bool wants_comm_thread(const Options& options, bool single_thread, int workers, bool network_peers,
                       const Machine& machine) {
    if (single_thread) return false;
    switch (options.comm_thread) {
    case CommThread::on: return true;
    case CommThread::off: return false;
    case CommThread::automatic: break;
    }
    return cpu_share(machine) > workers || network_peers;
}

}  // namespace

ThreadPlan plan_threads(const Options& options, bool single_thread, int workers_wanted, int vf,
                        int process_count, bool network_peers, const Machine& machine) {
    ThreadPlan plan;
    plan.workers = std::min(workers_wanted, vf);  // a worker without tasks would only idle
    plan.comm_thread = wants_comm_thread(options, single_thread, plan.workers, network_peers, machine);
    plan.shares_core = plan.workers + plan.comm_thread > cpu_share(machine);
    // Without a comm engine thread the workers drive the engine, between tasks too, and run
    // the deadlock watch, which is otherwise that thread's job; they keep polling rather than
    // nap while messages are in transit. With one, idle workers still poll, so that a message
    // does not wait for a thread switch.
    bool remote = process_count > 1;
    plan.idle_polls_engine = remote;
    if (!plan.comm_thread) {
        plan.idle_runs_watch = true;
        plan.spins_while_in_transit = remote;
        plan.polls_between_tasks = remote;
        plan.naps = true;
        plan.never_sleeps = single_thread;
        // Alone in its process under a simulated MPI, an idle worker waits in MPI for whatever
        // of the engine's requests completes first: there every poll is a simulation event.
        // Not natively, where Open MPI's blocking wait polls too and measured no faster
        // (docs/runtime.md), and where the deadlock watch needs idle processes to keep
        // polling; nor with other threads, one of which could hand the blocked engine a
        // message.
        plan.blocks_when_idle = single_thread && remote && machine.mpi_simulated;
        // The wait does the idle worker's polling and watching. Nor does it poll between
        // tasks: SimGrid 3.32 keeps a request that a test completes in its process's list of
        // activities for good, a std::list that every completion a wait sees is then removed
        // from, front to back, and the wall time of a simulation grew with the square of its
        // messages (bench/smpi/README.md).
        if (plan.blocks_when_idle) plan.idle_polls_engine = plan.idle_runs_watch = plan.polls_between_tasks = false;
        // One thread runs all the tasks, one after another, and sends for them all.
        plan.corks_send_blocks = single_thread && remote;
    }
    return plan;
}

}  // namespace bamboo
