"""The timeline's parts (bamboo/trace/plot.py): lane labels, a colour per vrank, what a window
shows, and a drawing of more vranks than tab20 has colours. test_trace_cli.py draws the PNG of
the two-process trace through bin/bamboo."""
from __future__ import annotations

from trace_builder import TraceBuilder, two_processes

from bamboo.trace.chrome import build
from bamboo.trace.plot import draw, message_lines, visible, vrank_colors


def test_lanes_are_labelled_by_process_and_kind():
    trace = build(two_processes().data())
    assert [lane.label for p in trace.processes for lane in p.lanes] == [
        "p0 worker 0", "p0 worker 1", "p0 engine", "p0 vrank 0", "p0 vrank 1",
        "p1 worker 0", "p1 engine", "p1 vrank 2", "p1 vrank 3"]


def test_every_vrank_has_its_own_colour():
    for vranks in (4, 20, 50):
        t = TraceBuilder(vf=vranks).process(0, 1, list(range(vranks)), (0, 10))
        colors = vrank_colors(build(t.data()))
        assert sorted(colors) == list(range(vranks))
        assert len(set(colors.values())) == vranks


def test_neighbouring_vranks_differ_in_hue_not_only_in_shade():
    t = TraceBuilder(vf=2).process(0, 1, [0, 1], (0, 10))
    colors = vrank_colors(build(t.data()))
    # tab20 pairs a dark and a light shade of each hue: 0 and 1 would be two blues.
    red, green, blue, _ = colors[0]
    assert (red, green, blue) != (174 / 255, 199 / 255, 232 / 255)
    assert max(abs(a - b) for a, b in zip(colors[0], colors[1])) > 0.3


def test_a_window_keeps_the_spans_and_messages_it_meets():
    trace = build(two_processes().data())
    worker_0 = trace.processes[0].lanes[0]
    assert [(s.begin, s.end) for s in visible(worker_0.spans, 70, 85)] == [(20, 75), (80, 90)]
    rows = {(lane.process, lane.tid): row for row, lane in
            enumerate(lane for p in trace.processes for lane in p.lanes)}
    # The two messages between processes, from worker lane to vrank lane, in ms; not the one
    # within p0.
    lines = message_lines(trace.messages, rows, 0, 120).get_segments()
    assert [line.tolist() for line in lines] == [[[0.02, 0], [0.06, 7]], [[0.07, 5], [0.11, 4]]]
    assert message_lines(trace.messages, rows, 0, 15).get_segments() == []
    assert len(message_lines(trace.messages, rows, 50, 55).get_segments()) == 1  # in flight


def test_drawing_many_vranks_and_truncated(tmp_path):
    t = TraceBuilder(vf=30, truncated_at=50).process(0, 2, list(range(30)), (0, 60))
    for v in range(30):
        t.task(0, v % 2, v, v, v + 0.5).wait(0, v, v + 0.5, v + 1)
    out = tmp_path / "many.png"
    draw(build(t.data()), "many", out)
    assert out.read_bytes().startswith(b"\x89PNG\r\n\x1a\n")
