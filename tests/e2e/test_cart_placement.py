"""MPI_Cart_create with reorder: each process takes a compact block of the grid, so fewer
neighbour messages cross processes, and the program prints what plain MPI prints.

16 tasks as 4 processes x VF 4 on a non-periodic 4x4 grid: in rank order each process
holds a row, and 3 cuts of 4 neighbour pairs lie between processes; as 2x2 blocks, 2 cuts
of 4. A halo step sends each pair two messages, one each way."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from harness import build_bamboo, build_plain, run_bamboo, run_plain

PROGRAM = Path(__file__).parent / "programs" / "cart_halo.c"
STEPS = 5
STATS = re.compile(r"bamboo: stats: process \d+ sent point-to-point \d+ \(\d+ B\) within the process, "
                   r"(\d+) \(\d+ B\) to other processes")


@pytest.fixture(scope="module")
def exes(tmp_path_factory):
    work = tmp_path_factory.mktemp("cart_halo")
    return build_plain([PROGRAM], work / "plain"), build_bamboo([PROGRAM], work / "bamboo")


@pytest.mark.parametrize("reorder,split_pairs", [(0, 3 * 4), (1, 2 * 4)])
def test_reorder_places_blocks_of_the_grid_on_processes(exes, reorder, split_pairs):
    plain, bamboo = exes
    expected = run_plain(plain, 16, [str(reorder), str(STEPS)])
    assert expected.returncode == 0, expected.stderr
    run = run_bamboo(bamboo, 4, 4, [str(reorder), str(STEPS)], options=["--bamboo-stats"])
    assert run.returncode == 0, run.stderr
    assert run.lines() == expected.lines()
    between_processes = sum(int(n) for n in STATS.findall(run.stderr))
    assert between_processes == STEPS * 2 * split_pairs
