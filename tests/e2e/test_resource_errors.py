"""End to end: limits of the system and faults in tasks end the job with a Bamboo error that
names the limit or the task (no uncaught exception, no bare signal, no hang: every run has
a timeout)."""

from __future__ import annotations

import platform
import re
import subprocess
from pathlib import Path

import pytest

from harness import build_bamboo, mpirun

PROGRAMS_DIR = Path(__file__).parent / "programs"
TIMEOUT = 60  # a hang fails the test
MAX_MAP_COUNT = int(Path("/proc/sys/vm/max_map_count").read_text())


def guard_regions_supported() -> bool:
    """MADV_GUARD_INSTALL: Linux 6.13 and later."""
    major, minor = (int(part) for part in re.match(r"(\d+)\.(\d+)", platform.release()).groups())
    return (major, minor) >= (6, 13)


@pytest.fixture(scope="module")
def faults_exe(tmp_path_factory):
    return build_bamboo([PROGRAMS_DIR / "faults.c"], tmp_path_factory.mktemp("faults") / "faults")


@pytest.fixture(scope="module")
def kernel_before_6_13(tmp_path_factory):
    """An LD_PRELOAD library that makes madvise(MADV_GUARD_INSTALL) fail as kernels before
    6.13 do, so that task stacks fall back to two mappings each."""
    source = tmp_path_factory.mktemp("old-kernel") / "old_kernel.c"
    source.write_text(
        "#define _GNU_SOURCE\n#include <errno.h>\n#include <stddef.h>\n#include <sys/syscall.h>\n"
        "#include <unistd.h>\n"
        "int madvise(void *address, size_t length, int advice) {\n"
        "    if (advice == 102) { errno = EINVAL; return -1; }  /* MADV_GUARD_INSTALL */\n"
        "    return (int)syscall(SYS_madvise, address, length, advice);\n}\n")
    library = source.with_suffix(".so")
    subprocess.run(["gcc", "-shared", "-fPIC", "-O2", "-o", str(library), str(source)], check=True)
    return library


def assert_bamboo_error(run, pattern: str):
    assert run.returncode != 0
    assert "bad_alloc" not in run.stderr
    assert re.search(pattern, run.stderr, re.MULTILINE), run.stderr


def test_stacks_larger_than_the_address_space(faults_exe):
    run = mpirun(faults_exe, 2, ["--bamboo-vf", "4", "--bamboo-stack-size", "64000G"], timeout=TIMEOUT)
    assert_bamboo_error(run, r"^bamboo: cannot create the tasks vrank [04]\.\.[37]: their stacks need 250 TiB "
                             r"of address space, and .*; lower --bamboo-vf or --bamboo-stack-size$")


def test_stacks_beyond_the_address_space_limit(faults_exe):
    run = mpirun(faults_exe, 1, ["--bamboo-vf", "4000"], timeout=TIMEOUT,
                 launcher=("prlimit", f"--as={16 << 30}", "mpirun"))
    assert_bamboo_error(run, r"^bamboo: cannot create the tasks vrank 0\.\.3999: their stacks need 31 GiB of "
                             r"address space, and the process may use 16 GiB of address space \(ulimit -v\) .*"
                             r"raise ulimit -v$")


def test_tasks_beyond_max_map_count_on_kernels_before_6_13(faults_exe, kernel_before_6_13):
    vf = MAX_MAP_COUNT // 2 + 1000
    run = mpirun(faults_exe, 1, ["--bamboo-vf", str(vf), "--bamboo-stack-size", "64K"], timeout=TIMEOUT,
                 env={"LD_PRELOAD": str(kernel_before_6_13)})
    assert_bamboo_error(run, r"^bamboo: cannot create task vrank \d+: on this kernel \(before Linux 6\.13\) each "
                             r"task's stack takes two memory mappings, the stack and its guard: the process has "
                             r"\d+ memory mappings, as many as vm\.max_map_count allows; lower --bamboo-vf, or "
                             r"raise the limit: sysctl -w vm\.max_map_count=\d+$")


@pytest.mark.skipif(not guard_regions_supported(), reason="guard regions need Linux 6.13")
@pytest.mark.skipif(MAX_MAP_COUNT > 150_000, reason="vm.max_map_count is raised here: too many tasks to pass it")
def test_more_tasks_than_max_map_count(faults_exe):
    vf = MAX_MAP_COUNT + 1000
    run = mpirun(faults_exe, 1, ["--bamboo-vf", str(vf), "--bamboo-stack-size", "64K"], timeout=TIMEOUT)
    assert run.returncode == 0, run.stderr
    assert len(run.stdout.splitlines()) == vf


# Open MPI reports SIGSEGV and SIGFPE itself (and SIGBUS, SIGABRT: its mpi_signal default); the
# runtime passes faults on to it, or to the default action, which ends the job.
@pytest.mark.parametrize("case,signal,open_mpi_reports", [
    ("segv", r"SIGSEGV, invalid memory access, at address 0x10", True),
    ("fpe", r"SIGFPE, arithmetic exception \(e\.g\. integer division by zero\)", True),
    ("trap", r"SIGILL, illegal instruction", False)], ids=["segv", "fpe", "trap"])
def test_fault_names_the_task(faults_exe, case, signal, open_mpi_reports):
    run = mpirun(faults_exe, 2, ["--bamboo-vf", "2", "--case", case], timeout=TIMEOUT)
    assert_bamboo_error(run, rf"^bamboo: task vrank 1: {signal}; backtrace:\nbamboo:   #0 \S*faults")
    assert ("*** Process received signal ***" in run.stderr) == open_mpi_reports
    assert "survived" not in run.stdout


# A frame far larger than the guard below the stack: without stack probing its first write
# lands beyond the guard, in another task's stack.
@pytest.mark.parametrize("case", [["--case", "big-frame"], ["--case", "vla", "--bytes", "2000000"]],
                         ids=["big-frame", "vla"])
def test_frame_larger_than_the_stack_is_an_overflow(faults_exe, case):
    run = mpirun(faults_exe, 1, ["--bamboo-vf", "8", "--bamboo-stack-size", "256K", *case], timeout=TIMEOUT)
    assert_bamboo_error(run, r"^bamboo: task vrank 1 overflowed its stack \(262144 bytes\); --bamboo-stack-size "
                             r"sets the size of task stacks$")
