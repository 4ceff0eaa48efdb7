#include "trace/gather.hpp"

#include <algorithm>
#include <cstring>
#include <limits>
#include <map>
#include <string>
#include <optional>
#include <tuple>
#include <unordered_map>

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

// One process's part of the trace, on its own clock until aligned.
struct Part {
    ProcessSummary summary;
    std::vector<Span> spans;
    std::vector<Send> sends;
    std::vector<Arrival> arrivals;
    std::map<int, std::string> comm_names;  // by context, as its tasks name them
    std::int64_t full_at = -1;
    std::int64_t first = std::numeric_limits<std::int64_t>::max();
    std::int64_t last = std::numeric_limits<std::int64_t>::min();

    void shift(std::int64_t by) {
        summary.run_begin -= by;
        summary.run_end -= by;
        for (Span& s : spans) s.begin -= by, s.end -= by;
        for (Send& s : sends) s.time -= by;
        for (Arrival& a : arrivals) a.time -= by;
        if (full_at >= 0) full_at -= by;
        first -= by;
        last -= by;
    }
};

// Turns one process's records, in time order, into its part: spans (a task running on a worker,
// a worker idle, a task waiting, an engine round), sends and arrivals.
class PartBuilder {
public:
    PartBuilder(const ProcessFacts& facts, const CommNamer& comm_name)
        : facts_(facts), comm_name_(comm_name), running_(static_cast<std::size_t>(facts.workers)),
          idle_(static_cast<std::size_t>(facts.workers)) {
        const int p = facts.process;
        part_.summary.process = p;
        part_.summary.workers = facts.workers;
        for (int t = 0; t < facts.vf; ++t) part_.summary.vranks.push_back(p * facts.vf + t);
    }

    Part& part() { return part_; }

    void add(const Event& e, const Buffer& buffer) {
        part_.first = std::min(part_.first, e.time);
        part_.last = std::max(part_.last, e.type == EventType::engine_round ? static_cast<std::int64_t>(e.value) : e.time);
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
                part_.spans.push_back(s);
                break;
            }
            case EventType::send:
                name_of(e.vrank, e.comm);
                part_.sends.push_back(Send{facts_.process, e.lane, e.vrank, e.peer, e.source, e.tag, e.comm, e.value, e.time});
                break;
            case EventType::arrival:
                part_.arrivals.push_back(Arrival{facts_.process, e.vrank, e.source, e.tag, e.comm, e.value, e.time});
                break;
        }
    }

    // What the end of recording left open ends with the process's last record.
    void finish(bool empty) {
        for (auto& slot : running_) close(slot, part_.last);
        for (auto& slot : idle_) close(slot, part_.last);
        for (auto& [vrank, s] : waiting_) {
            s.end = part_.last;
            part_.spans.push_back(std::move(s));
        }
        if (empty) part_.first = part_.last = 0;
        part_.summary.run_begin = run_begin_ <= run_end_ ? run_begin_ : part_.first;
        part_.summary.run_end = run_begin_ <= run_end_ ? run_end_ : part_.last;
    }

private:
    const std::string& name_of(int vrank, int context) {
        auto found = part_.comm_names.find(context);
        if (found == part_.comm_names.end()) found = part_.comm_names.emplace(context, comm_name_(vrank, context)).first;
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
        part_.spans.push_back(std::move(*slot));
        slot.reset();
    }

    void wait_begin(const Event& e, const Buffer& buffer) {
        Span s;
        s.lane = Lane{facts_.process, LaneKind::task, e.vrank};
        s.kind = SpanKind::wait;
        s.begin = e.time;
        s.vrank = e.vrank;
        s.wait = e.wait;
        const char* text = buffer.text.data() + e.value;
        s.call = text;
        s.what = text + s.call.size() + 1;
        s.peer = e.peer;
        s.tag = e.tag;
        if (e.wait == WaitKind::receive || e.wait == WaitKind::send) s.comm = name_of(e.vrank, e.comm);
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
        part_.spans.push_back(std::move(found->second));
        waiting_.erase(found);
    }

    const ProcessFacts& facts_;
    const CommNamer& comm_name_;
    Part part_;
    std::vector<std::optional<Span>> running_;  // by worker
    std::vector<std::optional<Span>> idle_;     // by worker
    std::unordered_map<int, Span> waiting_;     // by vrank
    std::unordered_map<int, std::int64_t> woken_;  // when a waiting task was last made runnable
    std::int64_t run_begin_ = std::numeric_limits<std::int64_t>::max();
    std::int64_t run_end_ = std::numeric_limits<std::int64_t>::min();
};

