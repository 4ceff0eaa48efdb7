#include "core/faults.hpp"

#include <execinfo.h>
#include <signal.h>
#include <ucontext.h>
#include <unistd.h>

#include <cstdint>
#include <cstdlib>
#include <cstring>

#include "core/task.hpp"
#include "core/task_stacks.hpp"
#include "trace/part_file.hpp"
#include "util/errors.hpp"

namespace bamboo {
namespace {

struct FaultSignal {
    int number;
    const char* name;
    const char* meaning;
    bool data_address;  // si_addr is the data accessed (else the faulting instruction)
};

const FaultSignal kFaultSignals[] = {
    {SIGSEGV, "SIGSEGV", "invalid memory access", true},
    {SIGBUS, "SIGBUS", "bus error (e.g. access beyond the end of a mapped file)", true},
    {SIGFPE, "SIGFPE", "arithmetic exception (e.g. integer division by zero)", false},
    {SIGILL, "SIGILL", "illegal instruction", false},
};
constexpr int kFaultSignalCount = sizeof kFaultSignals / sizeof kFaultSignals[0];

// The handlers installed before ours, to pass faults on to.
struct sigaction previous_actions[kFaultSignalCount];

constexpr int kBacktraceDepth = 64;

// Lines are built in a buffer and written whole: the handler may not use stdio (not
// async-signal-safe), and whole lines do not interleave with other threads' output.
class Line {
public:
    Line& text(const char* text) {
        std::size_t length = std::strlen(text);
        if (length > sizeof buffer_ - used_) length = sizeof buffer_ - used_;
        std::memcpy(buffer_ + used_, text, length);
        used_ += length;
        return *this;
    }
    Line& number(unsigned long n, unsigned base = 10) {
        char digits[24];
        char* first = digits + sizeof digits;
        *--first = '\0';
        do {
            *--first = "0123456789abcdef"[n % base];
            n /= base;
        } while (n);
        return text(first);
    }
    void write(const char* ending = "\n") {
        text(ending);
        if (::write(STDERR_FILENO, buffer_, used_) < 0) {
        }
    }

private:
    char buffer_[512];
    std::size_t used_ = 0;
};

// The instruction that faulted, where the backtrace should start (the frames above it are
// this handler's); nullptr where unknown.
const void* faulting_instruction(const void* context) {
    const auto* machine = &static_cast<const ucontext_t*>(context)->uc_mcontext;
#if defined(__x86_64__)
    return reinterpret_cast<const void*>(machine->gregs[REG_RIP]);
#elif defined(__aarch64__)
    return reinterpret_cast<const void*>(machine->pc);
#else
    (void)machine;
    return nullptr;
#endif
}

void report_overflow(const Task& task) {
    Line()
        .text("bamboo: task vrank ")
        .number(static_cast<unsigned long>(task.vrank()))
        .text(" overflowed its stack (")
        .number(task.stack_size())
        .text(" bytes); --bamboo-stack-size sets the size of task stacks")
        .write();
}

void report_fault(const Task& task, const FaultSignal& signal, const siginfo_t* info, const void* context) {
    Line line;
    line.text("bamboo: task vrank ")
        .number(static_cast<unsigned long>(task.vrank()))
        .text(": ")
        .text(signal.name)
        .text(", ")
        .text(signal.meaning);
    if (signal.data_address) line.text(", at address 0x").number(reinterpret_cast<std::uintptr_t>(info->si_addr), 16);
    line.text("; backtrace:").write();
    void* frames[kBacktraceDepth];
    int count = backtrace(frames, kBacktraceDepth);
    int first = 0;
    const void* pc = faulting_instruction(context);
    while (first < count && frames[first] != pc) ++first;
    if (first == count) first = 0;
    for (int i = first; i < count; ++i) {
        Line().text("bamboo:   #").number(static_cast<unsigned long>(i - first)).text(" ").write("");
        backtrace_symbols_fd(&frames[i], 1, STDERR_FILENO);
    }
}

void on_fault(int number, siginfo_t* info, void* context) {
    int index = 0;
    while (kFaultSignals[index].number != number) ++index;
    const Task* task = Task::current();
    bool raised_by_fault = info->si_code > 0;  // not sent by kill() or raise()
    if (trace::on()) trace::write_part_from_signal(raised_by_fault ? trace::Ending::fault : trace::Ending::terminated, number);
    if (task && raised_by_fault) {
        const char* address = static_cast<const char*>(info->si_addr);
        if (number == SIGSEGV && address < task->stack_bottom() &&
            address >= task->stack_bottom() - TaskStacks::kGuardSize) {
            report_overflow(*task);
            _exit(kExitRuntimeError);
        }
        report_fault(*task, kFaultSignals[index], info, context);
    }
    // On to the handler installed before. A fault happens again when this handler returns
    // to the faulting instruction; a signal that was sent is sent again (it stays pending
    // until this handler returns).
    sigaction(number, &previous_actions[index], nullptr);
    if (!raised_by_fault) raise(number);
}

}  // namespace

void install_fault_handlers() {
    // backtrace() loads the unwinder on its first call, which the handler must not do.
    void* frame;
    backtrace(&frame, 1);
    struct sigaction action;
    std::memset(&action, 0, sizeof action);
    action.sa_sigaction = on_fault;
    action.sa_flags = SA_SIGINFO | SA_ONSTACK;
    sigemptyset(&action.sa_mask);
    for (int i = 0; i < kFaultSignalCount; ++i) sigaction(kFaultSignals[i].number, &action, &previous_actions[i]);
}

namespace {

const int kTerminationSignals[] = {SIGTERM, SIGINT};
constexpr int kTerminationSignalCount = sizeof kTerminationSignals / sizeof kTerminationSignals[0];
struct sigaction previous_termination_actions[kTerminationSignalCount];

void on_termination(int number) {
    trace::write_part_from_signal(trace::Ending::terminated, number);
    int index = 0;
    while (kTerminationSignals[index] != number) ++index;
    sigaction(number, &previous_termination_actions[index], nullptr);
    raise(number);  // delivered, as it would have been, once this handler returns
}

}  // namespace

void install_termination_handlers() {
    struct sigaction action;
    std::memset(&action, 0, sizeof action);
    action.sa_handler = on_termination;
    action.sa_flags = SA_ONSTACK;
    sigemptyset(&action.sa_mask);
    for (int i = 0; i < kTerminationSignalCount; ++i)
        sigaction(kTerminationSignals[i], &action, &previous_termination_actions[i]);
}

namespace {

// The calling thread's own alternate signal stack, in place while the object lives.
class SignalStack {
public:
    SignalStack() : memory_(static_cast<char*>(std::malloc(kSize))) {
        stack_t stack{};
        stack.ss_sp = memory_;
        stack.ss_size = kSize;
        sigaltstack(&stack, nullptr);
    }
    ~SignalStack() {
        stack_t disable{};
        disable.ss_flags = SS_DISABLE;
        sigaltstack(&disable, nullptr);
        std::free(memory_);
    }
    SignalStack(const SignalStack&) = delete;
    SignalStack& operator=(const SignalStack&) = delete;

private:
    static constexpr std::size_t kSize = 64u << 10;
    char* memory_;
};

}  // namespace

void give_thread_a_signal_stack() {
    // A thread that has one keeps it: sanitizers give threads their own and free it as
    // theirs when the thread ends.
    stack_t current;
    if (sigaltstack(nullptr, &current) == 0 && !(current.ss_flags & SS_DISABLE)) return;
    thread_local SignalStack stack;  // released when the thread ends
}

}  // namespace bamboo
