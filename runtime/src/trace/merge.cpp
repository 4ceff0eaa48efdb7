#include "trace/merge.hpp"

#include <dirent.h>

#include <algorithm>
#include <cstring>
#include <limits>
#include <map>
#include <string>
#include <optional>
#include <tuple>
#include <unordered_map>

#include "trace/chrome_writer.hpp"
#include "trace/otf2_writer.hpp"

namespace bamboo::trace {
namespace {

struct Send {
    int process = 0;
    int worker = -1;
    int from = 0, to = 0, source = 0, tag = 0, comm = 0;
    std::uint64_t bytes = 0;
    std::int64_t time = 0;
};

struct Arrival {
    int process = 0;
    int to = 0, source = 0, tag = 0, comm = 0;
    std::uint64_t bytes = 0;
    std::int64_t time = 0;
};

// One process's spans, sends and arrivals, on its own clock until aligned.
struct ProcessTrace {
    ProcessSummary summary;
    std::vector<Span> spans;
    std::vector<Send> sends;
    std::vector<Arrival> arrivals;
    std::vector<Send> rma_sends;  // one-sided operations issued, and applied
    std::vector<Arrival> rma_arrivals;
    std::map<int, std::string> comm_names;  // by context, as its tasks name them
    std::int64_t full_at = -1;
    std::int64_t first = std::numeric_limits<std::int64_t>::max();
    std::int64_t last = std::numeric_limits<std::int64_t>::min();
    // --bamboo-trace-filter's time window: what it sent outside is left out.
    std::int64_t window_from = std::numeric_limits<std::int64_t>::min();
    std::int64_t window_to = std::numeric_limits<std::int64_t>::max();

    // Every time through `to` (a time of this process's clock to another clock).
    template <class Map>
    void retime(const Map& to) {
        summary.run_begin = to(summary.run_begin);
        summary.run_end = to(summary.run_end);
        summary.stopped_at = to(summary.stopped_at);
        for (Span& s : spans) s.begin = to(s.begin), s.end = to(s.end);
        for (auto* list : {&sends, &rma_sends})
            for (Send& s : *list) s.time = to(s.time);
        for (auto* list : {&arrivals, &rma_arrivals})
            for (Arrival& a : *list) a.time = to(a.time);
        if (full_at >= 0) full_at = to(full_at);
        first = to(first);
        last = to(last);
        // An open end stays open.
        if (window_from != std::numeric_limits<std::int64_t>::min()) window_from = to(window_from);
        if (window_to != std::numeric_limits<std::int64_t>::max()) window_to = to(window_to);
    }
};

// Process 0's clock at `time` of the part's process: shifted by the offset measured at the end
// of a job that ended well, else by the one measured at start. A shift keeps every duration
// on the process's own clock exact; correcting drift from two measurements would scale them
// by the measurements' error over the run (a microsecond over a run of milliseconds).
std::int64_t on_process_0_clock(const PartHeader& h, std::int64_t time) {
    return time - (h.end.at >= 0 ? h.end.offset : h.start.offset);
}

// Turns one process's records, in time order, into its trace: spans (a task running on a worker,
// a worker idle, a task waiting, an engine round), sends and arrivals.
class PartBuilder {
public:
    explicit PartBuilder(const Part& part)
        : facts_(part.header), running_(static_cast<std::size_t>(part.header.workers)),
          idle_(static_cast<std::size_t>(part.header.workers)) {
        const int p = facts_.process;
        trace_.summary.process = p;
        trace_.summary.workers = facts_.workers;
        for (int t = 0; t < facts_.vf; ++t) trace_.summary.vranks.push_back(p * facts_.vf + t);
        trace_.summary.ending = facts_.ending;
        trace_.summary.detail = facts_.detail;
        trace_.summary.stopped_at = facts_.stopped_at;
        trace_.comm_names = part.comm_names;
        if (facts_.filter[0]) {
            trace_.window_from = facts_.window_from;
            trace_.window_to = facts_.window_to;
        }
    }

    ProcessTrace& trace() { return trace_; }

