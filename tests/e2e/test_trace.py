"""End to end: --bamboo-trace. The papers' applications traced at 2 processes print what plain
MPI prints, and their traces are well formed (every span closed, every flow with both ends,
times monotonic per lane), hold every task and every message the runtime counted and the
time in tasks --bamboo-stats measured, and read back from OTF2 with otf2-print; a wait shows what it waited for and ends with its message;
a full trace buffer ends the trace cleanly."""

from __future__ import annotations

import json
import re
import subprocess
from pathlib import Path

import pytest

from harness import REPO, build_bamboo, build_plain, run_bamboo, run_plain
from bamboo.trace.chrome import problems

HERE = Path(__file__).resolve().parent / "trace"

# Cannon needs a square number of ranks: 2 processes x VF 8 make its 4 x 4 grid.
APPS = {
    "jacobi3d": (4, ["25", "20"]),
    "cannon": (8, ["192", "2"]),
    "lu": (4, ["128", "16", "2", "column"]),
}

SENT = re.compile(r"bamboo: stats: process \d+ sent point-to-point (\d+) \(\d+ B\) within the process, (\d+) \(\d+ B\) "
                  r"to other processes; collectives (\d+) \(\d+ B\) within the process, (\d+) \(\d+ B\) to other")


TIME = re.compile(r"bamboo: stats: process (\d+) time of \d+ worker\(s\) x \S+ s: tasks (\S+) s")


def span_lengths(trace: dict, process: int, category: str) -> list[float]:
    """The lengths (us) of a process's spans of `category`, from their B and E events."""
    open_at: dict[int, float] = {}
    lengths = []
    for e in trace["traceEvents"]:
        if e.get("pid") != process or e["ph"] not in "BE":
            continue
        if e["ph"] == "B":
            open_at[e["tid"]] = e["ts"] if e.get("cat") == category else None
        elif open_at.get(e["tid"]) is not None:
            lengths.append(e["ts"] - open_at.pop(e["tid"]))
    return lengths


def app_binary(name: str, variant: str) -> Path:
    app = REPO / "apps" / name
    subprocess.run(["make", "--no-print-directory", "-s", "-C", str(app), f"build/{variant}"], check=True)
    return app / "build" / variant


def verification(stdout: str) -> list[str]:
    return [line for line in stdout.splitlines() if line.startswith("verification:")]


def events(trace: dict, **match) -> list[dict]:
    return [e for e in trace["traceEvents"] if all(e.get(k) == v for k, v in match.items())]


@pytest.mark.parametrize("name", sorted(APPS))
def test_an_application_traced_prints_what_mpi_prints_and_its_trace_holds_every_task_and_message(name, tmp_path):
    vf, args = APPS[name]
    plain = run_plain(app_binary(name, "basic"), 2 * vf, args)
    assert plain.returncode == 0, plain.stderr
    trace_file = tmp_path / f"{name}.json"
    run = run_bamboo(app_binary(name, "bamboo"), 2, vf, args, ["--bamboo-trace", str(trace_file), "--bamboo-stats"])
    assert run.returncode == 0, run.stderr
    assert verification(run.stdout) == verification(plain.stdout) != []

    trace = json.loads(trace_file.read_text())
    assert problems(trace) == []
    bamboo = trace["otherData"]["bamboo"]
    assert bamboo["truncated_at"] is None
    assert [p["vranks"] for p in bamboo["processes"]] == [list(range(vf)), list(range(vf, 2 * vf))]
    traced_tasks = {e["args"]["vrank"] for e in events(trace, ph="B", cat="task")}
    assert traced_tasks == set(range(2 * vf))
    # Every message the runtime counted is a flow with both ends, those between processes too.
    counted = [sum(int(n) for n in m) for m in SENT.findall(run.stderr)]
    assert len(counted) == 2
    flows = events(trace, ph="s")
    assert len(flows) == sum(counted)
    remote = sum(int(m[1]) + int(m[3]) for m in SENT.findall(run.stderr))
    assert sum(1 for f in flows if f["args"]["remote"]) == remote > 0
    assert events(trace, ph="B", cat="wait") and events(trace, ph="B", cat="idle")

    # --bamboo-stats times the same task runs the trace records, from the same clock reads: to the
    # microsecond it prints, however busy the machine.
    in_tasks = {int(m[0]): float(m[1]) for m in TIME.findall(run.stderr)}
    assert sorted(in_tasks) == [0, 1]
    for process, seconds in in_tasks.items():
        traced = sum(span_lengths(trace, process, "task")) / 1e6
        assert traced == pytest.approx(seconds, abs=1e-6)

    # The OTF2 archive holds the same spans and messages.
    printed = subprocess.run(["otf2-print", str(trace_file) + ".otf2/traces.otf2"], capture_output=True, text=True,
                             timeout=120)
    assert printed.returncode == 0, printed.stderr
    records = re.findall(r"^(ENTER|LEAVE|MPI_SEND|MPI_RECV) ", printed.stdout, re.M)
    assert records.count("ENTER") == records.count("LEAVE") == len(events(trace, ph="B"))
    assert records.count("MPI_SEND") == records.count("MPI_RECV") == len(flows)


