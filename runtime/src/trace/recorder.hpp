// Recording what the runtime does, for --bamboo-trace (docs/tracing.md).
//
// Every thread that records gets a buffer of its own on its first event, so recording takes
// no lock: it reads the clock and appends a fixed-size record. Buffers are bounded
// (BAMBOO_TRACE_EVENTS records each); a full buffer stops recording on its thread and notes
// when, and the job's trace then ends at the earliest such time (trace/merge.hpp), so that no
// span or message is cut in half.
//
// Off, each recording point costs one test of a flag that never changes while tasks run:
// callers write `if (trace::on(trace::Kind::message)) trace::sent(...)`, naming the kind of record
// (--bamboo-trace-filter may leave a kind out; then its records cost that test alone).
#pragma once

#include <chrono>
#include <climits>
#include <cstddef>
#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

#include "trace/filter.hpp"

namespace bamboo::trace {

// What a waiting task waits for.
enum class WaitKind : std::uint8_t { receive, send, requests, collective, firing_rule, other };

// A one-sided operation.
enum class RmaOp : std::uint8_t { put, get, accumulate, get_accumulate, compare_and_swap };

constexpr int kNoPeer = INT_MIN;
constexpr int kNoTag = INT_MIN;

enum class EventType : std::uint8_t {
    worker_start, worker_stop,  // a worker's run(): lane = worker
    task_begin, task_end,       // a task runs on a worker: lane = worker, vrank
    idle_begin, idle_end,       // lane = worker
    wait_begin, wait_end,       // a task waits: vrank; begin: wait, peer, tag, comm, text
    wake,                       // a waiting task is made runnable: vrank (its wait ends here; it
                                // is then ready, until a worker runs it)
    engine_round,               // a comm engine round that moved something: time = its start, value = its end
    send,                       // vrank sends to peer: lane = worker, source/tag/comm (the envelope), value = bytes
    arrival,                    // a message reaches vrank's mailbox: source/tag/comm, value = bytes
    rma_issue,                  // vrank issues a one-sided operation to peer: lane = worker, tag = its RmaOp,
                                // comm = the window's context, value = bytes
    rma_apply,                  // the operation is applied at its target peer (a get: its data read there)
};

struct Event {
    std::int64_t time;  // steady clock, nanoseconds
    EventType type;
    WaitKind wait;
    std::int32_t lane;
    std::int32_t vrank;
    std::int32_t peer;
    std::int32_t source;
    std::int32_t tag;
    std::int32_t comm;
    // engine_round: its end; send and arrival: bytes; wait_begin: where its text starts in
    // the buffer's text (its call, NUL, what it waits for, NUL).
    std::uint64_t value;
};

// The records of one thread.
struct Buffer {
    std::vector<Event> events;  // its whole capacity reserved at once: no copy while tasks run
    // The waits' texts, each kept once (a loop waits for the same thing again and again), so
    // that text takes no more memory than the events do.
    std::vector<char> text;
    std::unordered_map<std::size_t, std::uint64_t> text_by_hash;
    std::int64_t full_at = -1;  // when the first record was refused, if one was
};

namespace detail {
extern bool enabled;
extern unsigned kinds;  // of trace::Kind
}

// Whether this process records (set once, before tasks run); whether it records records of
// `kind` (--bamboo-trace-filter's kinds), which spares the work of making them.
inline bool on() { return detail::enabled; }
inline bool on(Kind kind) { return detail::enabled && (detail::kinds & static_cast<unsigned>(kind)); }

// Turns recording on, with at most `events_per_thread` records per thread, of what `filter`
// keeps.
void enable(std::size_t events_per_thread, const Filter& filter = Filter{});

// The filter, and its time window on the records' clock: [first, last].
const Filter& recording_filter();
std::pair<std::int64_t, std::int64_t> recorded_window();

// The steady clock, in the records' unit.
std::int64_t now();

void worker_started(int worker);
void worker_stopped(int worker);
// `at`: the worker's own clock read, which --bamboo-stats also uses, so that both time the same
// span (on a busy machine a preemption between two reads would set them apart).
void task_began(int worker, int vrank, std::chrono::steady_clock::time_point at);
void task_ended(int worker, int vrank, std::chrono::steady_clock::time_point at);
void idle_began(int worker);
void idle_ended(int worker);
// `call` and `what` are copied.
void wait_began(int vrank, WaitKind kind, int peer, int tag, int comm, std::string_view call, std::string_view what);
void wait_ended(int vrank);
void woken(int vrank);
void engine_round(std::int64_t began);
// `worker`: the sending task's (-1 if none). `source`, `tag` and `comm` are the envelope's.
void sent(int worker, int from_vrank, int to_vrank, int source, int tag, int comm, std::size_t bytes);
void arrived(int to_vrank, int source, int tag, int comm, std::size_t bytes);
// One-sided: the running task `origin_vrank` (on `worker`) issues `op` to `target_vrank` of the
// window on context `window`, moving `bytes`; the operation is applied at the target. Between
// one origin and one target, operations are applied in the order they were issued.
void rma_issued(int worker, int origin_vrank, int target_vrank, int window, RmaOp op, std::size_t bytes);
void rma_applied(int origin_vrank, int target_vrank, int window, RmaOp op, std::size_t bytes);

// Names a context that the records may name, for the trace (a window's, which is gone by the
// time the process writes its part); context_names() gives them all.
void name_context(int context, std::string_view name);
std::map<int, std::string> context_names();

// Every thread's buffer as it stands, read without the registry's lock, which a signal
// handler cannot take: for writing this process's part (trace/part_file.hpp).
std::size_t buffer_count();
const Buffer& buffer_of_thread(std::size_t index);
// The calling thread's buffer; nullptr if it has recorded nothing.
const Buffer* this_threads_buffer();

// Drops every record so far (each unit test starts from nothing).
void clear();

}  // namespace bamboo::trace
