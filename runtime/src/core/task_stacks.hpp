// The stacks of a process's tasks: one mapping holds them all, each stack with a guard
// region below it, so that an overflow faults instead of writing over the next stack down.
//
// The number of mappings per process is limited (vm.max_map_count, 65530 by default), and
// a guard made inaccessible with mprotect splits the mapping: two mappings per task, about
// 32,700 tasks per process. Since Linux 6.13 a guard can live inside the mapping
// (MADV_GUARD_INSTALL), so the tasks take no mapping of their own; on older kernels the
// stacks fall back to mprotect. Unmapped holes as guards would cost one mapping per task,
// but the kernel puts the process's next mapping that fits into the highest free hole,
// which is one of those guards: an overflow would then silently write into that mapping.
#pragma once

#include <boost/context/stack_context.hpp>

#include <cstddef>
#include <stdexcept>
#include <string>

namespace bamboo {

// The system refused memory for task stacks; what() names the limit and what to change.
class StackError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

class TaskStacks {
public:
    // A frame larger than the guard can land below it if it touches its lowest address
    // first. bamboocc compiles programs with stack probing (-fstack-clash-protection), which
    // touches every page of a large frame from the top, so the guard has only to cover the
    // frames of code compiled without it (libraries). It costs address space, not memory.
    static constexpr std::size_t kGuardSize = 64u << 10;

    // Reserves address space for `count` stacks of `size` bytes (rounded up to whole pages).
    // Throws StackError.
    TaskStacks(std::size_t count, std::size_t size);
    ~TaskStacks();
    TaskStacks(const TaskStacks&) = delete;
    TaskStacks& operator=(const TaskStacks&) = delete;

    // Stack `index` (0..count-1) with its guard in place; its lowest address is
    // sp - size. Throws StackError.
    boost::context::stack_context stack(std::size_t index);

    // The stack allocator of a task's fiber: when the task ends, its stack's memory goes
    // back to the system; the address space stays reserved.
    struct Release {
        void deallocate(boost::context::stack_context& stack) noexcept;
    };

private:
    char* base_ = nullptr;
    std::size_t count_;
    std::size_t stack_size_;
    std::size_t slot_size_;  // a guard and the stack above it
    bool guards_in_mapping_ = true;  // MADV_GUARD_INSTALL works (else mprotect)
};

// Why the system refused `bytes` more of address space (0: memory) wanted for
// `mappings_wanted` more memory mappings, and what to change: the first limit of the process
// that the request meets.
std::string refused_memory_reason(std::size_t bytes, std::size_t mappings_wanted);

}  // namespace bamboo
