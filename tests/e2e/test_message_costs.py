"""End to end: what a message costs the runtime beyond moving it (--bamboo-stats). Between
tasks of a process a halo exchange with MPI_Isend must cost exactly one copy per byte: the
receive copies straight from the sender's buffer, rows and vector-typed columns alike; and
the program must still print what plain MPI prints."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from harness import WORKER_MODES, run_bamboo

FACE_EXCHANGE = [Path(__file__).parent / "programs" / "face_exchange.c"]
POINT_TO_POINT = re.compile(r"bytes copied per byte delivered: point-to-point \S+ within the process "
                            r"\((\d+) B delivered, (\d+) B copied\)")


@pytest.mark.parametrize("processes,vf", [(1, 6), (2, 4), (3, 3)])
@pytest.mark.parametrize("mode", WORKER_MODES)
def test_faces_arrive_as_plain_mpi_sends_them(processes, vf, mode, builds, ground_truth):
    args = ["12", "6"]
    expected = ground_truth("face_exchange", FACE_EXCHANGE, processes * vf, args)
    _, bamboo = builds("face_exchange", FACE_EXCHANGE)
    run = run_bamboo(bamboo, processes, vf, args, WORKER_MODES[mode])
    assert run.returncode == 0, run.stderr
    assert run.lines() == expected.lines()


# One worker runs every task, so it is never idle while a lent send waits for its receive:
# every face is copied once, from the sender's grid into the receiver's.
@pytest.mark.parametrize("options", [["--bamboo-workers", "1"], ["--bamboo-single-thread"]], ids=["one-worker", "single-thread"])
def test_a_face_between_tasks_of_a_process_is_copied_once(options, builds):
    _, bamboo = builds("face_exchange", FACE_EXCHANGE)
    run = run_bamboo(bamboo, 1, 6, ["12", "6"], ["--bamboo-stats", *options])
    assert run.returncode == 0, run.stderr
    (delivered, copied), = [tuple(map(int, m)) for m in POINT_TO_POINT.findall(run.stderr)]
    assert delivered == 6 * 6 * 4 * 12 * 8  # tasks x steps x faces x doubles
    assert copied == delivered


# Two processes: each task's window is posted at its evaluation point, columns (vector
# datatypes whose spans interleave) included, so the face its neighbour in the process lent
# it is taken there. The second process sleeps before it sends: were the window's receives
# left to their calls, the first process would go idle with faces still lent, and its worker
# would buy them back (a second copy).
def test_faces_are_taken_at_the_evaluation_point_while_the_process_waits(builds, ground_truth):
    args = ["12", "1", "200"]
    expected = ground_truth("face_exchange", FACE_EXCHANGE, 4, args)
    _, bamboo = builds("face_exchange", FACE_EXCHANGE)
    run = run_bamboo(bamboo, 2, 2, args, ["--bamboo-stats", *WORKER_MODES["single-thread"]])
    assert run.returncode == 0, run.stderr
    assert run.lines() == expected.lines()
    counts = [tuple(map(int, m)) for m in POINT_TO_POINT.findall(run.stderr)]
    assert len(counts) == 2 and all(delivered > 0 and copied == delivered for delivered, copied in counts), run.stderr


# A send that only its own task's progress could complete is bought back: by an idle worker
# (MPI_Wait) or after a while of polling (MPI_Test); without that the ring would hang.
UNSAFE = [Path(__file__).parent / "programs" / "unsafe_exchange.c"]


@pytest.mark.parametrize("how", ["wait", "test"])
@pytest.mark.parametrize("processes,vf,mode", [(1, 4, "single-thread"), (1, 4, "two-workers"), (2, 3, "comm-thread")])
def test_a_lent_send_waited_for_before_its_receive_is_bought_back(how, processes, vf, mode, builds, ground_truth):
    args = [how, "4"]
    expected = ground_truth("unsafe_exchange", UNSAFE, processes * vf, args)
    _, bamboo = builds("unsafe_exchange", UNSAFE)
    run = run_bamboo(bamboo, processes, vf, args, ["--bamboo-deadlock-timeout", "10", *WORKER_MODES[mode]], timeout=60)
    assert run.returncode == 0, run.stderr
    assert run.lines() == expected.lines()
