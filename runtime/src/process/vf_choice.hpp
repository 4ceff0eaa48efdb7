// --bamboo-vf auto: choosing the virtualization factor (tasks per process).
//
// The model. Per process, a run spends C seconds of compute (the busy time of all its
// workers together) and sends B bytes in M messages to other processes; the network costs
// L seconds per message and 1/W seconds per byte, so communication takes T = M L + B / W. With
// u tasks on w = min(cores, u) workers, each worker has k = u / w tasks; while one of them
// waits for a message the other k - 1 can compute, so a run takes about
//
//     wall(u) = max(C(u) / w,  g T + C(u) / (w k))
//
// (no overlap at k = 1, full overlap as k grows). C grows with u (more, smaller tasks: task
// switches, copies between tasks, smaller loops); C(u) = a + s u is fitted to the runs
// recorded so far, and g (how much of T a run really exposes: protocol costs, dependencies
// between tasks) to their measured wall times. A VF already measured counts with its
// measured time, so repeated auto runs settle on the best measured VF; a VF predicted to be
// faster is tried next. With no earlier runs, auto starts from the candidate nearest 4 (the
// papers pick 2 for Jacobi and 4-8 for Cannon by hand).
//
// Earlier runs come from a profile file: one line per run, keyed by the process count and
// the program's arguments, so that different problems do not mix.
#pragma once

#include <string>
#include <vector>

namespace bamboo {

struct NetworkCost {
    double latency_s = 0;      // one-way, per message
    double bandwidth_Bps = 0;  // bytes per second; 0: no other process to measure against
};

// One run's measurements, per process (the busiest process's).
struct RunRecord {
    int vf = 1;
    int workers = 1;
    double wall_s = 0;          // from the first task's start to the last task's end
    double compute_s = 0;       // busy time of all workers together
    double remote_bytes = 0;    // sent to other processes
    double remote_messages = 0;
    NetworkCost network;        // as measured at that run's start
};

struct VfChoice {
    int vf = 1;
    std::string reason;  // one line for the user: what was chosen and why
};

// Chooses among `candidates` (ascending or not) for a process with `cores` cores.
VfChoice choose_vf(const std::vector<int>& candidates, const std::vector<RunRecord>& history,
                   const NetworkCost& network, int cores);

// The model's wall time for `vf` tasks per process on `cores` cores, given their compute
// C(vf), the exposure g and the transfer time T.
double predicted_wall(int vf, int cores, double compute_s, double exposure, double transfer_s);

// The profile: runs of the program recorded under `key` (other keys' lines are skipped).
std::vector<RunRecord> read_profile(const std::string& path, const std::string& key);
// Appends `record` under `key`; false (with errno set) if the file cannot be written.
bool append_profile(const std::string& path, const std::string& key, const RunRecord& record);

// Between processes 0 and 1 of MPI_COMM_WORLD, before any task runs: one-way latency of
// small messages and bandwidth of 256 KiB ones, broadcast to every process. With one
// process there is nothing to measure.
NetworkCost measure_network(int process, int process_count);

}  // namespace bamboo
