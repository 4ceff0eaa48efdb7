"""Conformance of the utility layer: plain MPI programs using collectives, communicators,
Cartesian topologies and derived datatypes (tests/e2e/conformance/, each says at its top
what it covers) print the same under Bamboo, P processes x VF tasks, as under plain MPI
with P*VF ranks: the same exit status and the same sorted lines. The programs check
their results themselves too, print FAIL lines and exit non-zero when one is wrong."""

from __future__ import annotations

import math
import re
from pathlib import Path

import pytest

from harness import WORKER_MODES, run_bamboo

CONFORMANCE_DIR = Path(__file__).parent / "conformance"

# (processes, VF): communicators of 1, 2, 3, 4, 6, 7, 8, 9 and 16 ranks, VF 1 to 8 on one, two
# and three processes.
CONFIGS = [(1, 1), (2, 1), (1, 3), (2, 2), (3, 2), (1, 7), (2, 4), (3, 3), (2, 8)]
# For programs of calls that do not depend on how a communicator splits over processes
# beyond what these show (a rank alone, odd sizes, tasks and processes mixed): the whole
# suite stays within its 15 minutes.
FEWER_CONFIGS = [(1, 1), (2, 1), (1, 3), (2, 2), (3, 2), (1, 7), (2, 4)]

# An argument that stands for a directory of the test's own, a fresh one for each run (for
# the files of file_io.c).
SCRATCH = object()

# A rank alone sends to itself, and Open MPI 4.1 does not report a truncated message to self.
TRUNCATE_CONFIGS = [c for c in FEWER_CONFIGS if c[0] * c[1] > 1]

# name -> (program arguments, configs)
PROGRAMS = {
    "coll_basic": ([], CONFIGS),
    "coll_v": ([], CONFIGS),
    "coll_ops": ([], CONFIGS),
    "coll_large": ([], CONFIGS),
    "comm": ([], CONFIGS),
    "cart": ([], CONFIGS),
    "datatypes": ([], CONFIGS),
    "olap_collectives": ([], CONFIGS),
    "p2p_modes": ([], CONFIGS),
    "nbc": ([], CONFIGS),
    "intercomm": ([], CONFIGS),
    "neighbor": ([], CONFIGS),
    "create_group": ([], FEWER_CONFIGS),
    "windows": ([], FEWER_CONFIGS),
    "rma": ([], FEWER_CONFIGS),
    "rma_sync": ([], FEWER_CONFIGS),
    "shared_windows": ([], FEWER_CONFIGS),
    "errhandlers": ([], FEWER_CONFIGS),
    "attributes": ([], FEWER_CONFIGS),
    "group_sets": ([], FEWER_CONFIGS),
    "library_objects": ([], FEWER_CONFIGS),
    "graph_topologies": ([], FEWER_CONFIGS),
    "split_type": ([], FEWER_CONFIGS),
    "grequest": ([], FEWER_CONFIGS),
    "file_io": ([SCRATCH], FEWER_CONFIGS),
    "truncate": ([], TRUNCATE_CONFIGS),
}


def sources(name: str) -> list[Path]:
    return [CONFORMANCE_DIR / f"{name}.c"]


def build_name(name: str) -> str:
    return f"conformance_{name}"


def program_args(args: list, tmp_path: Path, run: str) -> list[str]:
    """`args` with SCRATCH made a new directory `run` under `tmp_path`."""
    out = []
    for arg in args:
        if arg is SCRATCH:
            (tmp_path / run).mkdir()
            arg = str(tmp_path / run)
        out.append(arg)
    return out


CASES = [(name, p, v) for name, (_, configs) in PROGRAMS.items() for p, v in configs]


@pytest.mark.parametrize("name,processes,vf", CASES, ids=[f"{n}-P{p}xVF{v}" for n, p, v in CASES])
def test_same_output_as_plain_mpi(name, processes, vf, builds, ground_truth, tmp_path):
    args = PROGRAMS[name][0]
    expected = ground_truth(build_name(name), sources(name), processes * vf, program_args(args, tmp_path, "mpi"))
    _, bamboo = builds(build_name(name), sources(name))
    run = run_bamboo(bamboo, processes, vf, program_args(args, tmp_path, "bamboo"))
    assert run.returncode == expected.returncode, run.stderr
    assert run.lines() == expected.lines()


@pytest.mark.parametrize("mode", WORKER_MODES)
@pytest.mark.parametrize("name", ["coll_basic", "comm", "olap_collectives", "p2p_modes", "nbc", "intercomm", "truncate",
                                  "rma", "rma_sync"])
