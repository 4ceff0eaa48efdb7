"""The trace summary's achieved overlap, against a program whose overlap is known by design
(tests/e2e/trace/overlap.c): a 2 MiB message crosses a 20 Mbit/s link of the network lab
(bench/net) for most of a second, while a task of each process computes for four seconds
(hidden: every moment of the flight overlaps computation) or while no task computes
(exposed: none does). The program prints what plain MPI prints either way.

Needs root (network namespaces); elsewhere these tests are skipped, and say why."""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

import pytest

from harness import REPO, build_bamboo, build_plain, mpirun, run_plain
from test_netlab import LAB, LAB_ENV, lab

PROGRAM = Path(__file__).resolve().parent / "trace" / "overlap.c"
BYTES = str(2 << 20)
BAMBOO = REPO / "bin" / "bamboo"

pytestmark = [pytest.mark.skipif(os.geteuid() != 0, reason="the lab needs root to create network namespaces"),
              pytest.mark.xdist_group("netlab")]  # one lab at a time (pytest-xdist)


@pytest.fixture(scope="module")
def slow_link():
    lab("up", "--nodes", "2", "--rate", "20mbit")
    yield
    lab("down")


@pytest.fixture(scope="module")
def binaries(tmp_path_factory):
    where = tmp_path_factory.mktemp("overlap")
    return build_plain([PROGRAM], where / "plain"), build_bamboo([PROGRAM], where / "bamboo")


def summary(trace: Path) -> dict:
    done = subprocess.run([str(BAMBOO), "trace", "summary", str(trace), "--json"], capture_output=True, text=True,
                          timeout=120)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


@pytest.mark.parametrize("mode, lowest, highest", [("hidden", 0.9, 1.0), ("exposed", 0.0, 0.1)])
def test_the_summary_measures_the_overlap_the_program_was_built_with(slow_link, binaries, tmp_path, mode, lowest,
                                                                      highest):
    plain, bamboo = binaries
    expected = run_plain(plain, 4, [mode, BYTES])
    assert expected.returncode == 0, expected.stderr
    trace = tmp_path / f"{mode}.json"
    run = mpirun(bamboo, 2, [mode, BYTES, "--bamboo-vf", "2", "--bamboo-trace", str(trace)],
                 launcher=(str(LAB), "mpirun"), env={"BAMBOO_LAB_NAME": LAB_ENV["BAMBOO_LAB_NAME"]}, timeout=300)
    assert run.returncode == 0, run.stderr
    assert run.lines() == expected.lines()
    figures = summary(trace)
    remote = [p for p in figures["processes"] if p["messages_to_others"] > 0]
    assert len(remote) == 2
    # The 2 MiB message is most of the flight time: at 20 Mbit/s it takes 0.8 s or more.
    assert all(p["flight"] >= 0.5e6 for p in remote), remote
    for p in remote:
        assert lowest <= p["overlap"] <= highest, (mode, p)
    assert lowest <= figures["overlap"] <= highest
