// The runtime in one process, from start to finish: its options, workers, ranks, comm engine
// and deadlock watch. The program's main() (process/main.cpp) runs it; the decisions it takes
// on the way are process/startup.hpp's.
#pragma once

#include <memory>
#include <map>
#include <string>
#include <vector>

#include "messaging/routes.hpp"
#include "process/options.hpp"
#include "process/startup.hpp"
#include "process/vf_choice.hpp"

namespace bamboo {

class CommEngine;
class DeadlockWatch;
class TaskStacks;
class Worker;

class Runtime {
public:
    Runtime();
    ~Runtime();
    Runtime(const Runtime&) = delete;
    Runtime& operator=(const Runtime&) = delete;

    // Collective, after MPI_Init_thread gave `provided`: reads the options and sets the runtime
    // up for run(). Returns false, with *exit_code set, when the job ends here: after a bad
    // option (which one process reports) or --bamboo-help.
    bool start(int& argc, char** argv, int provided, int* exit_code);
    // Runs the tasks until the whole job has finished.
    void run();
    // Collective, after run(): --bamboo-vf auto's record of the run, --bamboo-stats and
    // --bamboo-trace.
    // Returns the process's exit code: the first non-zero one of its ranks.
    int finish();

private:
    bool options_agreed(const std::string& error) const;
    Machine find_machine(const std::vector<int>& processes_on_node) const;
    int choose_vf_automatically(int workers);
    void create_ranks(int argc, char** argv);
    void record_run(double wall_s) const;
    void report_message_counts() const;
    void report_one_sided_counts() const;
    void report_workers() const;
    void report_time() const;
    void start_trace();
    void write_trace() const;
    std::map<int, std::string> trace_comm_names() const;
    static void write_trace_part_on_abort(Stop why, int code);

    Options options_;
    ThreadPlan plan_;
    std::unique_ptr<Scheduler> scheduler_;
    std::vector<std::unique_ptr<Worker>> workers_;
    std::unique_ptr<TaskStacks> stacks_;  // the ranks' stacks: outlive the ranks
    Routes routes_;                       // the ranks, and where their messages go
    std::unique_ptr<CommEngine> engine_;
    std::unique_ptr<DeadlockWatch> watch_;
    // --bamboo-vf auto: where this run's figures go, and the network measured at start.
    std::string profile_key_;
    std::string profile_path_;
    NetworkCost network_;
    double started_ = 0;  // MPI_Wtime() when the tasks started
};

}  // namespace bamboo
