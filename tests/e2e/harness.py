"""Building and running test programs two ways: plain mpicc with P*VF real ranks (the
ground truth) and bamboocc with P processes x VF tasks."""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Sequence

REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO / "translator"))
from bamboo.toolchain import CXX_SOURCE_SUFFIXES  # noqa: E402 - needs the path above
from bamboo.fortran.sources import is_fortran  # noqa: E402
BAMBOOCC = REPO / "bin" / "bamboocc"
MPI_ENV = {"OMPI_ALLOW_RUN_AS_ROOT": "1", "OMPI_ALLOW_RUN_AS_ROOT_CONFIRM": "1",
           # Keep runs of a few processes on 2 cores from busy-polling each other out.
           "OMPI_MCA_mpi_yield_when_idle": "1"}
RUN_TIMEOUT = 120
# Open MPI's one-sided components for plain runs (run_plain).
PLAIN_OSC = "sm,pt2pt"


@dataclass
class Run:
    returncode: int
    stdout: str
    stderr: str

    def lines(self) -> list[str]:
        """Output lines in a canonical order: ranks print concurrently, so only the
        multiset of lines is defined; timing lines vary and are left out."""
        return sorted(line for line in self.stdout.splitlines() if not line.startswith("time "))


def build(compiler: str, sources: list[Path], output: Path, flags: list[str] = ()) -> Path:
    if any(is_fortran(str(source)) for source in sources):
        # Fortran modules' .mod files beside the executable, not in the current directory.
        language_flags = ["-J", str(output.parent)]
    else:
        language_flags = ["-Wno-unknown-pragmas"]
    cmd = [compiler, "-O2", "-Wall", *language_flags, *flags, "-o", str(output), *map(str, sources)]
    done = subprocess.run(cmd, capture_output=True, text=True)
    assert done.returncode == 0, f"{' '.join(cmd)} failed:\n{done.stdout}{done.stderr}"
    return output


def build_plain(sources: list[Path], output: Path) -> Path:
    if any(is_fortran(str(source)) for source in sources):
        return build("mpifort", sources, output)
    cxx = any(source.suffix in CXX_SOURCE_SUFFIXES for source in sources)
    return build("mpicxx" if cxx else "mpicc", sources, output)


def build_bamboo(sources: list[Path], output: Path) -> Path:
    return build(str(BAMBOOCC), sources, output)


def mpirun(exe: Path, processes: int, args: list[str] = (), env: dict[str, str] | None = None,
           timeout: float = RUN_TIMEOUT, launcher: Sequence[str] = ("mpirun",)) -> Run:
    """Run.stdout is read from a file per process (mpirun --output-filename), in whole
    lines: mpirun relays output in reads of up to 4 KiB, and another process's output can
    land inside a longer burst, above all under Bamboo, where one process prints for VF
    ranks. Run.stderr is mpirun's own, as the processes wrote it. `launcher` replaces the
    word mpirun (bench/net/lab mpirun runs through the network lab)."""
    with tempfile.TemporaryDirectory(prefix="e2e-output-") as outputs:
        cmd = [*launcher, "--oversubscribe", "--output-filename", outputs, "-n", str(processes),
               str(exe), *args]
        full_env = {**os.environ, **MPI_ENV, **(env or {})}
        done = subprocess.run(cmd, capture_output=True, text=True, env=full_env, timeout=timeout)
        stdout = "".join(f.read_text() for f in sorted(Path(outputs).glob("*/rank.*/stdout")))
    return Run(done.returncode, stdout, done.stderr)


def run_plain(exe: Path, ranks: int, args: list[str] = (), timeout: float = RUN_TIMEOUT) -> Run:
    # Ground truth runs as many ranks as Bamboo has tasks, more than there are cores: ranks
    # that spin while they wait starve each other, on a busy machine past RUN_TIMEOUT. Windows
    # need Open MPI's one-sided component over point-to-point: the one it picks by default
    # (rdma) fails MPI_Win_create without RDMA hardware. Shared windows
    # (MPI_Win_allocate_shared), which that one refuses, take the shared memory component.
    return mpirun(exe, ranks, args, env={"OMPI_MCA_mpi_yield_when_idle": "1", "OMPI_MCA_osc": PLAIN_OSC},
                  timeout=timeout)


def run_bamboo(exe: Path, processes: int, vf: int, args: list[str] = (), options: list[str] = (),
               timeout: float = RUN_TIMEOUT) -> Run:
    return mpirun(exe, processes, [*args, "--bamboo-vf", str(vf), *options], timeout=timeout)


# The runtime's ways of running tasks and driving the comm engine. With several workers the
# default queue is shared, so tasks move between workers; three workers bind them early.
WORKER_MODES = {
    "single-thread": ["--bamboo-single-thread"],
    "two-workers": ["--bamboo-workers", "2"],
    "three-workers-bound-early": ["--bamboo-workers", "3", "--bamboo-bind-after", "2"],
    "two-workers-stealing": ["--bamboo-workers", "2", "--bamboo-queue", "steal"],
    "two-workers-private-queues": ["--bamboo-workers", "2", "--bamboo-queue", "private"],
    "comm-thread": ["--bamboo-comm-thread", "on"],
    "two-workers-no-comm-thread": ["--bamboo-workers", "2", "--bamboo-comm-thread", "off"],
}
