"""Fixtures shared by the end-to-end tests that compare Bamboo with plain MPI."""

from __future__ import annotations

from pathlib import Path
from typing import Sequence

import pytest

from harness import Run, build_bamboo, build_plain, run_plain


@pytest.fixture(scope="session")
def builds(tmp_path_factory):
    """Both builds of a program, made once per session:
    builds(name, sources) -> (plain MPI executable, Bamboo executable)."""
    cache: dict[tuple, tuple[Path, Path]] = {}

    def get(name: str, sources: Sequence[Path]) -> tuple[Path, Path]:
        key = (name, tuple(sources))
        if key not in cache:
            workdir = tmp_path_factory.mktemp(name)
            cache[key] = (build_plain(list(sources), workdir / f"{name}.mpi"),
                          build_bamboo(list(sources), workdir / f"{name}.bamboo"))
        return cache[key]

    return get


@pytest.fixture(scope="session")
def ground_truth(builds):
    """Plain MPI output per (program, ranks, arguments), run once per session:
    ground_truth(name, sources, ranks, args). The run must succeed and print something."""
    cache: dict[tuple, Run] = {}

    def get(name: str, sources: Sequence[Path], ranks: int, args: Sequence[str] = ()) -> Run:
        key = (name, ranks, tuple(args))
        if key not in cache:
            plain, _ = builds(name, sources)
            done = run_plain(plain, ranks, list(args))
            assert done.returncode == 0, f"plain MPI run failed:\n{done.stderr}"
            assert done.lines(), "plain MPI run printed nothing"
            cache[key] = done
        return cache[key]

    return get