    void add(const Event& e, const Buffer& buffer) {
        trace_.first = std::min(trace_.first, e.time);
        trace_.last = std::max(trace_.last, e.type == EventType::engine_round ? static_cast<std::int64_t>(e.value) : e.time);
        switch (e.type) {
            case EventType::worker_start: run_begin_ = std::min(run_begin_, e.time); break;
            case EventType::worker_stop: run_end_ = std::max(run_end_, e.time); break;
            case EventType::task_begin: if (on_worker(e)) open(running_[e.lane], SpanKind::task, e); break;
            case EventType::task_end: if (on_worker(e)) close(running_[e.lane], e.time); break;
            case EventType::idle_begin: if (on_worker(e)) open(idle_[e.lane], SpanKind::idle, e); break;
            case EventType::idle_end: if (on_worker(e)) close(idle_[e.lane], e.time); break;
            case EventType::wait_begin: wait_begin(e, buffer); break;
            case EventType::wake:
                if (waiting_.count(e.vrank)) woken_[e.vrank] = e.time;
                break;
            case EventType::wait_end: wait_end(e); break;
            case EventType::engine_round: {
                Span s;
                s.lane = Lane{facts_.process, LaneKind::engine, 0};
                s.kind = SpanKind::engine;
                s.begin = e.time;
                s.end = static_cast<std::int64_t>(e.value);
                trace_.spans.push_back(s);
                break;
            }
            case EventType::send:
                name_of(e.comm);
                trace_.sends.push_back(Send{facts_.process, e.lane, e.vrank, e.peer, e.source, e.tag, e.comm, e.value, e.time});
                break;
            case EventType::arrival:
                trace_.arrivals.push_back(Arrival{facts_.process, e.vrank, e.source, e.tag, e.comm, e.value, e.time});
                break;
            // One-sided: the origin vrank stands for the sender's rank, the operation for the tag.
            case EventType::rma_issue:
                name_of(e.comm);
                trace_.rma_sends.push_back(Send{facts_.process, e.lane, e.vrank, e.peer, e.vrank, e.tag, e.comm, e.value, e.time});
                break;
            case EventType::rma_apply:
                trace_.rma_arrivals.push_back(Arrival{facts_.process, e.peer, e.vrank, e.tag, e.comm, e.value, e.time});
                break;
        }
    }

    // What the end of recording left open ends with the process's last record, or where it
    // was stopped; a wait left open never ended.
    void finish(bool empty) {
        if (empty) trace_.first = trace_.last = facts_.stopped_at;
        if (facts_.ending != Ending::finished) trace_.last = std::max(trace_.last, facts_.stopped_at);
        for (auto& slot : running_) close(slot, trace_.last);
        for (auto& slot : idle_) close(slot, trace_.last);
        for (auto& [vrank, s] : waiting_) {
            s.end = trace_.last;
            s.unended = true;
            trace_.spans.push_back(std::move(s));
        }
        trace_.summary.run_begin = run_begin_ <= run_end_ ? run_begin_ : trace_.first;
        trace_.summary.run_end = run_begin_ <= run_end_ ? run_end_ : trace_.last;
        // With a time window, the workers' time is the window's.
        trace_.summary.run_begin = std::clamp(trace_.summary.run_begin, trace_.window_from, trace_.window_to);
        trace_.summary.run_end = std::clamp(trace_.summary.run_end, trace_.summary.run_begin, trace_.window_to);
    }

private:
    // A part written from a signal handler has no names: its communicators go by number.
    const std::string& name_of(int context) {
        auto found = trace_.comm_names.find(context);
        if (found == trace_.comm_names.end())
            found = trace_.comm_names.emplace(context, "communicator context " + std::to_string(context)).first;
        return found->second;
    }

    bool on_worker(const Event& e) const { return e.lane >= 0 && e.lane < facts_.workers; }

    void open(std::optional<Span>& slot, SpanKind kind, const Event& e) {
        slot = Span{};
        slot->lane = Lane{facts_.process, LaneKind::worker, e.lane};
        slot->kind = kind;
        slot->begin = e.time;
        slot->vrank = e.vrank;
    }

