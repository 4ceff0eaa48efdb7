// The trace of a whole job, as the writers take it (trace/chrome_writer.hpp,
// trace/otf2_writer.hpp): spans on lanes and messages between tasks, every time on process
// 0's clock, in nanoseconds since the job's first event. Merged from every process's part
// (trace/merge.hpp); docs/tracing.md says what each part means.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "trace/part_file.hpp"
#include "trace/recorder.hpp"

namespace bamboo::trace {

// A lane of a process: one of its workers, its comm engine, or one of its tasks (whose
// waits are drawn apart from the workers, for a waiting task holds no worker).
enum class LaneKind : std::uint8_t { worker, engine, task };

struct Lane {
    int process = 0;
    LaneKind kind = LaneKind::worker;
    int index = 0;  // worker: its number in the process; task: its vrank; engine: 0

    bool operator==(const Lane& o) const { return process == o.process && kind == o.kind && index == o.index; }
};

enum class SpanKind : std::uint8_t { task, idle, wait, engine };

struct Span {
    Lane lane;
    SpanKind kind = SpanKind::task;
    std::int64_t begin = 0;
    std::int64_t end = 0;
    int vrank = -1;  // task and wait spans: the task
    // Wait spans only.
    WaitKind wait = WaitKind::other;
    std::string call;  // the MPI call, or "firing rule"
    std::string what;  // what the task waits for, as a deadlock report says it
    // A wait for one message or one send: its peer (the source rank in its communicator, or a
    // send's destination vrank; kNoPeer if none or any), tag (kNoTag) and communicator.
    int peer = kNoPeer;
    int tag = kNoTag;
    std::string comm;
    bool unended = false;  // still waiting when its process stopped
};

// A message from one task to another, point-to-point or a collective's own, or a one-sided
// operation.
struct Message {
    Lane sent_on;  // the sending task's worker
    Lane arrived_on;  // the receiving task's lane
    int from_vrank = 0;
    int to_vrank = 0;
    int tag = 0;
    std::string comm;
    std::uint64_t bytes = 0;
    std::int64_t sent = 0;
    std::int64_t arrived = 0;
    // A one-sided operation: from its origin's call to where it is applied at the target
    // (`tag` unused, `comm` the window's name).
    std::optional<RmaOp> rma;

    bool remote() const { return sent_on.process != arrived_on.process; }
};

struct ProcessSummary {
    int process = 0;
    int workers = 0;
    std::vector<int> vranks;
    std::int64_t run_begin = 0;  // the workers started running tasks
    std::int64_t run_end = 0;    // ... and stopped
    Ending ending = Ending::finished;  // how its recording ended
    int detail = 0;                    // the signal, or MPI_Abort's error code
    std::int64_t stopped_at = 0;
};

struct JobTrace {
    int vf = 1;
    std::vector<ProcessSummary> processes;
    std::vector<Span> spans;  // by lane, then by time; spans on a lane never overlap
    std::vector<Message> messages;  // by send time
    // Set when some thread's buffer filled up: nothing after this time is in the trace.
    std::optional<std::int64_t> truncated_at;
    std::vector<int> missing;  // processes that left no part (killed before they could write it)
    std::string filter;        // --bamboo-trace-filter, as given ("" if none)
};

}  // namespace bamboo::trace
