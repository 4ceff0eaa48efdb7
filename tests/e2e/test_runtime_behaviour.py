"""End to end: what the runtime does with bad programs and its own options."""

from __future__ import annotations

import os
import re
import subprocess
from pathlib import Path

import pytest

from harness import MPI_ENV, REPO, build_bamboo, mpirun, run_bamboo

PROGRAMS_DIR = Path(__file__).parent / "programs"


@pytest.fixture(scope="module")
def deadlock_exe(tmp_path_factory):
    return build_bamboo([PROGRAMS_DIR / "deadlock.c"], tmp_path_factory.mktemp("deadlock") / "deadlock")


@pytest.mark.parametrize("comm_thread", ["on", "off"])
@pytest.mark.parametrize("processes,vf", [(1, 4), (2, 2)])
def test_deadlock_is_reported(deadlock_exe, processes, vf, comm_thread):
    # A hang fails the test when mpirun's 60 s run out (bounded, not timed: a loaded machine
    # may start processes slowly).
    run = run_bamboo(deadlock_exe, processes, vf, timeout=60,
                     options=["--bamboo-deadlock-timeout", "1", "--bamboo-comm-thread", comm_thread])
    assert run.returncode != 0
    assert "never gets here" not in run.stdout
    # Every task of the reporting process is named with the message it waits for.
    waits = re.findall(r"vrank (\d+) waits in MPI_Recv at \S*deadlock\.c:12 for a message from vrank (\d+), "
                       r"tag 42", run.stderr)
    assert waits, run.stderr
    total = processes * vf
    for task, source in waits:
        assert int(source) == (int(task) + total - 1) % total


def test_option_loop_left_holding_getopt_is_a_reported_deadlock(tmp_path):
    # docs/runtime.md: a task that leaves its option loop before getopt returns -1 holds the
    # process's getopt until it ends; here it first waits for the tasks that wait for getopt
    exe = build_bamboo([PROGRAMS_DIR / "option_loop_left.c"], tmp_path / "option_loop_left")
    run = run_bamboo(exe, 1, 3, ["-q", "-v"], timeout=60, options=["--bamboo-deadlock-timeout", "1"])
    assert run.returncode != 0
    waiting = re.findall(r"vrank (\d) waits in getopt for the option parser, which another task of "
                         r"this process holds until its getopt\(\) returns -1", run.stderr)
    assert sorted(waiting) == ["1", "2"], run.stderr


def test_bamboo_arguments_are_removed(tmp_path):
    source = tmp_path / "args.c"
    source.write_text(
        '#include <mpi.h>\n#include <stdio.h>\n'
        'int main(int argc, char **argv) {\n'
        '  int rank; MPI_Init(&argc, &argv); MPI_Comm_rank(MPI_COMM_WORLD, &rank);\n'
        '  if (rank == 0) for (int i = 1; i < argc; i++) printf("%d:%s\\n", i, argv[i]);\n'
        '  MPI_Finalize(); return 0; }\n')
    exe = build_bamboo([source], tmp_path / "args")
    run = mpirun(exe, 1, ["a", "--bamboo-vf", "3", "b", "--bamboo-workers=1", "c"])
    assert run.returncode == 0, run.stderr
    assert run.stdout.splitlines() == ["1:a", "2:b", "3:c"]


def test_vf_from_environment(tmp_path):
    source = tmp_path / "size.c"
    source.write_text(
        '#include <mpi.h>\n#include <stdio.h>\n'
        'int main(int argc, char **argv) {\n'
        '  int rank, size; MPI_Init(&argc, &argv); MPI_Comm_rank(MPI_COMM_WORLD, &rank);\n'
        '  MPI_Comm_size(MPI_COMM_WORLD, &size);\n'
        '  if (rank == 0) printf("%d\\n", size);\n'
        '  MPI_Finalize(); return 0; }\n')
    exe = build_bamboo([source], tmp_path / "size")
    run = mpirun(exe, 2, env={"BAMBOO_VF": "3"})
    assert run.returncode == 0, run.stderr
    assert run.stdout.split() == ["6"]


def test_help_lists_options(tmp_path):
    source = tmp_path / "hello.c"
    source.write_text('#include <mpi.h>\nint main(int argc, char **argv) { MPI_Init(&argc, &argv); '
                      'MPI_Finalize(); return 0; }\n')
    exe = build_bamboo([source], tmp_path / "hello")
    run = mpirun(exe, 1, ["--bamboo-help"])
    assert run.returncode == 0
    for option in ("--bamboo-vf", "--bamboo-workers", "--bamboo-single-thread", "--bamboo-comm-thread",
                   "--bamboo-deadlock-timeout", "--bamboo-stack-size"):
        assert option in run.stdout