Part convert(std::vector<Buffer>& buffers, const ProcessFacts& facts, const CommNamer& comm_name) {
    struct Item {
        const Event* event;
        const Buffer* buffer;
    };
    std::vector<Item> items;
    PartBuilder builder(facts, comm_name);
    Part& part = builder.part();
    for (const Buffer& b : buffers) {
        for (const Event& e : b.events) items.push_back({&e, &b});
        if (b.full_at >= 0 && (part.full_at < 0 || b.full_at < part.full_at)) part.full_at = b.full_at;
    }
    // A thread's records are in time order but for engine rounds, stamped with their start.
    std::stable_sort(items.begin(), items.end(), [](const Item& a, const Item& b) { return a.event->time < b.event->time; });
    for (const Item& item : items) builder.add(*item.event, *item.buffer);
    builder.finish(items.empty());
    return std::move(part);
}

// --- between processes ----------------------------------------------------------------

// This process's clock minus process 0's: process 0 asks each process for its clock several
// times and keeps the answer of the shortest round trip, taken as read at its middle.
std::int64_t offset_to_process_0(MPI_Comm comm) {
    constexpr int kRounds = 8;
    int me = 0, count = 1;
    MPI_Comm_rank(comm, &me);
    MPI_Comm_size(comm, &count);
    std::vector<std::int64_t> offsets(static_cast<std::size_t>(count), 0);
    for (int p = 1; p < count; ++p) {
        std::int64_t best = std::numeric_limits<std::int64_t>::max();
        for (int round = 0; round < kRounds; ++round) {
            if (me == 0) {
                std::int64_t asked = now(), theirs = 0;
                MPI_Send(nullptr, 0, MPI_BYTE, p, 0, comm);
                MPI_Recv(&theirs, 1, MPI_INT64_T, p, 0, comm, MPI_STATUS_IGNORE);
                std::int64_t answered = now();
                if (answered - asked < best) {
                    best = answered - asked;
                    offsets[static_cast<std::size_t>(p)] = theirs - (asked + answered) / 2;
                }
            } else if (me == p) {
                MPI_Recv(nullptr, 0, MPI_BYTE, 0, 0, comm, MPI_STATUS_IGNORE);
                std::int64_t mine = now();
                MPI_Send(&mine, 1, MPI_INT64_T, 0, 0, comm);
            }
        }
    }
    std::int64_t mine = 0;
    MPI_Scatter(offsets.data(), 1, MPI_INT64_T, &mine, 1, MPI_INT64_T, 0, comm);
    return mine;
}

// A part as bytes, and back: both directions walk the same fields in the same order
// (transfer()), so that they cannot disagree.
class Packer {
public:
    template <class T>
    void field(const T& value) {
        const char* raw = reinterpret_cast<const char*>(&value);
        bytes_.insert(bytes_.end(), raw, raw + sizeof value);
    }
    void field(const std::string& text) {
        field(static_cast<std::uint64_t>(text.size()));
        bytes_.insert(bytes_.end(), text.begin(), text.end());
    }
    template <class T>
    void sequence(const std::vector<T>& items) {
        field(static_cast<std::uint64_t>(items.size()));
        for (const T& item : items) transfer(*this, item);
    }
    void names(const std::map<int, std::string>& by_context) {
        field(static_cast<std::uint64_t>(by_context.size()));
        for (const auto& [context, name] : by_context) {
            field(context);
            field(name);
        }
    }
    std::vector<char>& bytes() { return bytes_; }

private:
    std::vector<char> bytes_;
};

