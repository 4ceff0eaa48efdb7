"""The summary's figures (bamboo/trace/summary.py) on synthetic traces whose figures are
worked out by hand in trace_builder.py, and its text (report.py)."""
from __future__ import annotations

import pytest
from trace_builder import TraceBuilder, two_processes

from bamboo.trace.chrome import build, problems
from bamboo.trace.report import size, text
from bamboo.trace.summary import summarize


def summary_of(builder: TraceBuilder, longest: int = 10):
    data = builder.data()
    assert problems(data) == []
    return summarize(build(data), "t.json", longest)


def test_processes_time_messages_and_overlap():
    s = summary_of(two_processes())
    assert [(p.process, p.workers, p.worker_time, p.compute, p.idle, p.runtime)
            for p in s.processes] == [(0, 2, 240, 45, 187, 8), (1, 1, 120, 48, 70, 2)]
    assert [(p.messages_within, p.bytes_within, p.messages_to_others, p.bytes_to_others)
            for p in s.processes] == [(1, 100, 1, 4096), (0, 0, 1, 1024)]
    assert [(p.flight, p.overlapped, p.overlap) for p in s.processes] == [(80, 20, 0.25)] * 2
    assert s.overlap == 0.25


def test_tasks_compute_wait_and_ready():
    s = summary_of(two_processes())
    assert [(t.vrank, t.process, t.life, t.compute, t.wait, t.ready) for t in s.tasks] == [
        (0, 0, 90, 30, 58, 2), (1, 0, 90, 15, 70, 5), (2, 1, 70, 18, 50, 2), (3, 1, 30, 30, 0, 0)]


def test_longest_waits_first_and_as_many_as_asked():
    s = summary_of(two_processes(), longest=2)
    assert [(w.vrank, w.name, w.waits_for, w.begin, w.duration) for w in s.longest_waits] == [
        (1, "MPI_Recv", "message from vrank 2, tag 7", 40, 70),
        (0, "MPI_Waitall", "2 requests", 20, 58)]


def test_job_overlap_weighs_processes_by_their_flight_time():
    # p0 <-> p1 in flight [0, 100], p2 -> p0 in [200, 300]. p0 computes through [0, 100]: 100 of
    # its 200; p1 not at all: 0 of 100; p2 in [200, 250]: 50 of 100. The job: 150 of 400, not
    # the processes' mean (1/3).
    t = TraceBuilder(vf=1)
    for p in range(3):
        t.process(p, 1, [p], (0, 300))
    t.task(0, 0, 0, 0, 100).task(2, 0, 2, 200, 250)
    t.message((0, 0), 0, 0, 1, 1, 100, 8).message((2, 0), 2, 200, 0, 0, 300, 8)
    s = summary_of(t)
    assert [(p.flight, p.overlapped, p.overlap) for p in s.processes] == [
        (200, 100, 0.5), (100, 0, 0.0), (100, 50, 0.5)]
    assert s.overlap == 150 / 400


def test_without_messages_between_processes_there_is_no_overlap():
    t = TraceBuilder(vf=2).process(0, 1, [0, 1], (0, 10))
    t.task(0, 0, 0, 0, 4).task(0, 0, 1, 4, 10).message((0, 0), 0, 2, 0, 1, 3, 16)
    s = summary_of(t)
    assert (s.processes[0].messages_within, s.processes[0].overlap, s.overlap) == (1, None, None)
    assert "Job: no message between processes" in text(s)
    assert s.processes[0].flight == 0


def test_ready_is_never_negative():
    # A wait recorded on the vrank's lane while a worker still shows the task running: compute
    # and wait add up to more than the task's life.
    t = TraceBuilder(vf=1).process(0, 1, [0], (0, 10))
    t.task(0, 0, 0, 0, 10).wait(0, 0, 5, 10)
    (task,) = summary_of(t).tasks
    assert (task.life, task.compute, task.wait, task.ready) == (10, 10, 5, 0)


