#include "trace/chrome_writer.hpp"

#include <signal.h>

#include <algorithm>
#include <cerrno>
#include <cinttypes>
#include <cstdio>
#include <cstring>
#include <limits>
#include <map>
#include <memory>
#include <tuple>

namespace bamboo::trace {
namespace {

const char* wait_kind_name(WaitKind kind) {
    switch (kind) {
        case WaitKind::receive: return "receive";
        case WaitKind::send: return "send";
        case WaitKind::requests: return "requests";
        case WaitKind::collective: return "collective";
        case WaitKind::firing_rule: return "firing rule";
        case WaitKind::other: break;
    }
    return "other";
}

std::string quoted(const std::string& text) {
    std::string out = "\"";
    for (char c : text) {
        switch (c) {
            case '"': out += "\\\""; break;
            case '\\': out += "\\\\"; break;
            case '\n': out += "\\n"; break;
            case '\t': out += "\\t"; break;
            default:
                if (static_cast<unsigned char>(c) < 0x20) {
                    char escaped[8];
                    std::snprintf(escaped, sizeof escaped, "\\u%04x", c);
                    out += escaped;
                } else {
                    out += c;
                }
        }
    }
    return out + "\"";
}

// Microseconds, the format's unit, to the nanosecond.
std::string micros(std::int64_t ns) {
    char text[32];
    std::snprintf(text, sizeof text, "%" PRId64 ".%03d", ns / 1000, static_cast<int>(ns % 1000));
    return text;
}

// Lanes as thread ids: a process's workers first, then its comm engine, then its tasks.
class LaneIds {
public:
    explicit LaneIds(const JobTrace& job) {
        for (const ProcessSummary& p : job.processes) {
            int id = 0;
            for (int w = 0; w < p.workers; ++w) add(Lane{p.process, LaneKind::worker, w}, id++, "worker " + std::to_string(w));
            add(Lane{p.process, LaneKind::engine, 0}, id++, "comm engine");
            for (int v : p.vranks) add(Lane{p.process, LaneKind::task, v}, id++, "vrank " + std::to_string(v));
        }
    }
    int id(const Lane& lane) const { return ids_.at(key(lane)); }
    const std::vector<std::pair<Lane, std::string>>& named() const { return named_; }

private:
    static std::tuple<int, LaneKind, int> key(const Lane& l) { return {l.process, l.kind, l.index}; }
    void add(const Lane& lane, int id, std::string name) {
        ids_[key(lane)] = id;
        named_.emplace_back(lane, std::move(name));
    }
    std::map<std::tuple<int, LaneKind, int>, int> ids_;
    std::vector<std::pair<Lane, std::string>> named_;
};

class EventList {
public:
    explicit EventList(std::FILE* out) : out_(out) {}
    void add(const std::string& event) {
        std::fputs(first_ ? "\n" : ",\n", out_);
        std::fputs(event.c_str(), out_);
        first_ = false;
    }

private:
    std::FILE* out_;
    bool first_ = true;
};

std::string at(const Lane& lane, const LaneIds& ids, std::int64_t time) {
    return "\"pid\":" + std::to_string(lane.process) + ",\"tid\":" + std::to_string(ids.id(lane)) +
           ",\"ts\":" + micros(time);
}

std::string span_name(const Span& s) {
    switch (s.kind) {
        case SpanKind::task: return "vrank " + std::to_string(s.vrank);
        case SpanKind::idle: return "idle";
        case SpanKind::wait: return s.call;
        case SpanKind::engine: break;
    }
    return "progress";
}

const char* span_category(SpanKind kind) {
    switch (kind) {
        case SpanKind::task: return "task";
        case SpanKind::idle: return "idle";
        case SpanKind::wait: return "wait";
        case SpanKind::engine: break;
    }
    return "engine";
}

std::string span_args(const Span& s) {
    if (s.kind == SpanKind::task) return ",\"args\":{\"vrank\":" + std::to_string(s.vrank) + "}";
    if (s.kind != SpanKind::wait) return "";
    std::string args = ",\"args\":{\"vrank\":" + std::to_string(s.vrank) + ",\"kind\":\"" + wait_kind_name(s.wait) +
                       "\",\"for\":" + quoted(s.what);
    if (s.peer != kNoPeer) args += std::string(s.wait == WaitKind::send ? ",\"dest\":" : ",\"source\":") + std::to_string(s.peer);
    if (s.tag != kNoTag) args += ",\"tag\":" + std::to_string(s.tag);
    if (!s.comm.empty()) args += ",\"comm\":" + quoted(s.comm);
    if (s.unended) args += ",\"unended\":true";
    return args + "}";
}

std::string message_args(const Message& m) {
    std::string tag = m.rma ? std::string() : ",\"tag\":" + std::to_string(m.tag);
    std::string comm = m.rma ? ",\"window\":" : ",\"comm\":";
    return ",\"args\":{\"from\":" + std::to_string(m.from_vrank) + ",\"to\":" + std::to_string(m.to_vrank) + tag +
           comm + quoted(m.comm) + ",\"bytes\":" + std::to_string(m.bytes) +
           ",\"remote\":" + (m.remote() ? "true" : "false") + "}";
}

// A one-sided operation's flow is named by its MPI call (MPI_Rput is a put, MPI_Fetch_and_op a
// get-accumulate).
const char* rma_name(RmaOp op) {
    switch (op) {
        case RmaOp::put: return "MPI_Put";
        case RmaOp::get: return "MPI_Get";
        case RmaOp::accumulate: return "MPI_Accumulate";
        case RmaOp::get_accumulate: return "MPI_Get_accumulate";
        case RmaOp::compare_and_swap: break;
    }
    return "MPI_Compare_and_swap";
}

std::string signal_name(int number) {
    switch (number) {
        case SIGTERM: return "SIGTERM";
        case SIGINT: return "SIGINT";
        case SIGSEGV: return "SIGSEGV";
        case SIGBUS: return "SIGBUS";
        case SIGFPE: return "SIGFPE";
        case SIGILL: return "SIGILL";
    }
    return "signal " + std::to_string(number);
}

// Why a process's recording ended before the job's end, as the trace says it.
std::string stop_reason(const ProcessSummary& p) {
    switch (p.ending) {
        case Ending::finished: break;
        case Ending::deadlock: return "deadlock report";
        case Ending::runtime_error: return "runtime error";
        case Ending::aborted: return "MPI_Abort (error code " + std::to_string(p.detail) + ")";
        case Ending::fault: return "fault (" + signal_name(p.detail) + ")";
        case Ending::terminated: return signal_name(p.detail);
        case Ending::idle: return "last seen idle (then killed without warning?)";
    }
    return "";
}

std::string other_data(const JobTrace& job) {
    std::string text = "{\"bamboo\":{\"version\":1,\"vf\":" + std::to_string(job.vf) + ",\"truncated_at\":" +
                       (job.truncated_at ? micros(*job.truncated_at) : std::string("null")) +
                       ",\"filter\":" + (job.filter.empty() ? std::string("null") : quoted(job.filter)) +
                       ",\"processes\":[";
    for (std::size_t i = 0; i < job.processes.size(); ++i) {
        const ProcessSummary& p = job.processes[i];
        text += std::string(i ? "," : "") + "{\"process\":" + std::to_string(p.process) +
                ",\"workers\":" + std::to_string(p.workers) + ",\"vranks\":[";
        for (std::size_t v = 0; v < p.vranks.size(); ++v) text += (v ? "," : "") + std::to_string(p.vranks[v]);
        text += "],\"run\":[" + micros(p.run_begin) + "," + micros(p.run_end) + "],\"stopped\":";
        text += p.ending == Ending::finished
                    ? std::string("null")
                    : "{\"at\":" + micros(p.stopped_at) + ",\"why\":" + quoted(stop_reason(p)) + "}";
        text += "}";
    }
    text += "],\"missing\":[";
    for (std::size_t i = 0; i < job.missing.size(); ++i) text += (i ? "," : "") + std::to_string(job.missing[i]);
    return text + "]}}";
}

}  // namespace

bool write_chrome(const JobTrace& job, const std::string& path, std::string* error) {
    std::unique_ptr<std::FILE, int (*)(std::FILE*)> file(std::fopen(path.c_str(), "w"), std::fclose);
    if (!file) {
        *error = "cannot write " + path + ": " + std::strerror(errno);
        return false;
    }
    std::FILE* out = file.get();
    LaneIds ids(job);
    std::fputs("{\"displayTimeUnit\":\"ns\",\"otherData\":", out);
    std::fputs(other_data(job).c_str(), out);
    std::fputs(",\"traceEvents\":[", out);
    EventList events(out);
    for (const ProcessSummary& p : job.processes)
        events.add("{\"ph\":\"M\",\"name\":\"process_name\",\"pid\":" + std::to_string(p.process) +
                   ",\"args\":{\"name\":\"process " + std::to_string(p.process) + "\"}}");
    for (const auto& [lane, name] : ids.named()) {
        std::string where = "\"pid\":" + std::to_string(lane.process) + ",\"tid\":" + std::to_string(ids.id(lane));
        events.add("{\"ph\":\"M\",\"name\":\"thread_name\"," + where + ",\"args\":{\"name\":" + quoted(name) + "}}");
        events.add("{\"ph\":\"M\",\"name\":\"thread_sort_index\"," + where +
                   ",\"args\":{\"sort_index\":" + std::to_string(ids.id(lane)) + "}}");
    }
    // Flows start on the sending task's worker lane, inside the task's span, and end on the
    // receiving task's lane: inside its wait if it waited, which is where the arrival belongs
    // in the picture.
    using LaneKey = std::tuple<int, LaneKind, int>;
    auto key = [](const Lane& l) { return LaneKey{l.process, l.kind, l.index}; };
    std::map<LaneKey, std::vector<std::pair<std::int64_t, std::string>>> flows;
    std::uint64_t id = 0;
    for (const Message& m : job.messages) {
        std::string name = m.rma ? rma_name(*m.rma) : "message", category = m.rma ? "rma" : "message";
        std::string common = ",\"id\":" + std::to_string(++id) + ",\"name\":\"" + name + "\",\"cat\":\"" + category +
                             "\"" + message_args(m) + "}";
        flows[key(m.sent_on)].emplace_back(m.sent, "{\"ph\":\"s\"," + at(m.sent_on, ids, m.sent) + common);
        flows[key(m.arrived_on)].emplace_back(m.arrived,
                                               "{\"ph\":\"f\",\"bp\":\"e\"," + at(m.arrived_on, ids, m.arrived) + common);
    }
    for (auto& [lane, list] : flows)
        std::stable_sort(list.begin(), list.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
    // Lane by lane, in time order: spans come by lane, then time, and never overlap on a lane,
    // so each flow event goes between them or inside one.
    auto span = job.spans.begin();
    for (const auto& [lane, name] : ids.named()) {
        std::vector<std::pair<std::int64_t, std::string>> none;
        auto found = flows.find(key(lane));
        const auto& list = found == flows.end() ? none : found->second;
        std::size_t next = 0;
        auto flows_until = [&](std::int64_t time, bool inclusive) {
            while (next < list.size() && (list[next].first < time || (inclusive && list[next].first == time)))
                events.add(list[next++].second);
        };
        for (; span != job.spans.end() && span->lane == lane; ++span) {
            flows_until(span->begin, false);
            events.add("{\"ph\":\"B\"," + at(span->lane, ids, span->begin) + ",\"name\":" + quoted(span_name(*span)) +
                       ",\"cat\":\"" + span_category(span->kind) + "\"" + span_args(*span) + "}");
            flows_until(span->end, true);
            events.add("{\"ph\":\"E\"," + at(span->lane, ids, span->end) + "}");
        }
        flows_until(std::numeric_limits<std::int64_t>::max(), true);
    }
    std::fputs("\n]}\n", out);
    if (std::ferror(out)) {
        *error = "cannot write " + path + ": " + std::strerror(errno);
        return false;
    }
    return true;
}

}  // namespace bamboo::trace
