// Work a task runs beside its own code, each piece on a stack of its own: MPI's nonblocking
// collectives, which run the blocking algorithms there.
//
// A piece starts at once and runs until it would wait; it then hands the thread back to the
// task, which resumes it from progress() once what it waits for holds: at the task's next
// call into the runtime, or while the task itself waits. So a piece moves on only when its
// task is in the runtime, as most MPI libraries progress nonblocking collectives only inside
// MPI calls. Pieces and their task share one thread and never run at the same time: nothing
// between them needs a lock.
#pragma once

#include <boost/context/fiber.hpp>

#include <functional>
#include <memory>
#include <vector>

namespace bamboo {

class BackgroundWork {
public:
    BackgroundWork() = default;
    BackgroundWork(const BackgroundWork&) = delete;
    BackgroundWork& operator=(const BackgroundWork&) = delete;
    ~BackgroundWork();

    // Runs `work` at once, until it first waits or ends.
    void start(std::function<void()> work);

    // On a piece's stack: hands the thread back to the task until `ready()` holds. `ready`
    // must become true only through a change that also wakes the task, if it is waiting.
    void wait_until(std::function<bool()> ready);

    bool inside() const { return current_ != nullptr; }  // running on a piece's stack
    bool empty() const { return pieces_.empty(); }
    // Some piece waits for nothing any more.
    bool any_ready() const;
    // Resumes every piece whose wait is over, until each waits again or has ended.
    void progress();

private:
    struct Piece {
        std::function<void()> work;
        std::function<bool()> ready;   // what it waits for; empty until it first waits
        boost::context::fiber context;  // the piece, while the task runs
        boost::context::fiber task;     // the task, while the piece runs
        bool done = false;
    };
    void resume(Piece& piece);

    std::vector<std::unique_ptr<Piece>> pieces_;
    Piece* current_ = nullptr;
};

}  // namespace bamboo