def test_a_truncated_trace_counts_the_workers_time_up_to_its_end():
    t = TraceBuilder(vf=1, truncated_at=40).process(0, 2, [0], (10, 100))
    t.task(0, 0, 0, 10, 40).idle(0, 1, 10, 40)
    (p,) = summary_of(t).processes
    assert (p.worker_time, p.compute, p.idle, p.runtime) == (60, 30, 30, 0)


def test_text_has_the_tables_in_order_with_ms_and_percentages():
    report = text(summary_of(two_processes()))
    titles = ["Processes (ms;", "Tasks (ms;", "Longest waits (ms)", "Job: achieved overlap 25.0%"]
    positions = [report.index(title) for title in titles]
    assert positions == sorted(positions)
    p0 = next(line for line in report.splitlines() if line.startswith("p0 "))
    assert p0.split() == ["p0", "2", "0.240", "0.045", "18.8%", "0.187", "77.9%", "0.008", "3.3%",
                          "1", "(100", "B)", "1", "(4.0", "KiB)", "25.0%"]
    assert "(of 0.160 ms in flight between processes, summed over them, 0.040 covered" in report


def test_a_truncated_summary_says_so():
    t = TraceBuilder(vf=1, truncated_at=40).process(0, 1, [0], (0, 100)).task(0, 0, 0, 0, 40)
    assert "truncated at 0.040 ms" in text(summary_of(t))


@pytest.mark.parametrize("count, shown", [(0, "0 B"), (1023, "1023 B"), (1024, "1.0 KiB"),
                                          (1536 * 1024, "1.5 MiB"), (3 * 1024 ** 4, "3072.0 GiB")])
def test_sizes_in_binary_units(count, shown):
    assert size(count) == shown


def stopped_job() -> TraceBuilder:
    """p0 stopped by the deadlock report at 100 us with vrank 0's receive never ended; p1
    left no part."""
    t = TraceBuilder(vf=1).process(0, 1, [0], (0, 100))
    t.processes[0]["stopped"] = {"at": 100, "why": "deadlock report"}
    t.task(0, 0, 0, 0, 10).idle(0, 0, 10, 100)
    t.span(0, 2000, 10, 100, "MPI_Recv", "wait",
           {"vrank": 0, "kind": "receive", "for": "a message from vrank 1, tag 99", "unended": True})
    return t


def test_a_stopped_job_says_where_each_process_stopped_and_which_waits_never_ended():
    t = stopped_job()
    data = t.data()
    data["otherData"]["bamboo"]["missing"] = [1]
    assert problems(data) == []
    s = summarize(build(data), "t.json")
    assert {p: stop.why for p, stop in s.stopped.items()} == {0: "deadlock report"}
    assert s.missing == [1]
    assert [(w.vrank, w.waits_for, w.begin) for w in s.unended_waits] == [(0, "a message from vrank 1, tag 99", 10)]
    report = text(s)
    assert report.index("The job did not end well") < report.index("Processes (ms;")
    assert "p0 stopped at 0.100 ms: deadlock report" in report
    assert "p1 left no part of the trace" in report
    assert "0      0.010  MPI_Recv  a message from vrank 1, tag 99" in report


def test_a_job_that_ended_well_says_nothing_of_stops():
    report = text(summary_of(two_processes()))
    assert "did not end well" not in report and "never ended" not in report


def test_a_filtered_summary_says_so():
    t = TraceBuilder(vf=1).process(0, 1, [0], (0, 100)).task(0, 0, 0, 0, 40)
    data = t.data()
    data["otherData"]["bamboo"]["filter"] = "kinds=task"
    assert problems(data) == []
    assert "filtered (--bamboo-trace-filter kinds=task)" in text(summarize(build(data), "t.json"))


def test_rounding_never_shows_a_negative_zero():
    from bamboo.trace.report import ms, percent
    assert ms(-0.0001) == "0.000" and percent(-0.0001) == "0.0%"
    assert ms(-2.0) == "-0.002"