class Unpacker {
public:
    explicit Unpacker(const char* at) : at_(at) {}
    template <class T>
    void field(T& value) {
        std::memcpy(&value, at_, sizeof value);
        at_ += sizeof value;
    }
    void field(std::string& text) {
        std::uint64_t size = 0;
        field(size);
        text.assign(at_, size);
        at_ += size;
    }
    template <class T>
    void sequence(std::vector<T>& items) {
        std::uint64_t count = 0;
        field(count);
        items.resize(count);
        for (T& item : items) transfer(*this, item);
    }
    void names(std::map<int, std::string>& by_context) {
        std::uint64_t count = 0;
        field(count);
        for (std::uint64_t i = 0; i < count; ++i) {
            int context = 0;
            std::string name;
            field(context);
            field(name);
            by_context.emplace(context, std::move(name));
        }
    }

private:
    const char* at_;
};

// Vranks, sends and arrivals are plain data: copied whole.
template <class IO, class Plain>
void transfer(IO& io, Plain& plain) {
    io.field(plain);
}

template <class IO, class S>  // S: Span or const Span
void transfer_span(IO& io, S& s) {
    io.field(s.lane.process);
    io.field(s.lane.kind);
    io.field(s.lane.index);
    io.field(s.kind);
    io.field(s.begin);
    io.field(s.end);
    io.field(s.vrank);
    io.field(s.wait);
    io.field(s.call);
    io.field(s.what);
    io.field(s.peer);
    io.field(s.tag);
    io.field(s.comm);
}

void transfer(Packer& io, const Span& s) { transfer_span(io, s); }
void transfer(Unpacker& io, Span& s) { transfer_span(io, s); }

template <class IO, class P>  // P: Part or const Part
void transfer_part(IO& io, P& part) {
    io.field(part.summary.process);
    io.field(part.summary.workers);
    io.sequence(part.summary.vranks);
    io.field(part.summary.run_begin);
    io.field(part.summary.run_end);
    io.field(part.full_at);
    io.field(part.first);
    io.field(part.last);
    io.sequence(part.spans);
    io.sequence(part.sends);
    io.sequence(part.arrivals);
    io.names(part.comm_names);
}

std::vector<char> pack(const Part& part) {
    Packer out;
    transfer_part(out, part);
    return std::move(out.bytes());
}

Part unpack(const char* bytes) {
    Unpacker in(bytes);
    Part part;
    transfer_part(in, part);
    return part;
}

// Every part's bytes at process 0 (elsewhere: nothing).
std::vector<std::vector<char>> gather_bytes(const std::vector<char>& mine, MPI_Comm comm) {
    int me = 0, count = 1;
    MPI_Comm_rank(comm, &me);
    MPI_Comm_size(comm, &count);
    // Parts of a long run exceed what an int counts in bytes: gathered as 8-byte words.
    using Word = std::uint64_t;
    long long words = static_cast<long long>((mine.size() + sizeof(Word) - 1) / sizeof(Word));
    std::vector<long long> sizes(static_cast<std::size_t>(count));
    MPI_Gather(&words, 1, MPI_LONG_LONG, sizes.data(), 1, MPI_LONG_LONG, 0, comm);
    std::vector<Word> padded(static_cast<std::size_t>(words));
    std::memcpy(padded.data(), mine.data(), mine.size());
    std::vector<std::vector<char>> parts;
    if (me != 0) {
        MPI_Send(padded.data(), static_cast<int>(words), MPI_UINT64_T, 0, 1, comm);
        return parts;
    }
    parts.resize(static_cast<std::size_t>(count));
    for (int p = 0; p < count; ++p) {
        std::vector<Word> words_of(static_cast<std::size_t>(sizes[static_cast<std::size_t>(p)]));
        if (p == 0) words_of = padded;
        else MPI_Recv(words_of.data(), static_cast<int>(words_of.size()), MPI_UINT64_T, p, 1, comm, MPI_STATUS_IGNORE);
        parts[static_cast<std::size_t>(p)].assign(reinterpret_cast<const char*>(words_of.data()),
                                                  reinterpret_cast<const char*>(words_of.data() + words_of.size()));
    }
    return parts;
}

