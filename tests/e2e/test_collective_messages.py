"""Each collective sends the messages its algorithm prescribes (seed 001, Table 2), counted
by --bamboo-stats: within a process a binomial fan-in and fan-out over the VF tasks, and
between the P processes one task each, e.g. ceil(log2 P) rounds for a barrier.

The world has P processes of V tasks (vrank = p*V + t); the root, where there is one, is
the last rank. Counts are per call; the program repeats the call REPEATS times."""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

import pytest

from harness import build_bamboo, run_bamboo

PROGRAM = Path(__file__).parent / "programs" / "collective_counts.c"
REPEATS = 3
COUNT = 5          # ints per rank or block
INT = 4


def rounds(n: int) -> int:
    """ceil(log2 n): rounds of dissemination, Bruck and binomial trees over n."""
    return (n - 1).bit_length()


@dataclass
class Expected:
    within: int                          # messages between tasks of one process, all processes
    between: int                         # messages between processes, all processes
    between_each: int | None = None      # ... sent by every process alike
    bytes_each_message: int | None = None


def rank_pairs(P: int, V: int, pairs) -> Expected:
    """Counts for an algorithm over all ranks, given as (sender, receiver) pairs."""
    within = sum(1 for s, r in pairs if s // V == r // V)
    return Expected(within, len(pairs) - within)


def expected(name: str, P: int, V: int) -> Expected:
    n = P * V
    fan = P * (V - 1)          # one binomial fan-in (or fan-out) inside every process
    if name == "barrier":
        return Expected(2 * fan, P * rounds(P), rounds(P), 0)
    if name in ("bcast", "reduce"):
        return Expected(fan, P - 1, None, COUNT * INT)
    if name in ("gather", "scatter"):
        return Expected(fan, P - 1)
    if name == "gather_large":                  # every task straight to the root (the last)
        return rank_pairs(P, V, [(s, n - 1) for s in range(n - 1)])
    if name == "allreduce":
        power = 1 << (P.bit_length() - 1)
        rest = P - power
        return Expected(2 * fan, 2 * rest + power * rounds(power), None, COUNT * INT)
    if name in ("allgather", "alltoall"):
        return Expected(2 * fan, P * rounds(P), rounds(P))
    if name == "reduce_scatter_block":          # a reduction to rank 0, then a scatter
        return Expected(2 * fan, 2 * (P - 1))
    if name in ("alltoallv", "alltoall_large"):  # every task straight to every other
        return rank_pairs(P, V, [(s, r) for s in range(n) for r in range(n) if s != r])
    if name == "reduce_ordered":                # rank order: rank r reports to r - lowbit(r)
        pairs = [(r, r - (r & -r)) for r in range(1, n)]
        if n - 1 != 0:
            pairs.append((0, n - 1))            # then rank 0 hands the result to the root
        return rank_pairs(P, V, pairs)
    if name == "scan":                          # recursive doubling: partners r ^ 2^k
        return rank_pairs(P, V, [(r, r ^ m) for r in range(n) for m in (1 << k for k in range(rounds(n)))
                                 if r ^ m < n])
    raise KeyError(name)


COLLECTIVES = ["barrier", "bcast", "reduce", "reduce_ordered", "allreduce", "gather", "scatter",
               "gather_large", "allgather", "alltoall", "alltoall_large", "alltoallv", "scan",
               "reduce_scatter_block"]
# The program's collective and count for a name: blocks from 8 KiB (gather) and above 1 KiB
# (alltoall) go straight.
PROGRAM_ARGS = {"gather_large": ("gather", 2048), "alltoall_large": ("alltoall", 300)}
CONFIGS = [(1, 6), (2, 1), (2, 4), (3, 3), (4, 2), (5, 1)]

STATS = re.compile(r"bamboo: stats: process (\d+) sent point-to-point (\d+) \((\d+) B\) within the process, "
                   r"(\d+) \((\d+) B\) to other processes; collectives (\d+) \((\d+) B\) within the process, "
                   r"(\d+) \((\d+) B\) to other processes")


@pytest.fixture(scope="module")
def exe(tmp_path_factory):
    return build_bamboo([PROGRAM], tmp_path_factory.mktemp("counts") / "collective_counts")


@pytest.mark.parametrize("processes,vf", CONFIGS, ids=[f"P{p}xVF{v}" for p, v in CONFIGS])
@pytest.mark.parametrize("name", COLLECTIVES)
def test_messages_per_collective(exe, name, processes, vf):
    collective, count = PROGRAM_ARGS.get(name, (name, COUNT))
    run = run_bamboo(exe, processes, vf, [collective, str(count), str(REPEATS)], options=["--bamboo-stats"])
    assert run.returncode == 0, run.stderr
    lines = STATS.findall(run.stderr)
    assert len(lines) == processes, run.stderr
    want = expected(name, processes, vf)
    p2p = sum(int(line[1]) + int(line[3]) for line in lines)
    within = sum(int(line[5]) for line in lines)
    between = sum(int(line[7]) for line in lines)
    assert p2p == 0, "a collective used the program's own point-to-point context"
    assert (within, between) == (REPEATS * want.within, REPEATS * want.between), run.stderr
    if want.between_each is not None:
        assert [int(line[7]) for line in lines] == [REPEATS * want.between_each] * processes
    if want.bytes_each_message is not None:
        assert sum(int(line[6]) + int(line[8]) for line in lines) == \
            REPEATS * (want.within + want.between) * want.bytes_each_message
