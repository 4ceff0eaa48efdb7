#include "stack_overflow.hpp"

#include <signal.h>
#include <unistd.h>

#include <cstdlib>
#include <cstring>

#include "errors.hpp"
#include "task.hpp"

namespace bamboo {
namespace {

// A frame larger than the guard page can land below it; faults this far below the stack
// are still taken for an overflow of the running task.
constexpr std::size_t kBelowStackSlack = 64u << 20;

// Appends the decimal digits of `n` (async-signal-safe, unlike snprintf).
char* append_number(char* out, unsigned long n) {
    char digits[24];
    int count = 0;
    do {
        digits[count++] = static_cast<char>('0' + n % 10);
        n /= 10;
    } while (n);
    while (count) *out++ = digits[--count];
    return out;
}

char* append_text(char* out, const char* text) {
    std::size_t length = std::strlen(text);
    std::memcpy(out, text, length);
    return out + length;
}

void on_segv(int signal, siginfo_t* info, void*) {
    const Task* task = Task::current();
    const char* address = static_cast<const char*>(info->si_addr);
    if (task && address < task->stack_bottom() + 4096 &&
        address + kBelowStackSlack >= task->stack_bottom()) {
        char line[256];
        char* out = append_text(line, "bamboo: task vrank ");
        out = append_number(out, static_cast<unsigned long>(task->vrank()));
        out = append_text(out, " overflowed its stack (");
        out = append_number(out, task->stack_size());
        out = append_text(out, " bytes); --bamboo-stack-size sets the size of task stacks\n");
        if (write(STDERR_FILENO, line, static_cast<std::size_t>(out - line)) < 0) {
        }
        _exit(kExitRuntimeError);
    }
    // Not ours: fault again with the default action.
    struct sigaction fallback;
    std::memset(&fallback, 0, sizeof fallback);
    fallback.sa_handler = SIG_DFL;
    sigaction(signal, &fallback, nullptr);
}

}  // namespace

void install_stack_overflow_handler() {
    struct sigaction action;
    std::memset(&action, 0, sizeof action);
    action.sa_sigaction = on_segv;
    action.sa_flags = SA_SIGINFO | SA_ONSTACK;
    sigemptyset(&action.sa_mask);
    sigaction(SIGSEGV, &action, nullptr);
}

void give_thread_a_signal_stack() {
    static thread_local char* signal_stack = nullptr;  // lives as long as the thread
    if (signal_stack) return;
    std::size_t size = 64u << 10;
    signal_stack = static_cast<char*>(std::malloc(size));
    stack_t stack;
    std::memset(&stack, 0, sizeof stack);
    stack.ss_sp = signal_stack;
    stack.ss_size = size;
    sigaltstack(&stack, nullptr);
}

}  // namespace bamboo
