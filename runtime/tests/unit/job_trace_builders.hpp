// Small jobs' traces written by hand for the trace writers' tests: lanes, spans, waits and
// messages of the model (trace/job_trace.hpp).
#pragma once

#include <cstdint>
#include <string>

#include "trace/job_trace.hpp"

namespace bamboo::trace::test_jobs {

inline Lane worker(int process, int index) { return {process, LaneKind::worker, index}; }
inline Lane engine(int process) { return {process, LaneKind::engine, 0}; }
inline Lane task(int process, int vrank) { return {process, LaneKind::task, vrank}; }

inline Span span(Lane lane, SpanKind kind, std::int64_t begin, std::int64_t end, int vrank = -1) {
    Span s;
    s.lane = lane;
    s.kind = kind;
    s.begin = begin;
    s.end = end;
    s.vrank = vrank;
    return s;
}

inline Span wait(Lane lane, WaitKind kind, const std::string& call, std::int64_t begin, std::int64_t end) {
    Span s = span(lane, SpanKind::wait, begin, end, lane.index);
    s.wait = kind;
    s.call = call;
    return s;
}

inline Message message(Lane sent_on, int from, Lane arrived_on, const std::string& comm, int tag, std::uint64_t bytes,
                       std::int64_t sent, std::int64_t arrived) {
    Message m;
    m.sent_on = sent_on;
    m.arrived_on = arrived_on;
    m.from_vrank = from;
    m.to_vrank = arrived_on.index;
    m.tag = tag;
    m.comm = comm;
    m.bytes = bytes;
    m.sent = sent;
    m.arrived = arrived;
    return m;
}

}  // namespace bamboo::trace::test_jobs
