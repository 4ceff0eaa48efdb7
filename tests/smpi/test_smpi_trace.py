"""A Bamboo run under SimGrid SMPI with --bamboo-trace, as `bench/smpi/run --trace` runs it:
the trace is well formed and its times are the simulated ones (docs/tracing.md).

jacobi3d 32^3, 5 sweeps, on 2 processes x VF 4 of the torus, its computation modelled as
bench/smpi does (no code timed; each point of a sweep charged 10 ns, the runtime's copies of
message data as MPI's, its other work nothing), so that its simulated times are the same at
every run. A simulation takes a
second or so."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from smpi_bench import REPO, bench

sys.path.insert(0, str(REPO / "translator"))
from bamboo.trace import chrome  # noqa: E402

ARGS, PROCESSES, VF = ["32", "5"], 2, 4
ENV = {"APP_SMPI_MODEL": "1", "APP_COST_jacobi3d_sweep": "1e-8", "BAMBOO_VF": str(VF)}


@pytest.fixture(scope="module")
def binary():
    bench.setup()
    bench.build_runtime()
    return bench.build_app("jacobi3d") / "bamboo"


def simulate(binary: Path, workdir: Path, extra_args: list[str]) -> float:
    """The run's `time` line, in simulated seconds."""
    sim, _, verification, missing = bench.smpirun(
        binary, ARGS + extra_args, bench.PLATFORMS["torus"], bench.hostfile("torus", PROCESSES, workdir), PROCESSES,
        bench.SMPI_CFG + bench.MODELLED_CFG, workdir, {**bench.ENV, **ENV}, timeout=300)
    assert "PASSED" in verification and not missing, verification
    return sim


@pytest.fixture(scope="module")
def traced(binary, tmp_path_factory):
    """(the run's reported simulated seconds, its trace)"""
    workdir = tmp_path_factory.mktemp("smpi-trace")
    trace = workdir / "jacobi3d.json"
    return simulate(binary, workdir, ["--bamboo-trace", str(trace)]), trace


def test_the_trace_is_well_formed(traced):
    _, trace = traced
    done = subprocess.run([sys.executable, str(REPO / "bin" / "bamboo"), "trace", "check", str(trace)],
                          capture_output=True, text=True)
    assert done.returncode == 0, done.stdout + done.stderr


def timed(trace: chrome.Trace) -> list[tuple[float, float]]:
    """Each task's stretch of the trace that jacobi3d times (us): from when the task runs again
    after the MPI_Barrier before `start = MPI_Wtime()` (its wait ends when the barrier lets it
    go, but it may then be ready a while, its process's one worker running another task) to
    when, its sweeps done, it waits in app_report_time's MPI_Allreduce, just after its second
    MPI_Wtime and the collective's first sends."""
    stretches = []
    for process in trace.processes:
        ran = [span for lane in process.lanes if lane.kind == "worker" for span in lane.spans if span.cat == "task"]
        for lane in process.lanes:
            if lane.kind != "vrank":
                continue
            waits = [span for span in lane.spans if span.cat == "wait"]
            barrier = max(span.end for span in waits if span.name == "MPI_Barrier")
            vrank = int(lane.name.split()[1])
            begin = min(span.begin for span in ran if span.args["vrank"] == vrank and span.begin >= barrier)
            end = min(span.begin for span in waits if span.name == "MPI_Allreduce" and span.begin >= barrier)
            stretches.append((begin, end))
    assert len(stretches) == PROCESSES * VF
    return stretches


def test_the_trace_is_on_the_simulated_clock(traced):
    # The application's timer (MPI_Wtime, simulated under SMPI) covers the sweeps alone, and
    # it reports the slowest rank's time; the trace covers the whole run, set-up
    # (MPI_Cart_create, the barrier) and verification included. So like is compared with like:
    # the longest of the tasks' timed stretches found in the trace against the time the run
    # reports: 873.7 against 874 us (printed to the microsecond); the whole trace is 882.6 us.
    reported, path = traced
    trace = chrome.load(str(path))
    stretches = timed(trace)
    assert max(end - begin for begin, end in stretches) == pytest.approx(reported * 1e6, rel=0.01)
    # Every process's run contains them.
    first, last = min(begin for begin, _ in stretches), max(end for _, end in stretches)
    for process in trace.processes:
        assert process.run[0] <= first and process.run[1] >= last


def test_tracing_costs_no_simulated_time(binary, traced, tmp_path):
    # Nothing is timed (computation is modelled), so recording is free in simulated time and
    # a traced run of bench/smpi/run reports what an untraced one does.
    reported, _ = traced
    assert simulate(binary, tmp_path, []) == reported
