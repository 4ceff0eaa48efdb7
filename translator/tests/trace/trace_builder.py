"""Synthetic traces in docs/tracing.md's format, written event by event, for the tests: the
runtime's own traces come from its tests; these have figures one can compute by hand.

Lanes: worker N is tid N, the comm engine tid 1000, vrank V tid 2000 + V; each process's
lanes are named and ordered by metadata. ``data()`` puts the events in time order (an E
before a B at the same time), as the runtime writes them; tests that want a broken trace edit
its ``traceEvents`` after."""
from __future__ import annotations

import json
from pathlib import Path

ENGINE_TID = 1000
VRANK_TID = 2000


class TraceBuilder:
    def __init__(self, vf: int = 2, truncated_at: float | None = None):
        self.vf = vf
        self.truncated_at = truncated_at
        self.processes: list[dict] = []
        self.metadata: list[dict] = []
        self.events: list[dict] = []
        self.messages = 0

    def process(self, number: int, workers: int, vranks: list[int],
                run: tuple[float, float]) -> TraceBuilder:
        self.processes.append({"process": number, "workers": workers, "vranks": vranks,
                               "run": list(run)})
        lanes = ([(w, f"worker {w}") for w in range(workers)] + [(ENGINE_TID, "comm engine")]
                 + [(VRANK_TID + v, f"vrank {v}") for v in vranks])
        for tid, name in lanes:
            self.metadata += [
                {"ph": "M", "pid": number, "tid": tid, "name": "thread_name",
                 "args": {"name": name}},
                {"ph": "M", "pid": number, "tid": tid, "name": "thread_sort_index",
                 "args": {"sort_index": tid}}]
        return self

    def span(self, pid: int, tid: int, begin: float, end: float, name: str, cat: str,
             args: dict | None = None) -> TraceBuilder:
        self.events += [{"ph": "B", "pid": pid, "tid": tid, "ts": begin, "name": name, "cat": cat,
                         "args": args or {}},
                        {"ph": "E", "pid": pid, "tid": tid, "ts": end}]
        return self

    def task(self, pid: int, worker: int, vrank: int, begin: float, end: float) -> TraceBuilder:
        return self.span(pid, worker, begin, end, f"vrank {vrank}", "task", {"vrank": vrank})

    def idle(self, pid: int, worker: int, begin: float, end: float) -> TraceBuilder:
        return self.span(pid, worker, begin, end, "idle", "idle")

    def engine(self, pid: int, begin: float, end: float) -> TraceBuilder:
        return self.span(pid, ENGINE_TID, begin, end, "progress", "engine")

    def wait(self, pid: int, vrank: int, begin: float, end: float, call: str = "MPI_Recv",
             waits_for: str = "a message") -> TraceBuilder:
        return self.span(pid, VRANK_TID + vrank, begin, end, call, "wait",
                         {"vrank": vrank, "kind": "receive", "for": waits_for})

    def message(self, sender: tuple[int, int], source: int, sent: float,
                receiver: int, destination: int, arrives: float, size: int,
                tag: int = 0) -> TraceBuilder:
        """A message from vrank `source`, running on worker sender[1] of process sender[0], to
        vrank `destination` of process `receiver`."""
        self.messages += 1
        args = {"from": source, "to": destination, "tag": tag, "comm": "world", "bytes": size,
                "remote": sender[0] != receiver}
        common = {"cat": "message", "name": "message", "id": self.messages, "args": args}
        self.events += [{"ph": "s", "pid": sender[0], "tid": sender[1], "ts": sent, **common},
                        {"ph": "f", "bp": "e", "pid": receiver, "tid": VRANK_TID + destination,
                         "ts": arrives, **common}]
        return self

    def data(self) -> dict:
        order = sorted(self.events, key=lambda e: (e["ts"], e["ph"] != "E"))
        return {"traceEvents": self.metadata + order, "displayTimeUnit": "ms",
                "otherData": {"bamboo": {"version": 1, "vf": self.vf,
                                         "truncated_at": self.truncated_at,
                                         "processes": self.processes}}}

    def write(self, path: Path, data: dict | None = None) -> Path:
        path.write_text(json.dumps(self.data() if data is None else data))
        return path


def two_processes() -> TraceBuilder:
    """Two processes, two tasks each, run [0, 120] us; the figures, by hand:

    p0, 2 workers: compute 45, idle 187, runtime 240 - 45 - 187 = 8; sent 1 message within
      (100 B), 1 to p1 (4096 B).
    p1, 1 worker: compute 48, idle 70, runtime 120 - 48 - 70 = 2; sent 1 to p0 (1024 B).
    Flights between them: [20, 60] and [70, 110], 80 us for both. p0's tasks compute in
      [30, 40] and [80, 90] of it, p1's in [20, 40]: 20 us each, an overlap of 0.25, the
      job's too.
    Tasks (life, compute, wait, ready): v0 (90, 30, 58, 2); v1 (90, 15, 70, 5);
      v2 (70, 18, 50, 2); v3 (30, 30, 0, 0).
    """
    t = TraceBuilder(vf=2).process(0, 2, [0, 1], (0, 120)).process(1, 1, [2, 3], (0, 120))
    # p0 worker 0: v0 sends to v1 (local) and to v2 (remote), waits, runs again.
    t.task(0, 0, 0, 0, 20).idle(0, 0, 20, 75).task(0, 0, 0, 80, 90).idle(0, 0, 90, 120)
    t.wait(0, 0, 20, 78, call="MPI_Waitall", waits_for="2 requests")
    # p0 worker 1: v1 runs, then waits for v2's message.
    t.idle(0, 1, 0, 30).task(0, 1, 1, 30, 40).idle(0, 1, 40, 112).task(0, 1, 1, 115, 120)
    t.wait(0, 1, 40, 110, waits_for="message from vrank 2, tag 7")
    # p1 worker 0: v2, v3, then v2 again once v0's message is there.
    t.task(1, 0, 2, 0, 10).task(1, 0, 3, 10, 40).idle(1, 0, 40, 60).task(1, 0, 2, 62, 70)
    t.idle(1, 0, 70, 120)
    t.wait(1, 2, 10, 60, waits_for="message from vrank 0, tag 7")
    t.engine(0, 20, 21).engine(1, 60, 61).engine(0, 110, 111)
    t.message((0, 0), 0, 15, 0, 1, 16, 100)
    t.message((0, 0), 0, 20, 1, 2, 60, 4096, tag=7)
    t.message((1, 0), 2, 70, 0, 1, 110, 1024, tag=7)
    return t
