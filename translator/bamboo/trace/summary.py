"""Where the time went: the figures docs/tracing.md ("What the summary reports") defines, from
a trace's model. Times are in microseconds, as in the trace.

Per process: the workers' time (workers x the run's length, up to where the trace ends) split
into compute (``task`` spans), idle (``idle`` spans) and runtime (the rest); messages and
bytes it sent within itself and to other processes; and the achieved overlap: of the union of
the flights (send to arrival) of the messages between it and other processes, the share its
``task`` spans cover (None without such messages).

Per task (vrank): compute, wait (``wait`` spans) and ready, the rest of its life from its first
to its last span. Then the longest waits, and the job's overlap: the processes' overlapped
flight time over their flight time, both summed. Of a job that did not end well: where each
process stopped and why, the processes that left no part, and the waits that never ended."""
from __future__ import annotations

import heapq
from collections import defaultdict
from collections.abc import Iterator
from dataclasses import dataclass

from .chrome import Message, Process, Span, Stop, Trace
from .intervals import Interval, intersection, length, union


@dataclass(frozen=True)
class ProcessFigures:
    process: int
    workers: int
    worker_time: float
    compute: float
    idle: float
    runtime: float
    messages_within: int
    bytes_within: int
    messages_to_others: int
    bytes_to_others: int
    one_sided: int       # operations its tasks issued (MPI_Put, MPI_Get...), to any target
    one_sided_bytes: int
    flight: float        # the union of its remote messages' flights
    overlapped: float    # the part of `flight` some task of the process computed in
    overlap: float | None


@dataclass(frozen=True)
class TaskFigures:
    vrank: int
    process: int | None  # the process otherData.bamboo lists it in
    life: float
    compute: float
    wait: float
    ready: float


@dataclass(frozen=True)
class Wait:
    vrank: int
    name: str            # the MPI call, or "firing rule"
    waits_for: str       # args.for: what it waited for
    begin: float
    duration: float


@dataclass(frozen=True)
class Summary:
    file: str
    events: int
    vf: int
    truncated_at: float | None
    processes: list[ProcessFigures]
    tasks: list[TaskFigures]
    longest_waits: list[Wait]
    overlap: float | None  # the job's
    stopped: dict[int, Stop]  # by process, those that stopped before the job's end
    missing: list[int]        # processes that left no part of the trace
    unended_waits: list[Wait]  # still waiting when their process stopped, by vrank
    filter: str | None  # --bamboo-trace-filter, where one cut the trace
    time_unit: str = "us"


def spans(process: Process, cat: str) -> Iterator[Span]:
    return (span for lane in process.lanes for span in lane.spans if span.cat == cat)


def share(part: float, whole: float) -> float | None:
    return part / whole if whole > 0 else None


def process_figures(trace: Trace, process: Process, sent: list[Message],
                    flights: list[Interval]) -> ProcessFigures:
    """`sent`: the messages and one-sided operations the process sent; `flights`: those of the
    messages and operations between it and other processes, either way."""
    compute = sum(span.duration for span in spans(process, "task"))
    idle = sum(span.duration for span in spans(process, "idle"))
    start, stop = process.run
    if trace.truncated_at is not None:  # the workers' time the trace has spans for
        stop = min(stop, trace.truncated_at)
    worker_time = process.workers * max(0.0, stop - start)
    operations = [m for m in sent if m.category == "rma"]
    within = [m for m in sent if m.category != "rma" and not m.remote]
    to_others = [m for m in sent if m.category != "rma" and m.remote]
    computing = union((span.begin, span.end) for span in spans(process, "task"))
    in_flight = union(flights)
    overlapped = length(intersection(in_flight, computing))
    return ProcessFigures(
        process.number, process.workers, worker_time, compute, idle,
        runtime=worker_time - compute - idle,
        messages_within=len(within), bytes_within=sum(m.args["bytes"] for m in within),
        messages_to_others=len(to_others), bytes_to_others=sum(m.args["bytes"] for m in to_others),
        one_sided=len(operations), one_sided_bytes=sum(m.args["bytes"] for m in operations),
        flight=length(in_flight), overlapped=overlapped,
        overlap=share(overlapped, length(in_flight)))


def task_figures(trace: Trace) -> list[TaskFigures]:
    owner = {vrank: p.number for p in trace.processes for vrank in p.vranks}
    spent: dict[int, dict[str, float]] = defaultdict(lambda: {"task": 0.0, "wait": 0.0})
    first: dict[int, float] = {}
    last: dict[int, float] = {}
    for process in trace.processes:
        for cat in ("task", "wait"):
            for span in spans(process, cat):
                vrank = span.args["vrank"]
                spent[vrank][cat] += span.duration
                first[vrank] = min(first.get(vrank, span.begin), span.begin)
                last[vrank] = max(last.get(vrank, span.end), span.end)
    tasks = []
    for vrank in sorted(spent):
        life = last[vrank] - first[vrank]
        compute, wait = spent[vrank]["task"], spent[vrank]["wait"]
        tasks.append(TaskFigures(vrank, owner.get(vrank), life, compute, wait,
                                 ready=max(0.0, life - compute - wait)))
    return tasks


def longest_waits(trace: Trace, count: int) -> list[Wait]:
    waits = (span for process in trace.processes for span in spans(process, "wait"))
    return [Wait(span.args["vrank"], span.name, span.args["for"], span.begin, span.duration)
            for span in heapq.nlargest(count, waits, key=lambda span: (span.duration, -span.begin))]


def unended_waits(trace: Trace) -> list[Wait]:
    return sorted((Wait(span.args["vrank"], span.name, span.args["for"], span.begin, span.duration)
                   for process in trace.processes for span in spans(process, "wait")
                   if span.args.get("unended")), key=lambda w: w.vrank)


def summarize(trace: Trace, file: str, longest: int = 10) -> Summary:
    sent: dict[int, list[Message]] = defaultdict(list)
    flights: dict[int, list[Interval]] = defaultdict(list)
    for m in trace.messages:
        sent[m.send.process].append(m)
        if m.remote:  # in flight for both processes
            flights[m.send.process].append((m.send.ts, m.arrival.ts))
            flights[m.arrival.process].append((m.send.ts, m.arrival.ts))
    processes = [process_figures(trace, p, sent[p.number], flights[p.number])
                 for p in trace.processes]
    job_overlap = share(sum(p.overlapped for p in processes), sum(p.flight for p in processes))
    stopped = {p.number: p.stopped for p in trace.processes if p.stopped is not None}
    return Summary(file, trace.events, trace.vf, trace.truncated_at, processes,
                   task_figures(trace), longest_waits(trace, longest), job_overlap,
                   stopped, list(trace.missing), unended_waits(trace), trace.filter)