def test_unknown_option_is_an_error(tmp_path):
    source = tmp_path / "hello.c"
    source.write_text('#include <mpi.h>\nint main(int argc, char **argv) { MPI_Init(&argc, &argv); '
                      'MPI_Finalize(); return 0; }\n')
    exe = build_bamboo([source], tmp_path / "hello")
    run = mpirun(exe, 1, ["--bamboo-vff", "2"], timeout=60)
    assert run.returncode != 0
    assert "--bamboo-vff" in run.stderr


@pytest.fixture(scope="module")
def send_mode_errors_exe(tmp_path_factory):
    return build_bamboo([PROGRAMS_DIR / "send_mode_errors.c"],
                        tmp_path_factory.mktemp("send_mode_errors") / "send_mode_errors")


@pytest.mark.parametrize("comm_thread", ["on", "off"])
@pytest.mark.parametrize("processes,vf", [(1, 3), (3, 1)])
def test_a_ring_of_synchronous_sends_is_a_reported_deadlock(send_mode_errors_exe, processes, vf, comm_thread):
    # Buffered like MPI_Send, the ring would complete: each MPI_Ssend must wait for its receive,
    # between tasks of a process and between processes.
    run = run_bamboo(send_mode_errors_exe, processes, vf, ["--case", "ssend-ring"], timeout=60,
                     options=["--bamboo-deadlock-timeout", "1", "--bamboo-comm-thread", comm_thread])
    assert run.returncode != 0
    assert "never gets here" not in run.stdout
    waits = re.findall(r"vrank (\d+) waits in MPI_Ssend at \S*send_mode_errors\.c:\d+ for its 4-byte message to "
                       r"vrank (\d+) to be received \(a synchronous send completes once a receive matches it\)",
                       run.stderr)
    assert waits, run.stderr
    for task, dest in waits:
        assert int(dest) == (int(task) + 1) % 3


@pytest.mark.parametrize("case,message", [
    ("bsend-too-big", r"MPI_Bsend at \S*send_mode_errors\.c:\d+: the 400-byte message needs \d+ bytes of attached "
                      r"buffer \(with MPI_BSEND_OVERHEAD\), but 64 are attached"),
    ("start-active", r"MPI_Start at \S*send_mode_errors\.c:\d+: the request is active"),
])
def test_send_mode_misuse_is_reported(send_mode_errors_exe, case, message):
    run = run_bamboo(send_mode_errors_exe, 1, 2, ["--case", case], timeout=60)
    assert run.returncode != 0
    assert "never gets here" not in run.stdout
    assert re.search(message, run.stderr), run.stderr


@pytest.mark.parametrize("processes,vf", [(1, 3), (3, 1)])
def test_a_nonblocking_collective_that_cannot_complete_is_reported(tmp_path, processes, vf):
    exe = build_bamboo([PROGRAMS_DIR / "missing_collective.c"], tmp_path / "missing_collective")
    run = run_bamboo(exe, processes, vf, timeout=60, options=["--bamboo-deadlock-timeout", "1"])
    assert run.returncode != 0
    assert "never gets here" not in run.stdout
    waits = re.findall(r"vrank (\d) waits in MPI_Wait at \S*missing_collective\.c:15 for its MPI_Ibarrier to "
                       r"complete", run.stderr)
    assert waits and set(waits) <= {"0", "1"}, run.stderr


@pytest.fixture(scope="module")
def fatal_errors_exe(tmp_path_factory):
    return build_bamboo([PROGRAMS_DIR / "fatal_errors.c"], tmp_path_factory.mktemp("fatal") / "fatal_errors")


SEND_TO_RANK_4 = r"MPI_Send at \S*fatal_errors\.c:\d+: destination rank 4 is out of range \(0\.\.3\)"


@pytest.mark.parametrize("case,report", [
    ("default", SEND_TO_RANK_4), ("restored", SEND_TO_RANK_4), ("inherited", SEND_TO_RANK_4),
    ("called", r"MPI_Comm_call_errhandler at \S*fatal_errors\.c:\d+: the program raised error code \d+ "
               r"\(MPI_ERR_TAG: .*\)")])