def test_a_wait_says_what_it_waits_for_and_ends_with_its_message(tmp_path):
    program = HERE / "waits.c"
    plain = run_plain(build_plain([program], tmp_path / "plain"), 4)
    trace_file = tmp_path / "waits.json"
    run = run_bamboo(build_bamboo([program], tmp_path / "bamboo"), 2, 2, [], ["--bamboo-trace", str(trace_file)])
    assert run.returncode == 0, run.stderr
    assert run.lines() == plain.lines()
    trace = json.loads(trace_file.read_text())
    assert problems(trace) == []
    waits = [e for e in events(trace, ph="B", cat="wait", name="MPI_Recv") if e["args"]["vrank"] == 0]
    assert len(waits) == 1
    wait = waits[0]
    assert wait["args"]["kind"] == "receive"
    assert (wait["args"]["source"], wait["args"]["tag"], wait["args"]["comm"]) == (3, 7, "MPI_COMM_WORLD")
    assert "vrank 3" in wait["args"]["for"] and "tag 7" in wait["args"]["for"]
    lane = [e for e in trace["traceEvents"] if e["pid"] == wait["pid"] and e.get("tid") == wait["tid"]]
    end = next(e for e in lane[lane.index(wait):] if e["ph"] == "E")
    arrival = [e for e in events(trace, ph="f") if e["args"]["tag"] == 7]
    assert len(arrival) == 1 and arrival[0]["args"]["from"] == 3 and arrival[0]["args"]["remote"]
    # the wait ends with its message; that it began before the message came holds only while the
    # sender's busy loop outlasts the receiver's start (beside two CPU hogs the message came
    # 0.3 ms before the receive began, and the receive still recorded its wait)
    assert wait["ts"] <= end["ts"] and arrival[0]["ts"] <= end["ts"]


ONE_SIDED = re.compile(r"bamboo: stats: process (\d+) one-sided: puts (\d+) \(\d+ B\) within the process, (\d+) "
                       r"\(\d+ B\) to other processes; gets (\d+) \(\d+ B\) within the process, (\d+) \(\d+ B\) to "
                       r"other processes; accumulates (\d+) \(\d+ B\) within the process, (\d+) ")


