// Faults in tasks (SIGSEGV, SIGBUS, SIGFPE, SIGILL) reported with the task that caused them.
//
// A task's stack overflow lands in the guard region below its stack (TaskStacks): the
// handler names the task and the option that sets the stack size, and the process exits.
// Any other fault in a task is reported with the task, the signal and a backtrace, then
// goes on to the handler installed before (Open MPI's report, or the default action),
// which ends the process and so the job. The handler runs on a signal stack of its own,
// since the task's stack may be the one that overflowed.
//
// Under --bamboo-trace, a fault, SIGTERM or SIGINT (what a launcher sends the other processes
// when one dies, and what a timeout sends) first writes the process's part of the trace
// (trace/part_file.hpp), so that a job that ends this way leaves a trace too.
#pragma once

namespace bamboo {

// Once per process, after MPI_Init (whose handlers it passes faults on to).
void install_fault_handlers();

// Once per process, under --bamboo-trace: SIGTERM and SIGINT write the trace's part, then
// do what they did before.
void install_termination_handlers();

// Once per thread that runs tasks.
void give_thread_a_signal_stack();

}  // namespace bamboo
