"""End to end, under load: Bamboo keeps MPI's order and its own bounds when processes are slow,
receivers late and the machine busy, and never reports a deadlock that is not one."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

from harness import WORKER_MODES, run_bamboo

PROGRAMS_DIR = Path(__file__).parent / "programs"
SLOW_PEER = [PROGRAMS_DIR / "slow_peer.c"]
STORM = [PROGRAMS_DIR / "storm.c"]
# More messages from one process to another than 16-bit sequence numbers tell apart.
STORM_COUNT = 40_000
IN_FLIGHT = re.compile(r"at most (\d+) MPI requests in flight to one process")


@pytest.fixture
def busy_machine():
    """Two processes that spin for as long as the test runs, so that the runtime's threads are
    preempted at any point, as on a loaded machine."""
    hogs = [subprocess.Popen([sys.executable, "-c", "while True: pass"]) for _ in range(2)]
    yield
    for hog in hogs:
        hog.kill()
        hog.wait()


# Two producers in one process flood a consumer in the other that starts 1 s late: 80,000
# messages queue up between the two processes, which must arrive in MPI's order (they once
# came overtaken and lost when 200,000 sends were in flight in MPI at once).
STORMS = [(mode, "specific") for mode in WORKER_MODES] + [("comm-thread", "any"), ("single-thread", "any")]


@pytest.mark.parametrize("mode,receives", STORMS)
def test_a_storm_on_a_late_receiver_keeps_mpi_order(mode, receives, busy_machine, builds, ground_truth):
    args = [str(STORM_COUNT), "1024", "1000", receives]
    expected = ground_truth("storm", STORM, 4, args)
    _, bamboo = builds("storm", STORM)
    run = run_bamboo(bamboo, 2, 2, args, ["--bamboo-stats", *WORKER_MODES[mode]])
    assert run.returncode == 0, run.stderr
    assert run.lines() == expected.lines()
    in_flight = [int(n) for n in IN_FLIGHT.findall(run.stderr)]
    assert len(in_flight) == 2, run.stderr
    assert max(in_flight) < 2**16


# The last rank is busy for 3 s while every task of the other process waits for it, six times
# the deadlock timeout: the watch must see that a process still runs.
@pytest.mark.parametrize("how,mode", [("compute", "comm-thread"), ("sleep", "comm-thread"), ("io", "comm-thread"),
                                      ("sleep", "two-workers-no-comm-thread"), ("sleep", "single-thread")])
def test_a_busy_process_is_no_deadlock(how, mode, builds, ground_truth):
    args = [how, "3"]
    expected = ground_truth("slow_peer", SLOW_PEER, 4, args)
    _, bamboo = builds("slow_peer", SLOW_PEER)
    run = run_bamboo(bamboo, 2, 2, args, ["--bamboo-deadlock-timeout", "0.5", *WORKER_MODES[mode]])
    assert run.returncode == 0, run.stderr
    assert "deadlock" not in run.stderr
    assert run.lines() == expected.lines()
