// The job's trace out of every process's records: at exit, each process turns its threads'
// records into spans and messages on its own clock, process 0 measures each process's clock
// against its own, gathers it all and matches each message's send with its arrival.
//
// A message is matched by order, not by a number it carries: between one sender and one
// receiver, messages of one tag on one communicator arrive in the order they were sent
// (MPI's non-overtaking rule, which the runtime keeps between processes too), so the n-th
// send of such a stream is the n-th arrival.
#pragma once

#include <mpi.h>

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "trace/job_trace.hpp"
#include "trace/recorder.hpp"

namespace bamboo::trace {

// What a process's records do not say of it.
struct ProcessFacts {
    int process = 0;
    int workers = 0;
    int vf = 1;  // its tasks are vranks process * vf ... process * vf + vf - 1
};

// The name of the communicator of `context` as task `vrank` knows it.
using CommNamer = std::function<std::string(int vrank, int context)>;

// Collective over `comm` (the processes of the job, numbered as in ProcessFacts): `buffers` are
// this process's records (take_buffers()). Process 0 gets the job's trace; the others nothing.
std::optional<JobTrace> gather_job(std::vector<Buffer> buffers, const ProcessFacts& facts, const CommNamer& comm_name,
                                   MPI_Comm comm);

}  // namespace bamboo::trace
