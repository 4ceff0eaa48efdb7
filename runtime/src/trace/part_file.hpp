// Each process's part of the trace, on disk: its threads' records as they are, with what the
// records do not say (the process's place in the job, its clock against process 0's, how its
// recording ended). --bamboo-trace FILE writes process N's part to FILE.parts/pN.part when
// the process ends, however it ends:
//   - at the end of a job that ends well, before process 0 merges the parts (trace/merge.hpp);
//   - when the job is ended early (a deadlock report, a runtime error, MPI_Abort), from the
//     process that ends it;
//   - on a fault in a task, SIGTERM or SIGINT (what a launcher sends the others when one
//     process dies, and a timeout sends), from the signal handler: then it is written with
//     async-signal-safe calls only, from the records as they stand, without communicator
//     names (the merge names them by number);
//   - and, in case none of those comes, whenever the process has been idle a while.
// `bamboo trace merge FILE` assembles the parts of a job that did not end well.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "trace/recorder.hpp"

namespace bamboo::trace {

// How a process's recording ended. `idle`: it had not, but the process had been idle a while
// when it wrote the part; if nothing came after, it was killed without warning (SIGKILL).
enum class Ending : std::int32_t { finished, deadlock, runtime_error, aborted, fault, terminated, idle };

// What a process's records do not say of it.
struct ProcessFacts {
    int process = 0;
    int processes = 1;  // in the job
    int workers = 0;
    int vf = 1;  // its tasks are vranks process * vf ... process * vf + vf - 1
};

// This process's clock minus process 0's, as measured at `at` (this process's clock).
struct ClockOffset {
    std::int64_t at = 0;
    std::int64_t offset = 0;
};

struct PartHeader {
    char magic[8];
    std::uint32_t version;
    std::int32_t process, processes, workers, vf;
    std::uint64_t job;  // process 0's number for the job, the same in every part
    Ending ending;
    std::int32_t detail;  // fault and terminated: the signal; aborted: the error code
    std::int64_t stopped_at;
    ClockOffset start;
    ClockOffset end;       // when the job ended well; else end.at is -1
    // --bamboo-trace-filter, as given ("" if none), and its time window on this process's clock.
    char filter[256];
    std::int64_t window_from, window_to;
    std::uint64_t buffers;  // then, per buffer: full_at, event count, events, text size, text
};

// A part read back.
struct Part {
    PartHeader header;
    std::vector<Buffer> buffers;
    std::map<int, std::string> comm_names;  // by context, where the part has them
};

// Where process N's part goes: DIRECTORY/pN.part.
std::string part_path(const std::string& directory, int process);

// Prepares this process's part of a trace in `directory` (created if missing; this process's
// part of an earlier job removed), once its facts, the job's number and its clock's offset at
// start are known. Until then nothing is written. `note_if_stopped` goes to stderr when the
// part is written for a process that did not end well. Returns false with *error set if the
// directory cannot be made.
bool prepare_part(const std::string& directory, const ProcessFacts& facts, std::uint64_t job, ClockOffset start,
                  const std::string& note_if_stopped, std::string* error);

// Writes this process's part, with the names of the communicators its records name. Returns
// false with *error set if it cannot. At most one part is written: a later call does nothing.
bool write_part(Ending ending, int detail, const std::map<int, std::string>& comm_names,
                std::optional<ClockOffset> end, std::string* error);

// The same from a signal handler: async-signal-safe, no names.
void write_part_from_signal(Ending ending, int signal);

// While the process has been idle a while (the deadlock watch says when): the part as it
// stands, in case the process is then killed with no chance to write one (a launcher may
// follow SIGTERM with SIGKILL within a second, or send SIGKILL alone). A part written for the
// process's end replaces it. Only if there are records since the last one, and at most every
// 5 seconds. From one thread at a time (the deadlock watch's).
void write_idle_part(const std::map<int, std::string>& comm_names);

// The contexts the records name a communicator by, with a vrank that knows each.
std::map<int, int> named_contexts();

// Reads a part; nullopt with *error set if the file is not one.
std::optional<Part> read_part(const std::string& path, std::string* error);

}  // namespace bamboo::trace
