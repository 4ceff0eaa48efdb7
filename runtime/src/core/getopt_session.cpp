#include "core/getopt_session.hpp"

#include <algorithm>
#include <mutex>

#include "core/task.hpp"

namespace bamboo {
namespace {

// Makes glibc start afresh, as in a new process: optind = 0 reinitializes its statics, and
// reads the ordering ('+', '-', POSIXLY_CORRECT) from this optstring, which later calls do
// not. An argv of the program name alone parses nothing and prints nothing; the task's
// own optind then applies from its next call, as a new process's first optind would.
void start_afresh(const GetoptCall& call) {
    char empty[] = "";
    char* program_only[] = {call.argc > 0 ? call.argv[0] : empty, nullptr};
    GetoptCall nothing_to_parse = call;
    nothing_to_parse.argc = 1;
    nothing_to_parse.argv = program_only;
    optind = 0;
    opterr = 0;
    nothing_to_parse.to_glibc();
}

}  // namespace

int GetoptCall::to_glibc() const {
    switch (kind) {
        case Kind::short_options: return getopt(argc, argv, optstring);
        case Kind::long_options: return getopt_long(argc, argv, optstring, longopts, longindex);
        case Kind::long_only: return getopt_long_only(argc, argv, optstring, longopts, longindex);
    }
    return -1;
}

GetoptSession& GetoptSession::instance() {
    static GetoptSession session;
    return session;
}

bool GetoptSession::try_take(Task& self) {
    std::lock_guard<SpinLock> lock(lock_);
    if (holder_ == &self) return true;
    if (!holder_) {
        holder_ = &self;
        fresh_ = true;
        return true;
    }
    if (std::find(waiting_.begin(), waiting_.end(), &self) == waiting_.end()) waiting_.push_back(&self);
    return false;
}

int GetoptSession::next_option(GetoptVariables& mine, const GetoptCall& call) {
    if (fresh_) {
        start_afresh(call);
        fresh_ = false;
    }
    optind = mine.optind;
    optarg = mine.optarg;
    opterr = mine.opterr;
    optopt = mine.optopt;
    int result = call.to_glibc();
    mine.optind = optind;
    mine.optarg = optarg;
    mine.optopt = optopt;
    if (result == -1) release();
    return result;
}

void GetoptSession::task_ended(Task& self) {
    bool held;
    {
        std::lock_guard<SpinLock> lock(lock_);
        held = holder_ == &self;
    }
    if (held) release();
}

void GetoptSession::release() {
    std::vector<Task*> woken;
    {
        std::lock_guard<SpinLock> lock(lock_);
        holder_ = nullptr;
        woken.swap(waiting_);
    }
    for (Task* task : woken) task->wake();
}

}  // namespace bamboo