    void close(std::optional<Span>& slot, std::int64_t at) {
        if (!slot) return;
        slot->end = at;
        trace_.spans.push_back(std::move(*slot));
        slot.reset();
    }

    void wait_begin(const Event& e, const Buffer& buffer) {
        Span s;
        s.lane = Lane{facts_.process, LaneKind::task, e.vrank};
        s.kind = SpanKind::wait;
        s.begin = e.time;
        s.vrank = e.vrank;
        s.wait = e.wait;
        // Two NUL-ended strings at e.value; a damaged part's offset gets none.
        bool whole = e.value + 2 <= buffer.text.size() && buffer.text.back() == '\0';
        const char* text = whole ? buffer.text.data() + e.value : "\0";
        s.call = text;
        s.what = text + s.call.size() + 1;
        s.peer = e.peer;
        s.tag = e.tag;
        if (e.wait == WaitKind::receive || e.wait == WaitKind::send) s.comm = name_of(e.comm);
        waiting_[e.vrank] = std::move(s);
    }

    void wait_end(const Event& e) {
        auto found = waiting_.find(e.vrank);
        if (found == waiting_.end()) return;
        // The wait ends when the task is made runnable; until a worker takes it, it is ready.
        auto wake = woken_.find(e.vrank);
        bool was_woken = wake != woken_.end() && wake->second >= found->second.begin;
        found->second.end = was_woken ? wake->second : e.time;
        if (wake != woken_.end()) woken_.erase(wake);
        trace_.spans.push_back(std::move(found->second));
        waiting_.erase(found);
    }

