"""Fixtures shared by the end-to-end tests that compare Bamboo with plain MPI.

The tests run in parallel (pytest-xdist, scripts/test), those marked `exclusive` apart:
most of a test's time is MPI starting and stopping processes, not CPU. Each program is built, and its plain MPI output
made, once per run all the same: by the first worker that needs it, under a lock, in a
directory every worker of the run sees."""

from __future__ import annotations

import fcntl
import hashlib
import json
import os
from contextlib import contextmanager
from pathlib import Path
from typing import Sequence

import pytest

from harness import RUN_TIMEOUT, Run, build_bamboo, build_plain, run_plain


def pytest_configure(config):
    config.addinivalue_line("markers", "exclusive: loads the machine on purpose; scripts/test runs "
                                       "these after the others, one at a time")


@pytest.fixture(scope="session")
def shared_dir(tmp_path_factory) -> Path:
    """A directory of this run that every worker sees: a worker's own temporary directory is
    one of the run's (popen-gw0, popen-gw1, ...)."""
    base = tmp_path_factory.getbasetemp()
    shared = base.parent if os.environ.get("PYTEST_XDIST_WORKER") else base
    (shared / "shared").mkdir(exist_ok=True)
    return shared / "shared"


@contextmanager
def locked(path: Path):
    """Holds an exclusive lock on `path` (made if missing), across processes."""
    with open(path, "a") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(lock, fcntl.LOCK_UN)


def cache_key(*parts) -> str:
    return hashlib.sha1(repr(parts).encode()).hexdigest()[:16]


@pytest.fixture(scope="session")
def builds(shared_dir):
    """Both builds of a program, made once per run:
    builds(name, sources) -> (plain MPI executable, Bamboo executable)."""

    def get(name: str, sources: Sequence[Path]) -> tuple[Path, Path]:
        workdir = shared_dir / f"{name}-{cache_key(name, tuple(map(str, sources)))}"
        plain, bamboo = workdir / f"{name}.mpi", workdir / f"{name}.bamboo"
        with locked(shared_dir / f"{workdir.name}.lock"):
            if not (workdir / "built").exists():
                workdir.mkdir(exist_ok=True)
                build_plain(list(sources), plain)
                build_bamboo(list(sources), bamboo)
                (workdir / "built").touch()
        return plain, bamboo

    return get


@pytest.fixture(scope="session")
def ground_truth(builds, shared_dir):
    """Plain MPI output per (program, ranks, arguments), run once per run:
    ground_truth(name, sources, ranks, args). The run must succeed and print something."""

    def get(name: str, sources: Sequence[Path], ranks: int, args: Sequence[str] = (),
            timeout: float = RUN_TIMEOUT) -> Run:
        plain, _ = builds(name, sources)
        saved = shared_dir / f"{name}-truth-{cache_key(str(plain), ranks, tuple(args))}.json"
        with locked(saved.with_suffix(".lock")):
            if saved.exists():
                return Run(**json.loads(saved.read_text()))
            done = run_plain(plain, ranks, list(args), timeout)
            assert done.returncode == 0, f"plain MPI run failed:\n{done.stderr}"
            assert done.lines(), "plain MPI run printed nothing"
            saved.write_text(json.dumps(vars(done)))
        return done

    return get
