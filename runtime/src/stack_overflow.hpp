// Turning a task's stack overflow into a clear message.
//
// Task stacks have a guard page below them, so an overflow faults instead of overwriting
// other memory. The SIGSEGV handler, on a separate signal stack, names the task and the
// option that sets the stack size; any other fault keeps its default behaviour.
#pragma once

#include <cstddef>

namespace bamboo {

// Once per process, before tasks run.
void install_stack_overflow_handler();

// Once per thread that runs tasks: the handler cannot run on the overflowed stack.
void give_thread_a_signal_stack();

}  // namespace bamboo