def test_worker_modes(name, mode, builds, ground_truth):
    """Collectives wait and wake alike however tasks are run (single-thread mode is what
    SimGrid's SMPI needs), truncated messages are delivered alike whoever delivers them, and
    one-sided operations are applied alike whoever drives the comm engine."""
    args = PROGRAMS[name][0]
    expected = ground_truth(build_name(name), sources(name), 2 * 3, args)
    _, bamboo = builds(build_name(name), sources(name))
    run = run_bamboo(bamboo, 2, 3, args, WORKER_MODES[mode])
    assert run.returncode == 0, run.stderr
    assert run.lines() == expected.lines()


# ---- bitwise determinism of floating-point reductions ----

DETERMINISM_CONFIGS = [(2, 4), (1, 7)]
HEX_FLOAT = re.compile(r"-?0x[0-9a-f]+(\.[0-9a-f]*)?p[+-]\d+")
TOLERANCE = 1e-12   # relative; sums of at most 16 positive terms differ by ~1e-15


def split_lines(lines: list[str]) -> tuple[dict[str, list[float]], list[str], list[str]]:
    """determinism.c's lines: '<what>: <hex floats>' as values by <what>, '<what> bits:
    <hash>' lines, and the other lines (failure counts)."""
    values, bits, other = {}, [], []
    for line in lines:
        what, _, rest = line.partition(": ")
        if what.endswith(" bits"):
            bits.append(line)
        elif rest and all(HEX_FLOAT.fullmatch(t) for t in rest.split()):
            values[what] = [float.fromhex(t) for t in rest.split()]
        else:
            other.append(line)
    return values, bits, other


@pytest.mark.parametrize("processes,vf", DETERMINISM_CONFIGS,
                         ids=[f"P{p}xVF{v}" for p, v in DETERMINISM_CONFIGS])
def test_reductions_are_deterministic(processes, vf, builds, ground_truth):
    """determinism.c sums doubles of very different magnitudes with MPI_Reduce,
    MPI_Allreduce, MPI_Scan and MPI_Reduce_scatter_block, so that the last bits of each
    result depend on the order of the additions, and prints them exactly (%a) with a
    hash of every result's bits.

    Under Bamboo the bits must not depend on scheduling: two runs, and a third on a
    single thread, print identical lines, and MPI_Allreduce gives every rank the same
    bits. Plain MPI is free to associate differently (Open MPI and MPICH do not agree
    either), so against it the values only have to agree to a relative 1e-12, and the
    hashes are not compared."""
    name = "determinism"
    expected = ground_truth(build_name(name), sources(name), processes * vf)
    _, bamboo = builds(build_name(name), sources(name))
    runs = [run_bamboo(bamboo, processes, vf),
            run_bamboo(bamboo, processes, vf),
            run_bamboo(bamboo, processes, vf, options=["--bamboo-single-thread"])]
    for run in runs:
        assert run.returncode == 0, run.stderr
    assert runs[1].lines() == runs[0].lines(), "a second run printed other bits"
    assert runs[2].lines() == runs[0].lines(), "a single-threaded run printed other bits"

    values, bits, other = split_lines(runs[0].lines())
    allreduce_bits = {line.partition(": ")[2] for line in bits
                      if line.startswith("allreduce rank ")}
    assert len(allreduce_bits) == 1, f"MPI_Allreduce gave the ranks different bits: {sorted(bits)}"

    want_values, want_bits, want_other = split_lines(expected.lines())
    assert other == want_other
    assert [b.partition(": ")[0] for b in bits] == [b.partition(": ")[0] for b in want_bits]
    assert values.keys() == want_values.keys()
    for what, want in want_values.items():
        got = values[what]
        close = len(got) == len(want) and all(math.isclose(g, w, rel_tol=TOLERANCE)
                                               for g, w in zip(got, want))
        assert close, f"{what}: {[x.hex() for x in got]}, plain MPI {[x.hex() for x in want]}"


# Large payloads between processes in many small pieces (as on a network, but here over
# shared memory): their order and reassembly, with contiguous and derived datatypes.
@pytest.mark.parametrize("name", ["coll_large", "datatypes", "truncate"])
def test_payloads_in_small_pieces(name, builds, ground_truth):
    expected = ground_truth(build_name(name), sources(name), 6, PROGRAMS[name][0])
    _, bamboo = builds(build_name(name), sources(name))
    run = run_bamboo(bamboo, 2, 3, PROGRAMS[name][0], options=["--bamboo-payload-piece", "4K"])
    assert run.returncode == expected.returncode, run.stderr
    assert run.lines() == expected.lines()
