#include "core/task.hpp"

#include "core/task_stacks.hpp"
#include "core/worker.hpp"
#include "messaging/delivery.hpp"
#include "messaging/reports.hpp"
#include "process/runtime.hpp"
#include "util/errors.hpp"

namespace bamboo {
namespace {
__thread Task* running_task = nullptr;
}  // namespace

Task::Task(int vrank, Worker& worker, boost::context::stack_context stack, std::shared_ptr<char> globals,
           Entry entry, const std::vector<std::string>& args)
    : vrank_(vrank), worker_(worker), globals_(std::move(globals)), entry_(entry), args_(args),
      stack_bottom_(static_cast<const char*>(stack.sp) - stack.size), stack_size_(stack.size),
      sanitizer_stack_(stack_bottom_, stack_size_) {
    // Each task gets its own argv strings: bamboo_main may modify them.
    for (std::string& arg : args_) argv_.push_back(arg.data());
    argv_.push_back(nullptr);
    context_ = boost::context::fiber(
        std::allocator_arg, boost::context::preallocated(stack.sp, stack.size, stack), TaskStacks::Release{},
        [this](boost::context::fiber&& from) {
            worker_.arrived(std::move(from));
            run_body();
            return worker_.finished(*this);
        });
}

Task* Task::current() { return running_task; }

const Communicator* Task::communicator_with_context(int context) const {
    int base = context & ~1;
    if (base == kWorldContext) return runtime().world.get();
    if (base == kSelfContext) return self_comm.get();
    const Communicator* found = nullptr;
    comms.for_each([&](const CommEntry& entry) {
        if (entry.comm->context() == base) found = entry.comm.get();
    });
    for (const auto& freed : freed_comms)
        if (!found && freed->context() == base) found = freed.get();
    return found;
}

void Task::run_body() {
    // exit() comes back here by longjmp: the frames it skips are the user's C code and
    // the runtime's extern "C" entry, none of which has anything to destroy.
    if (setjmp(exit_jump_) == 0) exit_code_ = entry_(static_cast<int>(args_.size()), argv_.data());
    std::deque<Message> unreceived;
    {
        std::lock_guard<SpinLock> lock(mailbox_.mutex());
        unreceived = mailbox_.close();
    }
    if (!unreceived.empty()) {
        const Envelope& first = unreceived.front().envelope;
        std::string what = describe_message(communicator_with_context(first.comm),
                                            Pattern{first.source, first.tag, first.comm});
        warn("task vrank %d finished with %zu message(s) it never received (the first: %s)",
             vrank_, unreceived.size(), what.c_str());
        for (Message& message : unreceived) release_sender(message);
    }
    state_.store(TaskState::done);
}

void Task::enter() {
    // Only this thread moves a task out of `runnable`; wakers act on `waiting` only.
    state_.store(TaskState::running, std::memory_order_release);
    running_task = this;
    bamboo_globals = globals_.get();
}

void Task::leave() {
    bamboo_globals = nullptr;
    running_task = nullptr;
}

void Task::suspend() { worker_.switch_away(*this); }

void Task::begin_wait() {
    worker_.count_waiting(+1);
    state_.store(TaskState::waiting);
}

bool Task::cancel_wait() {
    TaskState expected = TaskState::waiting;
    return state_.compare_exchange_strong(expected, TaskState::running);
}

void Task::end_wait() { worker_.count_waiting(-1); }

void Task::wake() {
    TaskState expected = TaskState::waiting;
    if (state_.compare_exchange_strong(expected, TaskState::runnable)) worker_.enqueue(this);
}

void Task::exit(int status) {
    exit_code_ = status;
    std::longjmp(exit_jump_, 1);
}

void Task::yield() {
    state_.store(TaskState::runnable, std::memory_order_release);  // wakers act on `waiting` only
    worker_.enqueue(this);
    suspend();
}

}  // namespace bamboo
