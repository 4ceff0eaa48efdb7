"""The applications (apps/NAME): every variant builds and passes its verified small case,
and Bamboo prints the same verification line as MPI-basic at every (processes, VF) its
check tries. apps/NAME/check says which case; apps/common/check-app runs it."""

from __future__ import annotations

import os
import re
import subprocess

import pytest

from harness import REPO, run_bamboo

# apps/loopcomm (OpenSHMEM kernels) has its own test, version by version: test_loopcomm_apps.py.
APPS = sorted(p.parent.name for p in (REPO / "apps").glob("*/check") if p.parent.name != "loopcomm")
# The papers' applications (issue 4): each must be there, with its check.
PAPERS_APPS = {"jacobi3d", "cannon", "cannon25d", "lu", "multigrid"}
# The communication directives' demonstration (issue 14, seed 003): its check runs hand MPI
# and the directive source lowered to each target, and Bamboo, like the others'.
DIRECTIVE_APPS = {"commdir"}
# One worker runs them all (pytest-xdist): they build in apps/NAME/build.
pytestmark = pytest.mark.xdist_group("apps")


def test_the_papers_applications_are_all_there():
    assert PAPERS_APPS <= set(APPS)
    assert DIRECTIVE_APPS <= set(APPS)


@pytest.mark.parametrize("name", APPS)
def test_every_variant_is_verified(name):
    app = REPO / "apps" / name
    done = subprocess.run([str(app / "check")], cwd=app, capture_output=True, text=True,
                          timeout=900, env=os.environ)
    assert done.returncode == 0, done.stdout + done.stderr
    assert f"{name}: all variants verified" in done.stdout


CROSSING_COLLECTIVES = re.compile(r"collectives (\d+) \(\d+ B\) within the process, (\d+) \(\d+ B\) to other processes")


def test_lu_by_columns_keeps_each_pivot_search_inside_a_process():
    # bench/run runs LU's Bamboo variant with its ranks column-major over a VF x Q grid: the
    # tasks of a process then hold whole process columns, so the reduction of every pivot
    # and the U broadcasts, collectives on a column, never leave the process. By rows the
    # same grid puts each process column on both processes: a reduction per pivot crosses.
    lu = REPO / "apps" / "lu"
    subprocess.run(["make", "--no-print-directory", "-s", "-C", str(lu), "build/bamboo"], check=True)
    crossing = {}
    for order in ("row", "column"):
        run = run_bamboo(lu / "build" / "bamboo", 2, 3, ["250", "16", "3", order], ["--bamboo-stats"])
        assert run.returncode == 0, run.stderr
        assert "PASSED" in run.stdout
        crossing[order] = sum(int(m[1]) for m in CROSSING_COLLECTIVES.findall(run.stderr))
    assert crossing["row"] > 250  # one reduction per pivot, 250 pivots
    assert crossing["column"] < crossing["row"] / 10


MULTIGRID_RESULTS = re.compile(r"levels=(\d+) bottom_sweeps=(\d+) residual=(\S+)")


def test_multigrid_split_into_tasks_runs_the_same_v_cycle():
    # bench/smpi compares Bamboo, each rank's box split among 8 tasks, with MPI-basic: where
    # the V-cycle stops is a box side, so the tasks' half-size boxes would stop one level
    # early, on a bottom grid twice as wide that takes 4x the bottom sweeps. Halving BOTTOM
    # too must give MPI-basic's levels, bottom sweeps and residuals, bit for bit.
    app = REPO / "apps" / "multigrid"
    subprocess.run(["make", "--no-print-directory", "-s", "-C", str(app)], check=True)
    env = {**os.environ, "OMPI_ALLOW_RUN_AS_ROOT": "1", "OMPI_ALLOW_RUN_AS_ROOT_CONFIRM": "1"}
    whole = subprocess.run(["mpirun", "--oversubscribe", "-n", "2", str(app / "build" / "basic"), "16", "2"],
                           capture_output=True, text=True, timeout=300, env=env)
    split = run_bamboo(app / "build" / "bamboo", 2, 8, ["8", "2", "2"], [])
    assert whole.returncode == 0 and split.returncode == 0, whole.stderr + split.stderr
    expected = MULTIGRID_RESULTS.findall(whole.stdout)
    assert expected and expected[0][:2] == ("3", "32"), whole.stdout
    assert MULTIGRID_RESULTS.findall(split.stdout) == expected, split.stdout


@pytest.mark.parametrize("failing", ["basic", "bamboo", "olap", "nocomm"])
def test_check_app_fails_when_a_variant_fails(failing, tmp_path):
    """apps/common/check-app runs each variant in a subshell: a failure must still count."""
    (tmp_path / "Makefile").write_text("all:\n\t@true\n")
    (tmp_path / "build").mkdir()
    lines = {"basic": "verification: x PASSED", "bamboo": "verification: x PASSED",
             "olap": "verification: x PASSED",
             "nocomm": "verification: x SKIPPED (communication off)"}
    for variant, line in lines.items():
        script = tmp_path / "build" / variant
        body = "exit 3" if variant == failing else f"echo '{line}'"
        script.write_text(f"#!/bin/sh\n{body}\n")
        script.chmod(0o755)
    done = subprocess.run([str(REPO / "apps" / "common" / "check-app"), "--ranks", "2"],
                          cwd=tmp_path, capture_output=True, text=True, timeout=120,
                          env=os.environ)
    assert done.returncode != 0, done.stdout
    assert "all variants verified" not in done.stdout
    assert f"FAIL: {tmp_path.name} {failing}" in done.stdout
