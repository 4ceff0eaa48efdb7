"""A trace's timeline as a PNG: a row per lane, top to bottom process by process in the
trace's lane order ("p0 worker 0", "p0 engine", "p0 vrank 3"). Workers' task spans are
coloured by vrank (the same colour for a vrank throughout), their idle spans light grey; the
comm engine's rounds dark grey; waits on the vrank lanes hatched grey. Each message between
processes is a thin line from its send, on the sender's worker lane, to its arrival, on the
receiver's vrank lane.

Each row is one broken_barh (a collection of rectangles), the messages one LineCollection:
a few artists per lane, not one per span, so that 10^5 spans draw in seconds."""
from __future__ import annotations

from pathlib import Path

import numpy as np
from matplotlib import colormaps
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.collections import LineCollection, PolyCollection
from matplotlib.figure import Figure
from matplotlib.lines import Line2D
from matplotlib.patches import Patch

from .chrome import Lane, Message, Span, Trace

IDLE = "#e4e4e4"
ENGINE = "#505050"
WAIT = "#9a9a9a"
MESSAGE = "#1a1a1a"
BAR = 0.8            # a span's height, in rows
# The figure's layout, in inches (fixed: tight_layout would draw every span once more).
WIDTH, LANE, TITLE, LABELS, AXIS, LEGEND = 14, 0.22, 0.4, 1.0, 0.5, 0.3


def vrank_colors(trace: Trace) -> dict[int, tuple]:
    """A colour per vrank: tab20's for up to 20 (its dark shades first, so that neighbours
    differ in hue), else spread over turbo."""
    vranks = sorted({v for p in trace.processes for v in p.vranks} |
                    {s.args["vrank"] for p in trace.processes for lane in p.lanes
                     for s in lane.spans if s.cat == "task"})
    if len(vranks) <= 20:
        return {v: colormaps["tab20"](2 * k % 20 + 2 * k // 20) for k, v in enumerate(vranks)}
    return {v: colormaps["turbo"](k / (len(vranks) - 1)) for k, v in enumerate(vranks)}


def visible(spans: list[Span], begin: float, end: float) -> list[Span]:
    return [s for s in spans if s.end >= begin and s.begin <= end]


def bars(spans: list[Span], row: int, height: float, colors) -> PolyCollection:
    """The spans as rectangles centred on the row, time in ms: one collection built from one
    array (broken_barh converts units and builds a path span by span, 10 times slower)."""
    corners = np.empty((len(spans), 4, 2))
    corners[:, 0:2, 0] = np.array([s.begin for s in spans]).reshape(-1, 1) / 1000
    corners[:, 2:4, 0] = np.array([s.end for s in spans]).reshape(-1, 1) / 1000
    corners[:, (0, 3), 1] = row - height / 2
    corners[:, (1, 2), 1] = row + height / 2
    return PolyCollection(corners, facecolors=colors, linewidths=0)


def lane_bars(row: int, lane: Lane, begin: float, end: float,
              colors: dict[int, tuple]) -> list[PolyCollection]:
    spans = visible(lane.spans, begin, end)
    if lane.kind == "worker":
        idle = [s for s in spans if s.cat == "idle"]
        tasks = [s for s in spans if s.cat == "task"]
        return [bars(idle, row, BAR, IDLE),
                bars(tasks, row, BAR, [colors[s.args["vrank"]] for s in tasks])]
    if lane.kind == "comm engine":
        return [bars(spans, row, BAR, ENGINE)]
    # Half height, to tell waits from work at a glance; not hatched: Agg hatches each
    # rectangle on its own, some 40 times slower than it fills one.
    return [bars(spans, row, BAR / 2, WAIT)]


def message_lines(messages: list[Message], rows: dict[tuple[int, int], int],
                  begin: float, end: float) -> LineCollection:
    lines = [[(m.send.ts / 1000, rows[(m.send.process, m.send.tid)]),
              (m.arrival.ts / 1000, rows[(m.arrival.process, m.arrival.tid)])]
             for m in messages if m.remote and m.send.ts <= end and m.arrival.ts >= begin]
    return LineCollection(lines, colors=MESSAGE, linewidths=0.5, alpha=0.7)


def time_range(trace: Trace) -> tuple[float, float]:
    """The processes' runs, and any span before or after them (the comm engine's, say)."""
    lanes = [lane for p in trace.processes for lane in p.lanes if lane.spans]
    begin = min([p.run[0] for p in trace.processes] + [lane.spans[0].begin for lane in lanes])
    end = max([p.run[1] for p in trace.processes] + [lane.spans[-1].end for lane in lanes])
    return begin, end if trace.truncated_at is None else min(end, trace.truncated_at)


def draw(trace: Trace, title: str, out: str | Path,
         start: float | None = None, stop: float | None = None) -> None:
    """Writes the timeline of `trace` to the PNG `out`; `start` and `stop` (microseconds, as
    the trace's ts) narrow it to a window."""
    first, last = time_range(trace)
    begin = first if start is None else start
    end = last if stop is None else stop
    lanes = [lane for p in trace.processes for lane in p.lanes]
    rows = {(lane.process, lane.tid): row for row, lane in enumerate(lanes)}
    colors = vrank_colors(trace)

    height = TITLE + LANE * len(lanes) + AXIS + LEGEND
    fig = Figure(figsize=(WIDTH, height))
    FigureCanvasAgg(fig)
    ax = fig.add_subplot()
    for row, lane in enumerate(lanes):
        for collection in lane_bars(row, lane, begin, end, colors):
            ax.add_collection(collection, autolim=False)
    ax.add_collection(message_lines(trace.messages, rows, begin, end), autolim=False)

    ax.set_xlim(begin / 1000, end / 1000)
    ax.set_ylim(len(lanes) - 0.5, -0.5)  # the first lane on top
    ax.set_yticks(range(len(lanes)), [lane.label for lane in lanes], fontsize=7)
    ax.set_xlabel("time (ms)")
    ax.grid(axis="x", color="#f0f0f0", linewidth=0.5)
    ax.set_axisbelow(True)
    if trace.truncated_at is not None:
        title += f" (truncated at {trace.truncated_at / 1000:.3f} ms)"
    ax.set_title(title, fontsize=10)
    fig.legend(handles=[Patch(facecolor=colormaps["tab20"](0), label="task (a colour per vrank)"),
                        Patch(facecolor=IDLE, label="idle"),
                        Patch(facecolor=ENGINE, label="comm engine"),
                        Patch(facecolor=WAIT, label="wait (on a vrank's lane)"),
                        Line2D([], [], color=MESSAGE, linewidth=0.8,
                               label="message between processes")],
               loc="lower center", ncols=5, fontsize=7, frameon=False)
    fig.subplots_adjust(left=LABELS / WIDTH, right=1 - 0.2 / WIDTH, top=1 - TITLE / height,
                        bottom=(AXIS + LEGEND) / height)
    fig.savefig(out, dpi=110)
