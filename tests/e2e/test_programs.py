"""End to end: every program prints the same under Bamboo (P processes x VF tasks) as
under plain MPI with P*VF ranks."""

from __future__ import annotations

from pathlib import Path

import pytest

from harness import REPO, build_bamboo, build_plain, run_bamboo, run_plain

PROGRAMS_DIR = Path(__file__).parent / "programs"

# name -> (sources, program arguments)
PROGRAMS = {
    "ring": ([PROGRAMS_DIR / "ring.c"], []),
    "any_source": ([PROGRAMS_DIR / "any_source.c"], []),
    "nonblocking": ([PROGRAMS_DIR / "nonblocking.c"], []),
    "recursion": ([PROGRAMS_DIR / "recursion.c"], []),
    "regions": ([PROGRAMS_DIR / "regions.c"], []),
    "multifile": (sorted((PROGRAMS_DIR / "multifile").glob("*.c")), []),
    "exit_call": ([PROGRAMS_DIR / "exit_call.c"], []),
    "random_numbers": ([PROGRAMS_DIR / "random_numbers.c"], []),
    "jacobi2d": ([REPO / "apps" / "jacobi2d" / "jacobi2d.c"], ["40", "25"]),
}

# (processes, VF) pairs: VF 1, 2, 3, 4 and 8 on one and two processes.
CONFIGS = [(1, 1), (2, 1), (1, 2), (2, 2), (1, 3), (2, 3), (1, 4), (2, 4), (1, 8), (2, 8)]


@pytest.fixture(scope="session")
def builds(tmp_path_factory):
    """Both builds of a program, made once per session."""
    cache: dict[str, tuple[Path, Path]] = {}

    def get(name: str) -> tuple[Path, Path]:
        if name not in cache:
            sources, _ = PROGRAMS[name]
            workdir = tmp_path_factory.mktemp(name)
            cache[name] = (build_plain(sources, workdir / f"{name}.mpi"),
                           build_bamboo(sources, workdir / f"{name}.bamboo"))
        return cache[name]

    return get


@pytest.fixture(scope="session")
def ground_truth(builds):
    """Plain MPI output per (program, ranks), run once per session."""
    cache = {}

    def get(name: str, ranks: int):
        if (name, ranks) not in cache:
            plain, _ = builds(name)
            run = run_plain(plain, ranks, PROGRAMS[name][1])
            assert run.returncode == 0, f"plain MPI run failed:\n{run.stderr}"
            assert run.lines(), "plain MPI run printed nothing"
            cache[(name, ranks)] = run
        return cache[(name, ranks)]

    return get


@pytest.mark.parametrize("processes,vf", CONFIGS, ids=[f"P{p}xVF{v}" for p, v in CONFIGS])
@pytest.mark.parametrize("name", PROGRAMS)
def test_same_output_as_plain_mpi(name, processes, vf, builds, ground_truth):
    expected = ground_truth(name, processes * vf)
    _, bamboo = builds(name)
    run = run_bamboo(bamboo, processes, vf, PROGRAMS[name][1])
    assert run.returncode == expected.returncode, run.stderr
    assert run.lines() == expected.lines()


MODES = {
    "single-thread": ["--bamboo-single-thread"],
    "two-workers": ["--bamboo-workers", "2"],
    "comm-thread": ["--bamboo-comm-thread", "on"],
    "two-workers-no-comm-thread": ["--bamboo-workers", "2", "--bamboo-comm-thread", "off"],
}


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("name", ["ring", "nonblocking", "regions", "jacobi2d"])
def test_worker_modes(name, mode, builds, ground_truth):
    expected = ground_truth(name, 2 * 3)
    _, bamboo = builds(name)
    run = run_bamboo(bamboo, 2, 3, PROGRAMS[name][1], MODES[mode])
    assert run.returncode == 0, run.stderr
    assert run.lines() == expected.lines()
