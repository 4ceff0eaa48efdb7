"""The applications under SimGrid SMPI, as bench/smpi runs them (runtime built against SMPI,
single-threaded, the scheduler driving progress), each Bamboo run against plain MPI on as
many simulated ranks as Bamboo has tasks.

SMPI is a second MPI library with its own datatype engine and progress rules; runs that
are correct under Open MPI and MPICH need not be correct here (SMPI describes a subarray
datatype in its own way, for one). Small grids: a simulation of 16 ranks takes a second."""

from __future__ import annotations

import importlib.machinery
import importlib.util
import math
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]


def load_bench():
    path = REPO / "bench" / "smpi" / "run"
    loader = importlib.machinery.SourceFileLoader("smpi_bench", str(path))
    module = importlib.util.module_from_spec(importlib.util.spec_from_loader("smpi_bench", loader))
    loader.exec_module(module)
    return module


bench = load_bench()

# app -> program arguments, virtual ranks, and the (processes, VF) splits of them to run.
CASES = {
    "jacobi3d": (["32", "5"], 8, [(8, 1), (4, 2), (2, 4), (1, 8)]),
    "cannon": (["64", "1"], 16, [(16, 1), (4, 4), (1, 16)]),
}


@pytest.fixture(scope="module")
def binaries():
    bench.setup()
    bench.build_runtime()
    return {name: bench.build_app(name) for name in CASES}


def simulate(binary: Path, processes: int, args: list[str], workdir: Path, vf: int | None = None):
    extra_env = {"BAMBOO_VF": str(vf)} if vf else {}
    sim, _, verification = bench.simulate(binary, "torus", processes, args, workdir, extra_env, timeout=300)
    return sim, verification


@pytest.mark.parametrize("app,processes,vf", [(app, p, vf) for app, (_, _, splits) in CASES.items()
                                              for p, vf in splits])
def test_bamboo_matches_plain_mpi(binaries, tmp_path, app, processes, vf):
    args, ranks, _ = CASES[app]
    _, expected = simulate(binaries[app] / "basic", ranks, args, tmp_path)
    assert "PASSED" in expected, f"plain MPI under SMPI: {expected}"
    sim, verification = simulate(binaries[app] / "bamboo", processes, args, tmp_path, vf)
    assert not math.isnan(sim)
    assert verification == expected


def test_the_runtimes_copies_are_charged_like_mpis(binaries, tmp_path):
    # bench/smpi charges the runtime's copies of message data by the model SMPI applies to
    # MPI's own copies (BAMBOO_SMPI_BYTE_COST, simulated seconds per byte), not at the CPU
    # time they take. At an absurd rate the faces copied between 8 tasks of one process
    # (jacobi3d 32^3, 5 sweeps: 8 x 3 faces of 16 x 16 doubles a sweep, 240 KiB) must cost
    # simulated seconds; copied for real, they take microseconds.
    args = ["32", "5"]
    binary = binaries["jacobi3d"] / "bamboo"
    runs = {}
    for cost in (bench.BYTE_COST, 1e-5):
        runs[cost] = bench.simulate(binary, "torus", 1, args, tmp_path,
                                    {"BAMBOO_VF": "8", "BAMBOO_SMPI_BYTE_COST": str(cost)}, timeout=300)
    (modelled, _, verification), (expensive, _, expensive_verification) = runs[bench.BYTE_COST], runs[1e-5]
    assert "PASSED" in verification and expensive_verification == verification
    assert expensive - modelled > 0.9 * 240 * 1024 * 1e-5
