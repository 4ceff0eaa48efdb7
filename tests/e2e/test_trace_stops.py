"""End to end: --bamboo-trace of a job that does not end well. Whether it is ended by the
deadlock report, by a fault in a task, by MPI_Abort or by SIGTERM, every process leaves its
part of the trace; `bamboo trace merge` makes a trace of them that `bamboo trace check`
accepts, which holds the messages sent before the stop, says where each process stopped and
why, and names the wait that never ended."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import tempfile
import time
from pathlib import Path

import pytest

from harness import MPI_ENV, REPO, RUN_TIMEOUT, build_bamboo, build_plain, run_bamboo, run_plain

BAMBOO = REPO / "bin" / "bamboo"
PROGRAM = Path(__file__).resolve().parent / "trace" / "stops.c"
PROCESSES, VF = 2, 2
LAST = PROCESSES * VF - 1  # the last vrank, in the last process
STUCK_WAIT = f"a message from vrank {LAST}, tag 99, MPI_COMM_WORLD"
IDLE = "last seen idle (then killed without warning?)"


@pytest.fixture(scope="module")
def binaries(tmp_path_factory) -> dict[str, Path]:
    where = tmp_path_factory.mktemp("stops")
    return {"bamboo": build_bamboo([PROGRAM], where / "bamboo"), "plain": build_plain([PROGRAM], where / "plain")}


def passed_lines(stdout: str) -> list[str]:
    return sorted(line for line in stdout.splitlines() if "passed the token" in line)


def run_until_stuck_then_terminate(exe: Path, trace: Path) -> list[str]:
    """Runs `hang` and sends mpirun SIGTERM once every rank has passed the token on (so rank 0
    waits for good) and every process, idle since, has written its part as it stands; returns
    what the ranks printed."""
    parts = Path(f"{trace}.parts")
    with tempfile.TemporaryDirectory(prefix="e2e-output-") as outputs:
        cmd = ["mpirun", "--oversubscribe", "--output-filename", outputs, "-n", str(PROCESSES), str(exe), "hang",
               "--bamboo-vf", str(VF), "--bamboo-trace", str(trace), "--bamboo-deadlock-timeout", "600"]
        job = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
                               env={**os.environ, **MPI_ENV})

        def printed() -> list[str]:
            return passed_lines("".join(f.read_text() for f in Path(outputs).glob("*/rank.*/stdout")))

        deadline = time.monotonic() + RUN_TIMEOUT
        def idle_parts() -> int:
            return sum((parts / f"p{p}.part").exists() for p in range(PROCESSES))

        while ((len(printed()) < PROCESSES * VF or idle_parts() < PROCESSES) and job.poll() is None
               and time.monotonic() < deadline):
            time.sleep(0.1)
        written = sorted(p.name for p in parts.glob("*")) if parts.exists() else []
        job.send_signal(signal.SIGTERM)
        assert idle_parts() == PROCESSES, f"after {RUN_TIMEOUT} s the idle processes wrote only {written}"
        _, stderr = job.communicate(timeout=RUN_TIMEOUT)
        assert job.returncode != 0, stderr
        return printed()


@pytest.mark.parametrize("how, culprit, why", [
    ("deadlock", None, "deadlock report"),
    ("fault", 1, "fault (SIGSEGV)"),
    ("abort", 1, "MPI_Abort (error code 5)"),
    ("hang", None, None),
])
def test_a_stopped_job_leaves_a_trace_that_says_where_it_stopped_and_what_never_came(
        binaries, tmp_path, how, culprit, why):
    # Plain MPI passes the token round as Bamboo must before it stops.
    plain = run_plain(binaries["plain"], PROCESSES * VF, ["ring"])
    assert plain.returncode == 0, plain.stderr
    trace = tmp_path / "stops.json"
    if how == "hang":
        printed = run_until_stuck_then_terminate(binaries["bamboo"], trace)
    else:
        run = run_bamboo(binaries["bamboo"], PROCESSES, VF, [how],
                         ["--bamboo-trace", str(trace), "--bamboo-deadlock-timeout", "1"])
        assert run.returncode != 0, run.stderr
        assert "bin/bamboo trace merge" in run.stderr  # process 0 says how to get the trace
        printed = passed_lines(run.stdout)
    assert printed == passed_lines(plain.stdout)
    assert not trace.exists()  # nobody merged: the job did not end well

    merged = subprocess.run([str(BAMBOO), "trace", "merge", str(trace)], capture_output=True, text=True,
                            timeout=RUN_TIMEOUT)
    assert merged.returncode == 0, merged.stderr
    checked = subprocess.run([str(BAMBOO), "trace", "check", str(trace)], capture_output=True, text=True,
                             timeout=RUN_TIMEOUT)
    assert checked.returncode == 0, checked.stdout

    data = json.loads(trace.read_text())
    # The token's round, 4 messages of tag 1, happened before the stop and is in the trace.
    sends = [e for e in data["traceEvents"] if e["ph"] == "s" and e["args"]["tag"] == 1]
    assert sorted((e["args"]["from"], e["args"]["to"]) for e in sends) == [(0, 1), (1, 2), (2, 3), (3, 0)]

    summary = json.loads(subprocess.run([str(BAMBOO), "trace", "summary", str(trace), "--json"],
                                        capture_output=True, text=True, check=True, timeout=RUN_TIMEOUT).stdout)
    stopped = {int(process): stop["why"] for process, stop in summary["stopped"].items()}
    assert summary["missing"] == []
    assert set(stopped) == set(range(PROCESSES))
    # The launcher stops the others with SIGTERM. Open MPI's sometimes sends it SIGCONT then
    # SIGKILL, with no SIGTERM between: then what the process wrote while idle is its part.
    by_launcher = {"SIGTERM", IDLE}
    for process, reason in stopped.items():
        if process == culprit or how == "deadlock":
            assert reason == why
        else:
            assert reason in by_launcher
    unended = [(w["vrank"], w["name"], w["waits_for"]) for w in summary["unended_waits"]]
    assert (0, "MPI_Recv", STUCK_WAIT) in unended


def test_merge_of_no_parts_is_a_clear_error(tmp_path):
    merged = subprocess.run([str(BAMBOO), "trace", "merge", str(tmp_path / "none.json")], capture_output=True,
                            text=True, timeout=RUN_TIMEOUT)
    assert merged.returncode == 2
    assert "none.json.parts" in merged.stderr
