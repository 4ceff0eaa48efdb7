"""A malformed argument to a bench script ends in argparse's one-line error naming it, exit
status 2, before anything runs: never a traceback (bench/arguments.py)."""
from __future__ import annotations

import subprocess
import sys

import pytest

from bench_scripts import REPO

sys.path.insert(0, str(REPO / "bench"))
import arguments  # noqa: E402

MALFORMED = [
    ("collectives/run", "--tasks", "8,x"),
    ("collectives/run", "--sizes", "huge"),
    ("commdir/run", "--ranks", "x"),
    ("commdir/shmem-stress", "--pes", "2,,3"),
    ("heterogeneous/run", "--size", "96"),
    ("heterogeneous/run", "--sigmas", "1,x"),
    ("jacobi2d/run", "--vfs", "x"),
    ("loopcomm/run", "--nodes", "x"),
    ("loopcomm/run", "--kinds", "packed"),
    ("hpl/run", "--grid", "2by4"),
    ("hpl/run", "--processes", "3"),
    ("npb/run", "--benchmarks", "is,ua"),
    ("npb/run", "--processes", "1,x"),
    ("overdecomposition/run", "--sizes", "96"),
    ("overdecomposition/run", "--vfs", "1,two"),
    ("smpi/run", "--ranks", "x"),
    ("smpi/run", "--vf", "2,"),
    ("smpi/lab", "--rates", "fast"),
    ("storm/run", "--limits", "lots"),
    ("run", "--nodes", "x"),
    ("run", "--vfs", "2,many"),
]


@pytest.mark.parametrize("script, option, value", MALFORMED)
def test_a_malformed_argument_is_a_usage_error(script, option, value):
    done = subprocess.run([sys.executable, str(REPO / "bench" / script), option, value],
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 2, done.stderr
    assert "Traceback" not in done.stderr
    last = done.stderr.strip().splitlines()[-1]
    assert "error:" in last and (option in last or value in last), last


def test_lists_and_sizes():
    assert arguments.integers("1,2,4") == [1, 2, 4]
    assert arguments.numbers("1,1.5") == [1.0, 1.5]
    assert arguments.words("shm,1gbit") == ["shm", "1gbit"]
    assert arguments.sizes("96:200,192:40") == [(96, 200), (192, 40)]
    assert arguments.words_among(("a", "b"))("b,a") == ["b", "a"]
    for parse, text in [(arguments.integers, "1,,2"), (arguments.words, ""),
                        (arguments.size, "96:"), (arguments.sizes, "96:200,x"),
                        (arguments.words_among(("a",)), "a,c")]:
        with pytest.raises(Exception) as caught:
            parse(text)
        assert type(caught.value).__name__ == "ArgumentTypeError"
