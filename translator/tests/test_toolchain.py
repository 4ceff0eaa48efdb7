import shutil

import pytest

from bamboo import toolchain


def test_gcc_include_dir():
    if not shutil.which("gcc"):
        pytest.skip("no gcc")
    d = toolchain.gcc_include_dir()
    assert d and d.endswith("include")


def test_mpi_include_dirs():
    if not shutil.which("mpicc"):
        pytest.skip("no mpicc")
    dirs = toolchain.mpi_include_dirs()
    assert dirs
    args = toolchain.system_include_args()
    assert "-isystem" in args and dirs[0] in args