// --- at process 0 ------------------------------------------------------------------------

// The n-th send of each stream (receiver, sender's rank, communicator, tag) is the n-th arrival.
std::vector<Message> match_messages(const std::vector<Part>& parts, int vf) {
    using Stream = std::tuple<int, int, int, int>;
    std::map<Stream, std::vector<const Send*>> sends;
    std::map<Stream, std::vector<const Arrival*>> arrivals;
    for (const Part& part : parts) {
        for (const Send& s : part.sends) sends[{s.to, s.source, s.comm, s.tag}].push_back(&s);
        for (const Arrival& a : part.arrivals) arrivals[{a.to, a.source, a.comm, a.tag}].push_back(&a);
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
            const auto& names = parts[static_cast<std::size_t>(s.from / vf)].comm_names;
            auto name = names.find(s.comm);
            if (name != names.end()) m.comm = name->second;
            m.bytes = s.bytes;
            m.sent = s.time;
            // Clocks aligned to within a round trip: an arrival never shows before its send.
            m.arrived = std::max(a.time, s.time);
            messages.push_back(std::move(m));
        }
    }
    std::sort(messages.begin(), messages.end(), [](const Message& a, const Message& b) { return a.sent < b.sent; });
    return messages;
}

JobTrace assemble(std::vector<Part> parts, int vf) {
    JobTrace job;
    job.vf = vf;
    std::int64_t cut = std::numeric_limits<std::int64_t>::max();
    for (const Part& part : parts)
        if (part.full_at >= 0) cut = std::min(cut, part.full_at);
    if (cut != std::numeric_limits<std::int64_t>::max()) {
        job.truncated_at = cut;
        for (Part& part : parts) {
            auto after = [cut](const auto& x) { return x.time > cut; };
            part.sends.erase(std::remove_if(part.sends.begin(), part.sends.end(), after), part.sends.end());
            part.arrivals.erase(std::remove_if(part.arrivals.begin(), part.arrivals.end(), after), part.arrivals.end());
            part.spans.erase(std::remove_if(part.spans.begin(), part.spans.end(), [cut](const Span& s) { return s.begin > cut; }),
                             part.spans.end());
            for (Span& s : part.spans) s.end = std::min(s.end, cut);
            part.summary.run_end = std::min(part.summary.run_end, cut);
        }
    }
    std::int64_t origin = std::numeric_limits<std::int64_t>::max();
    for (const Part& part : parts) origin = std::min({origin, part.first, part.summary.run_begin});
    for (Part& part : parts) part.shift(origin);
    if (job.truncated_at) *job.truncated_at -= origin;

    job.messages = match_messages(parts, vf);
    for (Part& part : parts) {
        job.processes.push_back(part.summary);
        for (Span& s : part.spans) job.spans.push_back(std::move(s));
    }
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

}  // namespace

std::optional<JobTrace> gather_job(std::vector<Buffer> buffers, const ProcessFacts& facts, const CommNamer& comm_name,
                                   MPI_Comm comm) {
    Part mine = convert(buffers, facts, comm_name);
    buffers.clear();
    mine.shift(offset_to_process_0(comm));
    std::vector<std::vector<char>> bytes = gather_bytes(pack(mine), comm);
    if (facts.process != 0) return std::nullopt;
    std::vector<Part> parts;
    for (const std::vector<char>& b : bytes) parts.push_back(unpack(b.data()));
    return assemble(std::move(parts), facts.vf);
}

}  // namespace bamboo::trace
