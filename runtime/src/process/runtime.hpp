// The state of the runtime in one process: its tasks, workers, comm engine and deadlock watch.
#pragma once

#include <memory>
#include <vector>

#include "comm/communicator.hpp"
#include "process/options.hpp"

namespace bamboo {

class BufferBudget;
class CommEngine;
class DeadlockWatch;
class Task;
class TaskStacks;
class Worker;

struct Runtime {
    Options options;
    int process = 0;        // this process's rank in the real MPI_COMM_WORLD
    int process_count = 1;
    int vf = 1;
    std::vector<std::unique_ptr<Worker>> workers;
    std::unique_ptr<TaskStacks> stacks;        // the tasks' stacks: outlive the tasks
    std::vector<std::unique_ptr<Task>> tasks;  // this process's tasks, by vrank
    std::shared_ptr<const Communicator> world; // the tasks' MPI_COMM_WORLD
    std::unique_ptr<BufferBudget> budget;      // for messages sent but not yet received
    std::unique_ptr<CommEngine> engine;
    std::unique_ptr<DeadlockWatch> watch;

    int process_of(int vrank) const { return vrank / vf; }
    // The task `vrank` if it lives in this process, else nullptr. Asked on every send, so it
    // compares instead of dividing.
    Task* local_task(int vrank) const {
        unsigned index = static_cast<unsigned>(vrank - process * vf);
        return index < static_cast<unsigned>(vf) ? tasks[index].get() : nullptr;
    }
};

// The process's runtime; valid from main() on.
Runtime& runtime();

}  // namespace bamboo