    const PartHeader& facts_;
    ProcessTrace trace_;
    std::vector<std::optional<Span>> running_;  // by worker
    std::vector<std::optional<Span>> idle_;     // by worker
    std::unordered_map<int, Span> waiting_;     // by vrank
    std::unordered_map<int, std::int64_t> woken_;  // when a waiting task was last made runnable
    std::int64_t run_begin_ = std::numeric_limits<std::int64_t>::max();
    std::int64_t run_end_ = std::numeric_limits<std::int64_t>::min();
};

ProcessTrace convert(const Part& part) {
    struct Item {
        const Event* event;
        const Buffer* buffer;
    };
    std::vector<Item> items;
    PartBuilder builder(part);
    ProcessTrace& trace = builder.trace();
    for (const Buffer& b : part.buffers) {
        for (const Event& e : b.events) items.push_back({&e, &b});
        if (b.full_at >= 0 && (trace.full_at < 0 || b.full_at < trace.full_at)) trace.full_at = b.full_at;
    }
    // A thread's records are in time order but for engine rounds, stamped with their start.
    std::stable_sort(items.begin(), items.end(), [](const Item& a, const Item& b) { return a.event->time < b.event->time; });
    for (const Item& item : items) builder.add(*item.event, *item.buffer);
    builder.finish(items.empty());
    trace.retime([&](std::int64_t t) { return on_process_0_clock(part.header, t); });
    return std::move(trace);
}

// The n-th send of each stream (receiver, sender's rank, communicator, tag) is the n-th arrival;
// with `one_sided`, the n-th operation issued of each (target, origin, window, operation) is
// the n-th applied.
std::vector<Message> match_messages(const std::vector<ProcessTrace>& traces, int vf, bool one_sided) {
    using Stream = std::tuple<int, int, int, int>;
    std::map<Stream, std::vector<const Send*>> sends;
    std::map<Stream, std::vector<const Arrival*>> arrivals;
    std::map<int, const std::map<int, std::string>*> names_of;  // by process
    for (const ProcessTrace& trace : traces) {
        names_of[trace.summary.process] = &trace.comm_names;
        for (const Send& s : one_sided ? trace.rma_sends : trace.sends)
            sends[{s.to, s.source, s.comm, s.tag}].push_back(&s);
        for (const Arrival& a : one_sided ? trace.rma_arrivals : trace.arrivals)
            arrivals[{a.to, a.source, a.comm, a.tag}].push_back(&a);
    }
    auto by_time = [](const auto* a, const auto* b) { return a->time < b->time; };
    std::vector<Message> messages;
    for (auto& [stream, sent] : sends) {
        auto found = arrivals.find(stream);
        if (found == arrivals.end()) continue;
        std::vector<const Arrival*>& arrived = found->second;
        std::stable_sort(sent.begin(), sent.end(), by_time);
        std::stable_sort(arrived.begin(), arrived.end(), by_time);
        for (std::size_t i = 0; i < std::min(sent.size(), arrived.size()); ++i) {
            const Send& s = *sent[i];
            const Arrival& a = *arrived[i];
            Message m;
            m.sent_on = s.worker >= 0 ? Lane{s.process, LaneKind::worker, s.worker} : Lane{s.process, LaneKind::engine, 0};
            m.arrived_on = Lane{a.process, LaneKind::task, a.to};
            m.from_vrank = s.from;
            m.to_vrank = s.to;
            m.tag = s.tag;
            if (one_sided) m.rma = static_cast<RmaOp>(s.tag);
            const std::map<int, std::string>& names = *names_of[s.from / vf];
            auto name = names.find(s.comm);
            if (name != names.end()) m.comm = name->second;
            m.bytes = s.bytes;
            m.sent = s.time;
            // Clocks aligned to within a round trip: an arrival never shows before its send.
            m.arrived = std::max(a.time, s.time);
            messages.push_back(std::move(m));
        }
    }
    return messages;
}

// The part of the job most parts are of (the newest, between equals); the others are left out.
std::uint64_t job_of(const std::vector<Part>& parts) {
    std::map<std::uint64_t, std::pair<std::size_t, std::int64_t>> count_and_newest;
    for (const Part& part : parts) {
        auto& [count, newest] = count_and_newest[part.header.job];
        ++count;
        newest = std::max(newest, part.header.stopped_at);
    }
    auto best = std::max_element(count_and_newest.begin(), count_and_newest.end(),
                                 [](const auto& a, const auto& b) { return a.second < b.second; });
    return best->first;
}

}  // namespace

JobTrace assemble_job(const std::vector<Part>& parts) {
    JobTrace job;
    std::vector<ProcessTrace> traces;
    for (const Part& part : parts) traces.push_back(convert(part));
    if (!parts.empty()) {
        job.vf = parts.front().header.vf;
        job.filter = parts.front().header.filter;
        std::vector<bool> present(static_cast<std::size_t>(parts.front().header.processes), false);
        for (const Part& part : parts) present[static_cast<std::size_t>(part.header.process)] = true;
        for (std::size_t p = 0; p < present.size(); ++p)
            if (!present[p]) job.missing.push_back(static_cast<int>(p));
    }
    std::int64_t cut = std::numeric_limits<std::int64_t>::max();
    for (const ProcessTrace& trace : traces)
        if (trace.full_at >= 0) cut = std::min(cut, trace.full_at);
    if (cut != std::numeric_limits<std::int64_t>::max()) {
        job.truncated_at = cut;
        for (ProcessTrace& trace : traces) {
            auto after = [cut](const auto& x) { return x.time > cut; };
            auto cut_list = [&after](auto& list) { list.erase(std::remove_if(list.begin(), list.end(), after), list.end()); };
            cut_list(trace.sends);
            cut_list(trace.arrivals);
            cut_list(trace.rma_sends);
            cut_list(trace.rma_arrivals);
            trace.spans.erase(
                std::remove_if(trace.spans.begin(), trace.spans.end(), [cut](const Span& s) { return s.begin > cut; }),
                trace.spans.end());
            for (Span& s : trace.spans) s.end = std::min(s.end, cut);
            trace.summary.run_end = std::min(trace.summary.run_end, cut);
        }
    }
    std::int64_t origin = std::numeric_limits<std::int64_t>::max();
    for (const ProcessTrace& trace : traces) origin = std::min({origin, trace.first, trace.summary.run_begin});
    for (ProcessTrace& trace : traces) trace.retime([origin](std::int64_t t) { return t - origin; });
    if (job.truncated_at) *job.truncated_at -= origin;

    job.messages = match_messages(traces, job.vf, false);
    std::vector<Message> operations = match_messages(traces, job.vf, true);
    job.messages.insert(job.messages.end(), operations.begin(), operations.end());
    // Matched first, so that each keeps its place in its stream; then those sent outside the
    // sender's time window are left out.
    std::map<int, const ProcessTrace*> by_process;
    for (const ProcessTrace& trace : traces) by_process[trace.summary.process] = &trace;
    auto outside = [&](const Message& m) {
        const ProcessTrace& sender = *by_process[m.sent_on.process];
        return m.sent < sender.window_from || m.sent > sender.window_to;
    };
    job.messages.erase(std::remove_if(job.messages.begin(), job.messages.end(), outside), job.messages.end());
    std::sort(job.messages.begin(), job.messages.end(), [](const Message& a, const Message& b) { return a.sent < b.sent; });
    for (ProcessTrace& trace : traces) {
        job.processes.push_back(trace.summary);
        for (Span& s : trace.spans) job.spans.push_back(std::move(s));
    }
    std::sort(job.processes.begin(), job.processes.end(),
              [](const ProcessSummary& a, const ProcessSummary& b) { return a.process < b.process; });
    auto lane_key = [](const Span& s) { return std::make_tuple(s.lane.process, s.lane.kind, s.lane.index, s.begin); };
    std::stable_sort(job.spans.begin(), job.spans.end(),
                     [&](const Span& a, const Span& b) { return lane_key(a) < lane_key(b); });
    // Spans of one lane were recorded by one thread at a time, but a task's wait may begin on
    // one worker and end on another, whose clocks agree only to within a few nanoseconds.
    for (std::size_t i = 1; i < job.spans.size(); ++i) {
        Span& s = job.spans[i];
        const Span& before = job.spans[i - 1];
        if (!(before.lane == s.lane)) continue;
        s.begin = std::max(s.begin, before.end);
        s.end = std::max(s.end, s.begin);
    }
    return job;
}

std::size_t merge_trace(const std::string& directory, const std::string& file, const Say& say) {
    std::vector<Part> parts;
    if (DIR* listing = ::opendir(directory.c_str())) {
        while (const dirent* entry = ::readdir(listing)) {
            std::string name = entry->d_name;
            if (name.size() < 7 || name[0] != 'p' || name.compare(name.size() - 5, 5, ".part") != 0) continue;
            std::string error;
            if (std::optional<Part> part = read_part(directory + "/" + name, &error)) parts.push_back(std::move(*part));
            else say(error);
        }
        ::closedir(listing);
    } else {
        say("cannot read " + directory + ": " + std::strerror(errno));
        return 0;
    }
    if (parts.empty()) {
        say("no part of a trace in " + directory);
        return 0;
    }
    std::uint64_t job = job_of(parts);
    auto other_job = [job](const Part& part) { return part.header.job != job; };
    for (const Part& part : parts)
        if (other_job(part)) say("left out " + part_path(directory, part.header.process) + ": another job's part");
    parts.erase(std::remove_if(parts.begin(), parts.end(), other_job), parts.end());

    JobTrace trace = assemble_job(parts);
    for (int process : trace.missing)
        say("process " + std::to_string(process) + " left no part in " + directory +
            " (killed before it could write one, or its file system is not this one)");
    if (trace.truncated_at)
        say("a thread's trace buffer filled up " + std::to_string(static_cast<double>(*trace.truncated_at) / 1e6) +
            " ms into the run: the trace ends there (--bamboo-trace-events sets the records per thread)");
    std::string error;
    if (!write_chrome(trace, file, &error)) {
        say(error);
        return 0;
    }
    if (!write_otf2(trace, file + ".otf2", &error)) say("no OTF2 archive: " + error);
    return parts.size();
}

}  // namespace bamboo::trace
