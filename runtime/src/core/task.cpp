#include "core/task.hpp"

#include <cerrno>

#include "bamboo.h"
#include "core/scheduler.hpp"
#include "core/task_stacks.hpp"
#include "core/worker.hpp"
#include "trace/recorder.hpp"

namespace bamboo {
namespace {
__thread Task* running_task = nullptr;
}  // namespace

Task::Task(int vrank, Worker& worker, boost::context::stack_context stack, std::shared_ptr<char> globals)
    : vrank_(vrank), worker_(&worker), globals_(std::move(globals)),
      stack_bottom_(static_cast<const char*>(stack.sp) - stack.size), stack_size_(stack.size),
      sanitizer_stack_(stack_bottom_, stack_size_) {
    context_ = boost::context::fiber(
        std::allocator_arg, boost::context::preallocated(stack.sp, stack.size, stack), TaskStacks::Release{},
        [this](boost::context::fiber&& from) BAMBOO_NO_TSAN_FRAMES {
            Worker::current()->arrived(std::move(from));
            run_body();
            return Worker::current()->finished(*this);
        });
}

Task* Task::current() { return running_task; }

void Task::run_body() {
    // exit() comes back here by longjmp: the frames it skips are the user's C code, the
    // runtime's extern "C" entry, run() and the loops that construct and destroy the task's
    // objects, none of which has anything to destroy. Like a process, the task constructs its
    // objects (privatized C++ globals of non-trivial type) before its main, and destroys them
    // after main returns or exit(), also one called by an object's constructor or destructor.
    if (setjmp(exit_jump_) == 0) {
        objects_.construct_all(globals_.get());
        exit_code_ = run();
    }
    objects_.destroy_all();
    finish();
    state_.store(TaskState::done);
}

void Task::enter(Worker& worker) {
    // Only this thread moves a task out of `runnable`; wakers act on `waiting` only.
    state_.store(TaskState::running, std::memory_order_release);
    worker_.store(&worker, std::memory_order_relaxed);
    running_task = this;
    bamboo_globals = globals_.get();
    errno = saved_errno_;
}

void Task::leave() {
    bamboo_globals = nullptr;
    running_task = nullptr;
}

void Task::suspend() {
    before_suspend();
    saved_errno_ = errno;
    Worker::current()->switch_away(*this);
}

void Task::begin_wait() {
    worker().end_slice();
    worker().count_waiting(+1);
    state_.store(TaskState::waiting);
}

bool Task::cancel_wait() {
    TaskState expected = TaskState::waiting;
    return state_.compare_exchange_strong(expected, TaskState::running);
}

void Task::end_wait() { worker().count_waiting(-1); }

void Task::wake() {
    TaskState expected = TaskState::waiting;
    if (!state_.compare_exchange_strong(expected, TaskState::runnable)) return;
    if (trace::on(trace::Kind::wait)) trace::woken(vrank_);
    worker().scheduler().enqueue(*this);
}

void Task::exit(int status) {
    exit_code_ = status;
    std::longjmp(exit_jump_, 1);
}

void Task::sleep_until(std::chrono::steady_clock::time_point deadline) {
    if (std::chrono::steady_clock::now() >= deadline) return;
    asleep_.store(true);
    worker().wake_at(deadline, *this);
    wait_until([deadline] { return std::chrono::steady_clock::now() >= deadline; });
    asleep_.store(false);
}

void Task::yield() {
    worker().end_slice();
    state_.store(TaskState::runnable, std::memory_order_release);  // wakers act on `waiting` only
    worker().scheduler().enqueue(*this);
    suspend();
}

void Task::evaluation_point() {
    Worker& here = worker();
    here.end_slice();  // also slows a task that never suspends
    here.passed_evaluation_point(*this);
    here.scheduler().evaluation_point(*this, here);
}

}  // namespace bamboo
