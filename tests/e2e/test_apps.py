"""The applications (apps/NAME): every variant builds and passes its verified small case,
and Bamboo prints the same verification line as MPI-basic at every (processes, VF) its
check tries. apps/NAME/check says which case; apps/common/check-app runs it."""

from __future__ import annotations

import os
import subprocess

import pytest

from harness import REPO

APPS = sorted(p.parent.name for p in (REPO / "apps").glob("*/check"))
# The papers' applications (issue 4): each must be there, with its check.
PAPERS_APPS = {"jacobi3d", "cannon", "cannon25d", "lu", "multigrid"}


def test_the_papers_applications_are_all_there():
    assert PAPERS_APPS <= set(APPS)


@pytest.mark.parametrize("name", APPS)
def test_every_variant_is_verified(name):
    app = REPO / "apps" / name
    done = subprocess.run([str(app / "check")], cwd=app, capture_output=True, text=True,
                          timeout=900, env=os.environ)
    assert done.returncode == 0, done.stdout + done.stderr
    assert f"{name}: all variants verified" in done.stdout
