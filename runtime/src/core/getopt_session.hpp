// getopt(), getopt_long() and getopt_long_only() for tasks that share one C library.
//
// Under MPI each rank parses its own argv with its own getopt state. glibc keeps that state
// in optind, optarg, opterr and optopt, which a task can have copies of, and in statics of
// its own (where in a cluster of short options it is, which arguments it has skipped to
// permute), which cannot be saved or restored. So a task parses with glibc's getopt while
// it holds the process's one getopt session: from its first call until getopt returns -1
// (or the task ends). A task that takes the session makes glibc start afresh, as in a new
// process, and glibc's variables hold the task's own values only during its calls.
#pragma once

#include <getopt.h>

#include <vector>

#include "util/spin.hpp"

namespace bamboo {

class Task;

// A task's own optind, optarg, opterr and optopt, with the C library's initial values.
struct GetoptVariables {
    char* optarg = nullptr;
    int optind = 1;
    int opterr = 1;
    int optopt = '?';
};

// One call of the getopt family, as the program made it.
struct GetoptCall {
    enum class Kind { short_options, long_options, long_only };
    Kind kind;
    int argc;
    char* const* argv;
    const char* optstring;
    const option* longopts;  // long_options and long_only only
    int* longindex;

    // The call itself, to glibc, with glibc's variables.
    int to_glibc() const;
};

class GetoptSession {
public:
    // The session of this process.
    static GetoptSession& instance();

    // The calling task `self` takes the session if it is free, or holds it already (true);
    // otherwise it is woken when the session is released. For Task::wait_until.
    bool try_take(Task& self);
    // The holder's next option: glibc's getopt with the task's `mine` as its variables.
    // Releases the session when it returns -1.
    int next_option(GetoptVariables& mine, const GetoptCall& call);
    // The task ends: an option loop it left unfinished no longer holds the session.
    void task_ended(Task& self);

private:
    void release();

    SpinLock lock_;
    Task* holder_ = nullptr;
    bool fresh_ = false;  // the holder has yet to make glibc start afresh
    std::vector<Task*> waiting_;
};

}  // namespace bamboo
