// The state of the runtime in one process: its ranks, workers, comm engine and deadlock watch.
#pragma once

#include <memory>
#include <vector>

#include "messaging/routes.hpp"
#include "process/options.hpp"

namespace bamboo {

class CommEngine;
class DeadlockWatch;
class TaskStacks;
class Worker;

struct Runtime {
    Options options;
    std::vector<std::unique_ptr<Worker>> workers;
    std::unique_ptr<TaskStacks> stacks;  // the ranks' stacks: outlive the ranks
    Routes routes;                       // the ranks, and where their messages go
    std::unique_ptr<CommEngine> engine;
    std::unique_ptr<DeadlockWatch> watch;
};

}  // namespace bamboo
