#include "trace/recorder.hpp"

#include <chrono>
#include <functional>
#include <limits>
#include <memory>
#include <mutex>

#include "util/simulation.hpp"

namespace bamboo::trace {

namespace detail {
bool enabled = false;
unsigned kinds = kAllKinds;
}

namespace {

std::size_t capacity = 0;
std::mutex registry_mutex;
// Every thread's buffer; reserved at enable() so that a signal handler reading it (without
// the lock) never meets it moving.
std::vector<std::unique_ptr<Buffer>> registry;
thread_local Buffer* own = nullptr;

Buffer& buffer() {
    if (!own) {
        std::lock_guard<std::mutex> lock(registry_mutex);
        registry.push_back(std::make_unique<Buffer>());
        own = registry.back().get();
        own->events.reserve(capacity);
    }
    return *own;
}

Filter filter;
bool filtering = false;
std::int64_t window_from = 0, window_to = std::numeric_limits<std::int64_t>::max();  // --bamboo-trace-filter's time=

// Whether the filter keeps a record of `type` at `time`, of the tasks `vrank` and `other`
// (-1: none).
bool kept(EventType type, std::int64_t time, int vrank, int other) {
    Kind kind = Kind::task;
    bool timed = true;  // messages and operations are kept whatever the window (trace/filter.hpp)
    switch (type) {
        case EventType::worker_start:
        case EventType::worker_stop: return true;
        case EventType::task_begin:
        case EventType::task_end: kind = Kind::task; break;
        case EventType::idle_begin:
        case EventType::idle_end: kind = Kind::idle; break;
        case EventType::wait_begin:
        case EventType::wait_end:
        case EventType::wake: kind = Kind::wait; break;
        case EventType::engine_round: kind = Kind::engine; break;
        case EventType::send:
        case EventType::arrival: kind = Kind::message, timed = false; break;
        case EventType::rma_issue:
        case EventType::rma_apply: kind = Kind::rma, timed = false; break;
    }
    if (!filter.keeps(kind) || (timed && (time < window_from || time > window_to))) return false;
    return (vrank < 0 || filter.keeps_rank(vrank)) && (other < 0 || filter.keeps_rank(other));
}

// A new record of this thread (of the tasks `vrank` and `other`, -1 if none), or nullptr once its
// buffer is full or if the filter leaves it out.
Event* record(EventType type, std::int64_t time, int vrank = -1, int other = -1) {
    if (filtering && !kept(type, time, vrank, other)) return nullptr;
    Buffer& b = buffer();
    if (b.events.size() >= capacity) {
        if (b.full_at < 0) b.full_at = time;
        return nullptr;
    }
    Event& e = b.events.emplace_back();
    e = Event{time, type, WaitKind::other, -1, -1, kNoPeer, 0, kNoTag, 0, 0};
    return &e;
}


// Where `call` NUL `what` NUL is in the buffer's text, added if it is not there yet.
std::uint64_t text_of(Buffer& b, std::string_view call, std::string_view what) {
    std::hash<std::string_view> hash;
    std::size_t key = hash(call) * 31 + hash(what);
    auto found = b.text_by_hash.find(key);
    if (found != b.text_by_hash.end()) {
        const char* kept = b.text.data() + found->second;
        if (call == kept && what == kept + call.size() + 1) return found->second;
    }
    std::uint64_t at = b.text.size();
    b.text.insert(b.text.end(), call.begin(), call.end());
    b.text.push_back('\0');
    b.text.insert(b.text.end(), what.begin(), what.end());
    b.text.push_back('\0');
    b.text_by_hash[key] = at;
    return at;
}

void lane_event(EventType type, int worker, int vrank, std::int64_t time) {
    if (Event* e = record(type, time, vrank)) {
        e->lane = worker;
        e->vrank = vrank;
    }
}

void lane_event(EventType type, int worker, int vrank) { lane_event(type, worker, vrank, now()); }

std::int64_t in_records_unit(std::chrono::steady_clock::time_point at) {
    if (kSimulatedMpi) return simulated_now_ns();
    return std::chrono::duration_cast<std::chrono::nanoseconds>(at.time_since_epoch()).count();
}

}  // namespace

void enable(std::size_t events_per_thread, const Filter& kept_by) {
    constexpr std::size_t kThreadsExpected = 4096;
    {
        std::lock_guard<std::mutex> lock(registry_mutex);
        registry.reserve(kThreadsExpected);
    }
    capacity = events_per_thread;
    filter = kept_by;
    filtering = !kept_by.spec.empty();
    detail::kinds = kept_by.kinds;
    std::int64_t start = now();
    auto at = [start](double seconds) {
        return seconds * 1e9 >= static_cast<double>(std::numeric_limits<std::int64_t>::max() - start)
                   ? std::numeric_limits<std::int64_t>::max()
                   : start + static_cast<std::int64_t>(seconds * 1e9);
    };
    window_from = at(filter.from);
    window_to = at(filter.to);
    detail::enabled = true;
}

const Filter& recording_filter() { return filter; }
std::pair<std::int64_t, std::int64_t> recorded_window() { return {window_from, window_to}; }

// Under SimGrid SMPI the simulated clock, so that a trace of a simulation shows where its
// simulated time went.
std::int64_t now() {
    return in_records_unit(std::chrono::steady_clock::now());
}

void worker_started(int worker) { lane_event(EventType::worker_start, worker, -1); }
void worker_stopped(int worker) { lane_event(EventType::worker_stop, worker, -1); }
void task_began(int worker, int vrank, std::chrono::steady_clock::time_point at) {
    lane_event(EventType::task_begin, worker, vrank, in_records_unit(at));
}
void task_ended(int worker, int vrank, std::chrono::steady_clock::time_point at) {
    lane_event(EventType::task_end, worker, vrank, in_records_unit(at));
}
void idle_began(int worker) { lane_event(EventType::idle_begin, worker, -1); }
void idle_ended(int worker) { lane_event(EventType::idle_end, worker, -1); }

void wait_began(int vrank, WaitKind kind, int peer, int tag, int comm, std::string_view call, std::string_view what) {
    Event* e = record(EventType::wait_begin, now(), vrank);
    if (!e) return;
    e->vrank = vrank;
    e->wait = kind;
    e->peer = peer;
    e->tag = tag;
    e->comm = comm;
    e->value = text_of(*own, call, what);
}

void wait_ended(int vrank) { lane_event(EventType::wait_end, -1, vrank); }
void woken(int vrank) { lane_event(EventType::wake, -1, vrank); }

void engine_round(std::int64_t began) {
    if (Event* e = record(EventType::engine_round, began)) e->value = static_cast<std::uint64_t>(now());
}

void sent(int worker, int from_vrank, int to_vrank, int source, int tag, int comm, std::size_t bytes) {
    Event* e = record(EventType::send, now(), from_vrank, to_vrank);
    if (!e) return;
    e->lane = worker;
    e->vrank = from_vrank;
    e->peer = to_vrank;
    e->source = source;
    e->tag = tag;
    e->comm = comm;
    e->value = bytes;
}

void arrived(int to_vrank, int source, int tag, int comm, std::size_t bytes) {
    // The sender is known here by its rank in the communicator only: an arrival is kept for its
    // receiver, and one whose sender the filter leaves out finds no send to match.
    Event* e = record(EventType::arrival, now(), to_vrank);
    if (!e) return;
    e->vrank = to_vrank;
    e->source = source;
    e->tag = tag;
    e->comm = comm;
    e->value = bytes;
}

void rma_issued(int worker, int origin_vrank, int target_vrank, int window, RmaOp op, std::size_t bytes) {
    Event* e = record(EventType::rma_issue, now(), origin_vrank, target_vrank);
    if (!e) return;
    e->lane = worker;
    e->vrank = origin_vrank;
    e->peer = target_vrank;
    e->comm = window;
    e->tag = static_cast<std::int32_t>(op);
    e->value = bytes;
}

void rma_applied(int origin_vrank, int target_vrank, int window, RmaOp op, std::size_t bytes) {
    Event* e = record(EventType::rma_apply, now(), origin_vrank, target_vrank);
    if (!e) return;
    e->vrank = origin_vrank;
    e->peer = target_vrank;
    e->comm = window;
    e->tag = static_cast<std::int32_t>(op);
    e->value = bytes;
}

namespace {
std::mutex names_mutex;
std::map<int, std::string> names;
}  // namespace

void name_context(int context, std::string_view name) {
    std::lock_guard<std::mutex> lock(names_mutex);
    names[context] = name;
}

std::map<int, std::string> context_names() {
    std::lock_guard<std::mutex> lock(names_mutex);
    return names;
}

std::size_t buffer_count() { return registry.size(); }
const Buffer& buffer_of_thread(std::size_t index) { return *registry[index]; }
const Buffer* this_threads_buffer() { return own; }

void clear() {
    std::lock_guard<std::mutex> lock(registry_mutex);
    for (auto& b : registry) {
        b->events.clear();
        b->text.clear();
        b->text_by_hash.clear();
        b->full_at = -1;
    }
}

}  // namespace bamboo::trace
