"""End to end: every program prints the same under Bamboo (P processes x VF tasks) as
under plain MPI with P*VF ranks."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

from harness import REPO, WORKER_MODES, mpirun, run_bamboo

PROGRAMS_DIR = Path(__file__).parent / "programs"

# name -> (sources, program arguments)
PROGRAMS = {
    "ring": ([PROGRAMS_DIR / "ring.c"], []),
    "any_source": ([PROGRAMS_DIR / "any_source.c"], []),
    "nonblocking": ([PROGRAMS_DIR / "nonblocking.c"], []),
    "recursion": ([PROGRAMS_DIR / "recursion.c"], []),
    "regions": ([PROGRAMS_DIR / "regions.c"], []),
    "multifile": (sorted((PROGRAMS_DIR / "multifile").glob("*.c")), []),
    "header_helper": (sorted((PROGRAMS_DIR / "header_helper").glob("*.c")), []),
    "exit_call": ([PROGRAMS_DIR / "exit_call.c"], []),
    "random_numbers": ([PROGRAMS_DIR / "random_numbers.c"], []),
    "freed_datatype": ([PROGRAMS_DIR / "freed_datatype.c"], []),
    "mixed_sizes": ([PROGRAMS_DIR / "mixed_sizes.c"], []),
    "persistent_halo": ([PROGRAMS_DIR / "persistent_halo.c"], []),
    "jacobi2d": ([REPO / "apps" / "jacobi2d" / "jacobi2d.c"], ["40", "25"]),
    "options": ([PROGRAMS_DIR / "options.c"],
                ["-v", "input.dat", "--iterations=3", "-s", "16", "--name", "-q", "extra", "-vn7",
                 "--size", "2"]),
    "rand48": ([PROGRAMS_DIR / "rand48.c"], []),
    "tokens": ([PROGRAMS_DIR / "tokens.c"], []),
    "sleepers": ([PROGRAMS_DIR / "sleepers.c"], []),
    "extern_header": (sorted((PROGRAMS_DIR / "extern_header").glob("*.c")), []),
    "header_tables": (sorted((PROGRAMS_DIR / "header_tables").glob("*.c")), []),
    "cxx_classes": ([PROGRAMS_DIR / "cxx_classes.cpp"], []),
    "cxx_objects": ([PROGRAMS_DIR / "cxx_objects.cpp"], []),
    "moving_tasks": ([PROGRAMS_DIR / "moving_tasks.c"], []),
    "send_blocks": ([PROGRAMS_DIR / "send_blocks.c"], []),
    "corked_order": ([PROGRAMS_DIR / "corked_order.c"], []),
    "lent_sends": ([PROGRAMS_DIR / "lent_sends.c"], []),
    "announced_receives": ([PROGRAMS_DIR / "announced_receives.c"], []),
    "old_c": ([PROGRAMS_DIR / "old_c.c"], []),
    "header_code": ([PROGRAMS_DIR / "header_code" / "header_code.c"], []),
    "rma_units": ([PROGRAMS_DIR / "rma_units.c"], []),
    "errno_name": ([PROGRAMS_DIR / "errno_name.c"], []),
}

# (processes, VF) pairs: VF 1, 2, 3, 4 and 8, on one and two processes (VF 2, 4 and 8 on two
# only, VF 3 on one only: make test stays within its 15 minutes).
CONFIGS = [(1, 1), (2, 1), (2, 2), (1, 3), (2, 4), (2, 8)]


@pytest.mark.parametrize("processes,vf", CONFIGS, ids=[f"P{p}xVF{v}" for p, v in CONFIGS])
@pytest.mark.parametrize("name", PROGRAMS)
def test_same_output_as_plain_mpi(name, processes, vf, builds, ground_truth):
    sources, args = PROGRAMS[name]
    expected = ground_truth(name, sources, processes * vf, args)
    _, bamboo = builds(name, sources)
    run = run_bamboo(bamboo, processes, vf, args)
    assert run.returncode == expected.returncode, run.stderr
    assert run.lines() == expected.lines()


JOINED = re.compile(r"send blocks joined (\d+) messages into (\d+) MPI messages")


def test_a_send_block_joins_its_messages_for_one_process(builds):
    # Each rank's send block sends 9 messages to each of 3 ranks: on 2 processes x VF 4, those
    # that complete at once and fit a control message together leave as one MPI message.
    _, bamboo = builds("send_blocks", PROGRAMS["send_blocks"][0])
    run = run_bamboo(bamboo, 2, 4, [], ["--bamboo-stats"])
    assert run.returncode == 0, run.stderr
    joined = [tuple(map(int, m)) for m in JOINED.findall(run.stderr)]
    assert len(joined) == 2, run.stderr
    for messages, mpi_messages in joined:
        assert 0 < 2 * mpi_messages < messages, run.stderr


COPIED_WITHIN = re.compile(r"bytes copied per byte delivered: point-to-point ([\d.]+) within the process")


def test_messages_between_tasks_of_a_process_are_copied_once(builds):
    # Buffered, each message between two tasks of a process is copied twice (into a buffer,
    # out of it). Here every one is copied once: a task's blocking sends lend their buffers
    # until its evaluation point, and there each task posts the receives its rule announced
    # whole, so a send finds its receive posted (copied straight into it) or is lent until
    # the receive is posted (copied straight out of the sender's buffer). One thread runs the
    # tasks one after another, so that both cases occur (and the counts are the same at
    # every run).
    _, bamboo = builds("lent_sends", PROGRAMS["lent_sends"][0])
    run = run_bamboo(bamboo, 1, 4, [], ["--bamboo-single-thread", "--bamboo-stats"])
    assert run.returncode == 0, run.stderr
    copies = [float(c) for c in COPIED_WITHIN.findall(run.stderr)]
    assert copies == [1.0], run.stderr


@pytest.mark.parametrize("source", PROGRAMS["header_helper"][0], ids=lambda p: p.name)
def test_header_helper_receives_join_the_firing_rule(source):
    # the program above runs right either way; here its receives must also be announced
    done = subprocess.run([sys.executable, str(REPO / "bin" / "bamboo"), "translate", "--explain",
                           str(source)], capture_output=True, text=True)
    assert done.returncode == 0 and done.stderr == "", done.stderr
    assert "      messages of halo_receive(halo, neighbor, step)  [line " in done.stdout
    assert "  bamboo_expect_halo_receive() for halo_receive() (defined in " in done.stdout


@pytest.mark.parametrize("mode", WORKER_MODES)
@pytest.mark.parametrize("name", ["ring", "nonblocking", "regions", "jacobi2d", "options", "tokens", "moving_tasks",
                                  "send_blocks", "lent_sends", "announced_receives"])
def test_worker_modes(name, mode, builds, ground_truth):
    sources, args = PROGRAMS[name]
    expected = ground_truth(name, sources, 2 * 3, args)
    _, bamboo = builds(name, sources)
    run = run_bamboo(bamboo, 2, 3, args, WORKER_MODES[mode])
    assert run.returncode == 0, run.stderr
    assert run.lines() == expected.lines()


MOVED_IN = re.compile(r"^bamboo: stats: process \d+ worker \d+: .* tasks-moved-in (\d+) ", re.MULTILINE)


@pytest.mark.parametrize("queue", ["shared", "steal"])
def test_tasks_that_move_between_workers_keep_their_errno_and_globals(queue, builds, ground_truth):
    # Only a task that resumes on another worker can find another thread's errno: the run
    # must show that tasks moved, or it proves nothing.
    sources, args = PROGRAMS["moving_tasks"]
    expected = ground_truth("moving_tasks", sources, 6, args)
    _, bamboo = builds("moving_tasks", sources)
    run = run_bamboo(bamboo, 1, 6, args, ["--bamboo-workers", "3", "--bamboo-queue", queue,
                                          "--bamboo-bind-after", "never", "--bamboo-stats"])
    assert run.returncode == 0, run.stderr
    assert run.lines() == expected.lines()
    moves = [int(m) for m in MOVED_IN.findall(run.stderr)]
    assert len(moves) == 3 and sum(moves) > 0, run.stderr


def test_a_sleeping_task_is_not_deadlocked(builds, ground_truth):
    # rank 0 sleeps a second while every other rank waits for its message: no task can run
    # for longer than the deadlock timeout, yet one will
    sources, args = PROGRAMS["sleepers"]
    expected = ground_truth("sleepers", sources, 2 * 3, args)
    _, bamboo = builds("sleepers", sources)
    run = run_bamboo(bamboo, 2, 3, args, ["--bamboo-deadlock-timeout", "0.3"])
    assert run.returncode == 0, run.stderr
    assert run.lines() == expected.lines()


# Open MPI made to hand every message over 256 B in two steps, without single-copy transfers:
# a larger control message between processes then often finishes arriving after smaller ones
# sent behind it, which the comm engine must put back in order (it once crashed doing so).
LATE_LARGE_MESSAGES = {"OMPI_MCA_btl_vader_eager_limit": "256", "OMPI_MCA_btl_vader_single_copy_mechanism": "none"}


@pytest.mark.parametrize("mode", WORKER_MODES)
def test_messages_completing_out_of_order_are_received_in_order(mode, builds, ground_truth):
    sources, args = PROGRAMS["mixed_sizes"]
    expected = ground_truth("mixed_sizes", sources, 2 * 3, args)
    _, bamboo = builds("mixed_sizes", sources)
    run = mpirun(bamboo, 2, [*args, "--bamboo-vf", "3", *WORKER_MODES[mode]], env=LATE_LARGE_MESSAGES)
    assert run.returncode == 0, run.stderr
    assert run.lines() == expected.lines()


@pytest.mark.exclusive  # 2 GiB arrays in each of two processes, twice (plain MPI, then Bamboo)
def test_a_payload_over_2_gib_crosses_processes(builds, ground_truth):
    """An MPI count is an int: a message or a put of more than 2 GiB between processes
    travels in pieces (it once ended the job: 'messages between processes are limited')."""
    sources = [PROGRAMS_DIR / "huge_message.c"]
    expected = ground_truth("huge_message", sources, 2, timeout=300)
    _, bamboo = builds("huge_message", sources)
    run = run_bamboo(bamboo, 2, 1, timeout=300)
    assert run.returncode == 0, run.stderr
    assert run.lines() == expected.lines()
