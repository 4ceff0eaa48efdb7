"""apps/loopcomm (seed 004's NAS-style OpenSHMEM kernels): apps/loopcomm/check builds each
version of CG, CGI, MG, FT and IS and runs it on 2 and 4 PEs; every run checks itself against a
serial computation. The opt version is the fine source through bin/bamboocc's loop optimizer:
its test fails while bamboocc cannot build it (required, not skipped)."""

from __future__ import annotations

import os
import re
import subprocess

import pytest

from harness import REPO

APP = REPO / "apps" / "loopcomm"
KERNELS = ("CG", "CGI", "MG", "FT", "IS")
# One worker runs them all (pytest-xdist): they build in apps/loopcomm/build.
# one OpenSHMEM job at a time (tests/e2e/test_loopcomm_runtime.py says why)
pytestmark = pytest.mark.xdist_group("openshmem")
ENV = {**os.environ, "OMPI_ALLOW_RUN_AS_ROOT": "1", "OMPI_ALLOW_RUN_AS_ROOT_CONFIRM": "1"}


def check(*versions: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess:
    return subprocess.run([str(APP / "check"), *versions], cwd=APP, capture_output=True, text=True,
                          timeout=900, env=env or ENV)


@pytest.mark.parametrize("version", ["fine", "hand", "opt"])
def test_every_kernel_is_verified(version):
    done = check(version)
    assert done.returncode == 0, done.stdout + done.stderr
    assert f"loopcomm: all variants verified ({version})" in done.stdout
    passed = re.findall(rf"^(\w+)_{version} +(\d) PEs:  verification: (\w+) PASSED", done.stdout, re.M)
    assert sorted((k.upper(), int(p)) for k, p, _ in passed) == sorted((k, p) for k in KERNELS for p in (2, 4))


def test_check_fails_when_a_run_fails(tmp_path):
    """A launcher that breaks one kernel's runs: check must count them, not skip them."""
    launcher = tmp_path / "oshrun"
    launcher.write_text(f"#!/bin/sh\ncase \"$*\" in *ft_hand*) echo 'verification: FT FAILED'; exit 1;; esac\n"
                        f"exec {REPO / 'bin' / 'bamboo-oshrun'} \"$@\"\n")
    launcher.chmod(0o755)
    done = check("hand", env={**ENV, "LOOPCOMM_OSHRUN": str(launcher)})
    assert done.returncode != 0, done.stdout
    assert "FAIL: loopcomm ft_hand on 2 PEs failed" in done.stdout
    assert "FAIL: loopcomm ft_hand on 4 PEs failed" in done.stdout
    assert "all variants verified" not in done.stdout
    assert "cg_hand   2 PEs:  verification: CG PASSED" in done.stdout   # the others still ran