def test_errors_are_fatal_under_mpi_errors_are_fatal(fatal_errors_exe, case, report):
    """The communicator's handler decides: where it is MPI_ERRORS_ARE_FATAL, an erroneous call
    ends the job with the report naming the task, the call and its place, even where other
    communicators' handlers return errors."""
    run = run_bamboo(fatal_errors_exe, 2, 2, ["--case", case], timeout=60)
    assert run.returncode != 0
    assert "never gets here" not in run.stdout
    assert re.search(rf"^bamboo: task vrank 0: {report}$", run.stderr, re.MULTILINE), run.stderr
    if case == "restored":
        assert "rank 0: the error on MPI_COMM_WORLD returned" in run.stdout


UNATTACHED_PUT = r"""#include <mpi.h>
#include <stdio.h>

static int attached[4], elsewhere[4];

int main(int argc, char **argv)
{
    int rank;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Win win;
    MPI_Win_create_dynamic(MPI_INFO_NULL, MPI_COMM_WORLD, &win);
    MPI_Win_attach(win, attached, sizeof attached);
    MPI_Aint mine, theirs[2];
    MPI_Get_address(elsewhere, &mine);
    MPI_Allgather(&mine, 1, MPI_AINT, theirs, 1, MPI_AINT, MPI_COMM_WORLD);
    int one = 1;
    MPI_Win_fence(0, win);
    if (rank == 0)
        MPI_Put(&one, 1, MPI_INT, 1, theirs[1], 1, MPI_INT, win);
    MPI_Win_fence(0, win);
    printf("never gets here\n");
    MPI_Win_detach(win, attached);
    MPI_Win_free(&win);
    MPI_Finalize();
    return 0;
}
"""


@pytest.mark.parametrize("processes,vf,report", [
    (2, 1, r"task vrank 1: a one-sided operation from vrank 0 on the window from MPI_Win_create_dynamic at "
           r"\S*unattached\.c:12 reaches 4 bytes at address 0x[0-9a-f]+, which are not attached to the window there"),
    (1, 2, r"task vrank 0: MPI_Put at \S*unattached\.c:20: the target buffer, addresses 0x[0-9a-f]+ to 0x[0-9a-f]+ "
           r"of target rank 1, is not inside memory it attached to the window")],
    ids=["other-process", "same-process"])
def test_a_put_outside_a_dynamic_windows_attached_memory_is_reported(tmp_path, processes, vf, report):
    """Not a write to whatever lies at that address: the origin checks a target of its own
    process, the target's process any other."""
    source = tmp_path / "unattached.c"
    source.write_text(UNATTACHED_PUT)
    run = run_bamboo(build_bamboo([source], tmp_path / "unattached"), processes, vf, timeout=60)
    assert run.returncode != 0
    assert "never gets here" not in run.stdout
    assert re.search(report, run.stderr), run.stderr


def test_mpi_from_a_thread_of_a_task_is_reported(tmp_path):
    """A task's own thread is not a task: Bamboo provides MPI_THREAD_FUNNELED at most, and a
    call from such a thread ends the job naming the call, not a crash or a hang."""
    exe = build_bamboo([PROGRAMS_DIR / "thread_calls.c"], tmp_path / "thread_calls")
    run = run_bamboo(exe, 1, 2, timeout=60)
    assert "rank 0: provided funneled" in run.stdout
    assert run.returncode != 0
    assert re.search(r"MPI_Comm_rank called from a thread that is not a task.*MPI_THREAD_FUNNELED", run.stderr), \
        run.stderr
    assert "the thread saw" not in run.stdout


def test_one_sided_ranges(tmp_path):
    """A put past an allocated part is MPI_ERR_RMA_RANGE (the window's handler returns it);
    over the program's memory only the first byte must lie inside the part (MPICH's rma tests
    reach past count x extent with a lower bound)."""
    exe = build_bamboo([PROGRAMS_DIR / "rma_ranges.c"], tmp_path / "rma_ranges")
    run = run_bamboo(exe, 1, 2, timeout=60)
    assert run.returncode == 0, run.stderr
    for rank in (0, 1):
        assert f"rank {rank}: two ints into a one-int allocated part: MPI_ERR_RMA_RANGE" in run.stdout
        assert f"rank {rank}: ints past a two-int part over the program's memory: accepted, memory 0 1 2" \
            in run.stdout
