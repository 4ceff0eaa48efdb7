"""End to end, under load: Bamboo keeps MPI's order and its own bounds when processes are slow,
receivers late and the machine busy, and never reports a deadlock that is not one."""

from __future__ import annotations

import re
import subprocess
import sys
from contextlib import contextmanager
from pathlib import Path

import pytest

from harness import RUN_TIMEOUT, WORKER_MODES, build_bamboo, run_bamboo

PROGRAMS_DIR = Path(__file__).parent / "programs"
SLOW_PEER = [PROGRAMS_DIR / "slow_peer.c"]
STORM = [PROGRAMS_DIR / "storm.c"]
BEYOND_BUDGET = [PROGRAMS_DIR / "beyond_budget.c"]
# More messages from one process to another than 16-bit sequence numbers tell apart.
STORM_COUNT = 40_000
IN_FLIGHT = re.compile(r"at most (\d+) MPI requests in flight to one process")
PEAK_MEMORY = re.compile(r"storm: rank \d+ peak memory (\d+) KiB")


@contextmanager
def busy_machine():
    """Two processes that spin while the block runs, so that the runtime's threads are
    preempted at any point, as on a loaded machine. Only Bamboo runs inside: plain Open MPI's
    ground truth, four busy-polling ranks on two cores, took 1.6 s alone and over 120 s beside
    the spinners."""
    hogs = [subprocess.Popen([sys.executable, "-c", "while True: pass"]) for _ in range(2)]
    try:
        yield
    finally:
        for hog in hogs:
            hog.kill()
            hog.wait()


# Two producers in one process flood a consumer in the other that starts 1 s late: 80,000
# messages queue up between the two processes, which must arrive in MPI's order (they once
# came overtaken and lost when 200,000 sends were in flight in MPI at once).
STORMS = [(mode, "specific") for mode in WORKER_MODES] + [("comm-thread", "any"), ("single-thread", "any")]


@pytest.mark.exclusive  # its spinners would slow other tests' plain MPI runs past their timeout
@pytest.mark.parametrize("mode,receives", STORMS)
def test_a_storm_on_a_late_receiver_keeps_mpi_order(mode, receives, builds, ground_truth):
    args = [str(STORM_COUNT), "1024", "1000", receives]
    # Plain MPI's four ranks poll for 80,000 messages on two cores: beside two CPU hogs that
    # took more than RUN_TIMEOUT.
    expected = ground_truth("storm", STORM, 4, args, timeout=4 * RUN_TIMEOUT)
    _, bamboo = builds("storm", STORM)
    with busy_machine():
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


# 40,000 messages of 1 KiB (47 MB with their bookkeeping) wait for a late consumer in the
# same process or another (whose comm engine thread takes in whatever arrives). With
# --bamboo-buffer-limit 8M no process may hold much more than the limit beyond what an idle
# process takes (16 MB); unbounded, the consumer's process held them all (55-59 MB).
@pytest.mark.parametrize("processes,vf", [(2, 2), (1, 4)], ids=["between-processes", "within-a-process"])
def test_a_storm_stays_within_the_buffer_limit(processes, vf, builds, ground_truth):
    args = ["20000", "1024", "500", "any"]
    expected = ground_truth("storm", STORM, processes * vf, args)
    _, bamboo = builds("storm", STORM)
    run = run_bamboo(bamboo, processes, vf, args, ["--bamboo-buffer-limit", "8M", "--bamboo-comm-thread", "on"])
    assert run.returncode == 0, run.stderr
    assert run.lines() == expected.lines()
    peaks_mib = [int(kib) / 1024 for kib in PEAK_MEMORY.findall(run.stderr)]
    assert len(peaks_mib) == processes * vf, run.stderr
    assert max(peaks_mib) < 16 + 8 + 12, peaks_mib


# Messages of up to 1.2 MB against a 1M limit travel lent (within a process) or announced
# (between processes), never buffered: all of MPI's point-to-point meaning must survive that.
BUDGET_RUNS = [(1, 6, "two-workers"), (3, 2, "two-workers")] + [(2, 3, mode) for mode in WORKER_MODES]


@pytest.mark.parametrize("processes,vf,mode", BUDGET_RUNS, ids=[f"P{p}xVF{v}-{m}" for p, v, m in BUDGET_RUNS])
def test_messages_beyond_the_buffer_limit_keep_mpi_meaning(processes, vf, mode, builds, ground_truth):
    expected = ground_truth("beyond_budget", BEYOND_BUDGET, processes * vf)
    _, bamboo = builds("beyond_budget", BEYOND_BUDGET)
    run = run_bamboo(bamboo, processes, vf, [], ["--bamboo-buffer-limit", "1M", *WORKER_MODES[mode]])
    assert run.returncode == 0, run.stderr
    assert run.lines() == expected.lines()


# Beyond the limit an unmatched send waits for its receive, as MPI allows: a program that
# relied on buffering deadlocks, and the report says why the send waits.
@pytest.mark.parametrize("processes", [1, 2])
def test_an_unreceived_send_beyond_the_limit_is_reported(processes, tmp_path):
    source = tmp_path / "unsafe.c"
    source.write_text(
        "#include <mpi.h>\n#include <stdlib.h>\n"
        "int main(int argc, char **argv) {\n"
        "  int rank, n = 1 << 20; int *v = calloc(n, sizeof(int));\n"
        "  MPI_Init(&argc, &argv); MPI_Comm_rank(MPI_COMM_WORLD, &rank);\n"
        "  if (rank == 0) MPI_Send(v, n, MPI_INT, 1, 1, MPI_COMM_WORLD);\n"
        "  if (rank == 1) MPI_Recv(v, n, MPI_INT, 0, 2, MPI_COMM_WORLD, MPI_STATUS_IGNORE);\n"
        "  MPI_Finalize(); return 0; }\n")
    exe = build_bamboo([source], tmp_path / "unsafe")
    run = run_bamboo(exe, processes, 2 // processes, [], ["--bamboo-buffer-limit", "1M", "--bamboo-deadlock-timeout", "1"],
                     timeout=60)
    assert run.returncode != 0
    assert re.search(r"task vrank 0 waits in MPI_Send at \S*unsafe\.c:6 for its 4194304-byte message to vrank 1 "
                     r"to be received \(the receiving process had no room left to buffer it, see --bamboo-buffer-limit\)",
                     run.stderr), run.stderr
    assert re.search(r"task vrank 1 waits in MPI_Recv at \S*unsafe\.c:7 for a message from vrank 0, tag 2", run.stderr), \
        run.stderr