def test_puts_gets_and_accumulates_are_flows_from_the_origin_to_the_target_and_counted(tmp_path):
    program = HERE / "one_sided.c"
    processes, vf = 2, 2
    ranks = processes * vf
    plain = run_plain(build_plain([program], tmp_path / "plain"), ranks)
    assert plain.returncode == 0, plain.stderr
    trace_file = tmp_path / "one_sided.json"
    run = run_bamboo(build_bamboo([program], tmp_path / "bamboo"), processes, vf, [],
                     ["--bamboo-trace", str(trace_file), "--bamboo-stats"])
    assert run.returncode == 0, run.stderr
    assert run.lines() == plain.lines()
    trace = json.loads(trace_file.read_text())
    assert problems(trace) == []
    operations = {}
    for name in ("MPI_Put", "MPI_Get", "MPI_Accumulate"):
        sends = events(trace, ph="s", cat="rma", name=name)
        arrivals = {e["id"]: e for e in events(trace, ph="f", cat="rma", name=name)}
        operations[name] = sorted((e["args"]["from"], e["args"]["to"]) for e in sends)
        for send in sends:
            arrival = arrivals[send["id"]]
            assert send["pid"] == send["args"]["from"] // vf and arrival["pid"] == send["args"]["to"] // vf
            assert send["args"]["remote"] == (send["pid"] != arrival["pid"])
            assert send["args"]["bytes"] == 4 and send["args"]["window"].startswith("the window from MPI_Win_create")
    assert operations == {"MPI_Put": [(r, (r + 1) % ranks) for r in range(ranks)],
                          "MPI_Get": sorted((r, (r - 1) % ranks) for r in range(ranks)),
                          "MPI_Accumulate": [(r, 0) for r in range(ranks)]}
    # --bamboo-stats counts what the trace shows, per process and by where the target was.
    for m in ONE_SIDED.findall(run.stderr):
        process, counts = int(m[0]), [int(n) for n in m[1:]]
        flows = [e for e in events(trace, ph="s", cat="rma") if e["pid"] == process]
        expected = [sum(1 for e in flows if e["name"] == name and e["args"]["remote"] == remote)
                    for name in ("MPI_Put", "MPI_Get", "MPI_Accumulate") for remote in (False, True)]
        assert counts == expected
    assert len(ONE_SIDED.findall(run.stderr)) == processes


def test_a_filter_keeps_only_its_kinds_and_the_messages_between_its_ranks(tmp_path):
    vf, args = APPS["jacobi3d"]
    plain = run_plain(app_binary("jacobi3d", "basic"), 2 * vf, args)
    whole_file, cut_file = tmp_path / "whole.json", tmp_path / "cut.json"
    whole = run_bamboo(app_binary("jacobi3d", "bamboo"), 2, vf, args, ["--bamboo-trace", str(whole_file)])
    cut = run_bamboo(app_binary("jacobi3d", "bamboo"), 2, vf, args,
                     ["--bamboo-trace", str(cut_file), "--bamboo-trace-filter", "kinds=task+message,ranks=0+4"])
    assert whole.returncode == 0 and cut.returncode == 0, cut.stderr
    assert verification(cut.stdout) == verification(plain.stdout) != []
    whole_trace, trace = json.loads(whole_file.read_text()), json.loads(cut_file.read_text())
    assert problems(trace) == []
    assert trace["otherData"]["bamboo"]["filter"] == "kinds=task+message,ranks=0+4"
    assert {e["cat"] for e in events(trace, ph="B")} == {"task"}
    assert {e["args"]["vrank"] for e in events(trace, ph="B")} == {0, 4}
    kept = [(e["args"]["from"], e["args"]["to"]) for e in events(trace, ph="s")]
    # Every message between 0 and 4 (neighbours in the 2 x 2 x 2 grid, in two processes), and no other.
    assert sorted(kept) == sorted((e["args"]["from"], e["args"]["to"]) for e in events(whole_trace, ph="s")
                                  if {e["args"]["from"], e["args"]["to"]} <= {0, 4})
    assert any(remote for remote in (e["args"]["remote"] for e in events(trace, ph="s")))
    assert len(trace["traceEvents"]) < len(whole_trace["traceEvents"]) / 3


def test_a_bad_filter_is_an_option_error(tmp_path):
    vf, args = APPS["jacobi3d"]
    run = run_bamboo(app_binary("jacobi3d", "bamboo"), 2, vf, args,
                     ["--bamboo-trace", str(tmp_path / "t.json"), "--bamboo-trace-filter", "ranks=4..3"])
    assert run.returncode != 0
    assert "bad value 'ranks=4..3' for --bamboo-trace-filter" in run.stderr


def test_a_full_trace_buffer_ends_the_trace_cleanly_and_says_so(tmp_path):
    trace_file = tmp_path / "short.json"
    run = run_bamboo(app_binary("jacobi3d", "bamboo"), 2, 4, ["25", "20"],
                     ["--bamboo-trace", str(trace_file), "--bamboo-trace-events", "200"])
    assert run.returncode == 0, run.stderr
    assert "trace buffer filled up" in run.stderr
    trace = json.loads(trace_file.read_text())
    assert problems(trace) == []
    cut = trace["otherData"]["bamboo"]["truncated_at"]
    assert cut is not None
    assert all(e["ts"] <= cut for e in trace["traceEvents"] if "ts" in e)
