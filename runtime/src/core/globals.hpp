// Privatized globals: every task has its own block holding a copy of each registered variable.
#pragma once

#include <memory>

namespace bamboo {

// A new block initialized from the variables' original definitions (nullptr if none is
// registered). Call after all registrations (constructors run before main).
std::shared_ptr<char> make_task_globals();

}  // namespace bamboo
