#include "core/task_stacks.hpp"

#include <sys/mman.h>
#include <sys/resource.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <fstream>
#include <string>

#ifndef MADV_GUARD_INSTALL
#define MADV_GUARD_INSTALL 102  // Linux 6.13; the C library's headers may predate it
#endif

namespace bamboo {
namespace {

std::size_t page_size() { return static_cast<std::size_t>(sysconf(_SC_PAGESIZE)); }

std::size_t round_up(std::size_t n, std::size_t unit) { return (n + unit - 1) / unit * unit; }

// "512 MiB", "1.5 TiB"
std::string size_text(double bytes) {
    const char* units[] = {"bytes", "KiB", "MiB", "GiB", "TiB", "PiB"};
    int unit = 0;
    while (bytes >= 1024 && unit < 5) {
        bytes /= 1024;
        ++unit;
    }
    char text[32];
    std::snprintf(text, sizeof text, bytes < 10 && unit ? "%.1f %s" : "%.0f %s", bytes, units[unit]);
    return text;
}

long long read_number(const char* path) {
    long long value = -1;
    std::ifstream(path) >> value;
    return value;
}

// A "Name:  123 kB" line of /proc/self/status or /proc/meminfo, in bytes; -1 if absent.
long long proc_kilobytes(const char* path, const std::string& name) {
    std::ifstream in(path);
    for (std::string line; std::getline(in, line);)
        if (line.compare(0, name.size() + 1, name + ":") == 0) return std::stoll(line.substr(name.size() + 1)) * 1024;
    return -1;
}

long long mappings_now() {
    std::ifstream maps("/proc/self/maps");
    long long lines = 0;
    for (std::string line; std::getline(maps, line);) ++lines;
    return lines;
}

}  // namespace

std::string refused_memory_reason(std::size_t bytes, std::size_t mappings_wanted) {
    long long max_mappings = read_number("/proc/sys/vm/max_map_count");
    long long mappings = mappings_now();
    // A request may split a mapping in three.
    if (max_mappings > 0 && mappings + 2 >= max_mappings) {
        // Room for what is wanted and for MPI's own, in a round number.
        long long enough = (mappings + static_cast<long long>(mappings_wanted) + 1000 + 9999) / 10000 * 10000;
        return "the process has " + std::to_string(mappings) +
               " memory mappings, as many as vm.max_map_count allows; lower --bamboo-vf, or raise the limit: "
               "sysctl -w vm.max_map_count=" + std::to_string(enough);
    }
    rlimit address_space{};
    long long in_use = proc_kilobytes("/proc/self/status", "VmSize");
    if (getrlimit(RLIMIT_AS, &address_space) == 0 && address_space.rlim_cur != RLIM_INFINITY &&
        in_use + static_cast<double>(bytes) > static_cast<double>(address_space.rlim_cur))
        return "the process may use " + size_text(static_cast<double>(address_space.rlim_cur)) +
               " of address space (ulimit -v) and uses " + size_text(static_cast<double>(in_use)) +
               "; lower --bamboo-vf or --bamboo-stack-size, or raise ulimit -v";
    if (read_number("/proc/sys/vm/overcommit_memory") == 2) {
        long long left = proc_kilobytes("/proc/meminfo", "CommitLimit") -
                         proc_kilobytes("/proc/meminfo", "Committed_AS");
        return "the kernel overcommits no memory (vm.overcommit_memory = 2) and " +
               size_text(static_cast<double>(left > 0 ? left : 0)) +
               " of its commit limit is left; lower --bamboo-vf or --bamboo-stack-size";
    }
    if (bytes == 0) return "the system has no memory left; lower --bamboo-vf";
    return "the process has no free address space that large (128 TiB in all on x86-64); lower "
           "--bamboo-vf or --bamboo-stack-size";
}

TaskStacks::TaskStacks(std::size_t count, std::size_t size) : count_(count) {
    std::size_t page = page_size();
    stack_size_ = round_up(size, page);
    slot_size_ = round_up(kGuardSize, page) + stack_size_;
    std::size_t total = slot_size_ * count;
    if (count && (stack_size_ < size || total / count != slot_size_))
        throw StackError("they need more address space than a pointer can address; lower --bamboo-vf or "
                         "--bamboo-stack-size");
    // Address space only: pages are committed when a task touches them. MAP_STACK keeps
    // transparent huge pages off the stacks (Linux 6.7 on): a task touches a few pages.
    void* base = mmap(nullptr, total, PROT_READ | PROT_WRITE,
                      MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE | MAP_STACK, -1, 0);
    if (base == MAP_FAILED)
        throw StackError("their stacks need " + size_text(static_cast<double>(total)) + " of address space, " +
                         "and " + refused_memory_reason(total, 1));
    base_ = static_cast<char*>(base);
}

TaskStacks::~TaskStacks() {
    if (base_) munmap(base_, slot_size_ * count_);
}

boost::context::stack_context TaskStacks::stack(std::size_t index) {
    char* guard = base_ + index * slot_size_;
    std::size_t guard_size = slot_size_ - stack_size_;
    if (guards_in_mapping_ && madvise(guard, guard_size, MADV_GUARD_INSTALL) != 0) {
        if (errno != EINVAL)
            throw StackError("no memory for the guard of its stack: " + refused_memory_reason(0, 0));
        guards_in_mapping_ = false;  // a kernel before 6.13
    }
    if (!guards_in_mapping_ && mprotect(guard, guard_size, PROT_NONE) != 0)
        throw StackError("on this kernel (before Linux 6.13) each task's stack takes two memory mappings, the "
                         "stack and its guard: " + refused_memory_reason(0, 2 * (count_ - index)));
    boost::context::stack_context stack;
    stack.size = stack_size_;
    stack.sp = guard + slot_size_;
    return stack;
}

void TaskStacks::Release::deallocate(boost::context::stack_context& stack) noexcept {
    madvise(static_cast<char*>(stack.sp) - stack.size, stack.size, MADV_DONTNEED);
}

}  // namespace bamboo
