"""The costs bench/smpi charges by a model instead of timing code in the simulator.

SMPI times the code between MPI calls and charges it as compute. In these simulations every
simulated rank runs on one core of this machine, so each stretch of code starts with caches
that other ranks and the simulator filled, and the thread clock SMPI reads around every MPI
call costs half a microsecond here: the applications' kernels measured up to twice their
native time per point, the Bamboo runtime's own work several times its native time, both
varying with how a variant interleaves with the others and from run to run. So the
simulations run with smpi/simulate-computation:no and charge, for the same work in every
variant, what it costs natively on this machine:

- kernel costs: each call of an application kernel (apps/common/compute_model.h) costs its
  work times the seconds per unit that bench/smpi/calibrate measures, the kernel alone and
  warm, for that kernel at that shape (block, box, tiles). Keys are found by running: a
  simulation reports the keys it has no cost for, which are calibrated, and it runs again.
- runtime costs: a task switch, each end of a message, and each end of a message between
  processes (util/simulation.hpp), from bench/micro's programs run natively: the switch
  benchmark, the one-way 8-byte ping-pong within a process, and between two processes
  against raw MPI (the runtime in single-thread mode, as in the simulations). The MPI
  library's own work is SMPI's model (smpi/os, smpi/or), as before.

Both are kept in build/smpi (kernel-costs.json, runtime-costs.json) until --recalibrate.
"""

from __future__ import annotations

import json
import os
import re
import statistics
import subprocess
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parents[1]
BUILD = REPO / "build" / "smpi"
KERNEL_COSTS = BUILD / "kernel-costs.json"
RUNTIME_COSTS = BUILD / "runtime-costs.json"
CALIBRATE = BUILD / "calibrate"
MICRO = BUILD / "micro"
NATIVE_RUNTIME = REPO / "build" / "runtime"
REPEATS = 5
MISSING = re.compile(r"^app: no modelled cost for (APP_COST_\w+)$", re.MULTILINE)
NATIVE_ENV = {**os.environ, "OMPI_ALLOW_RUN_AS_ROOT": "1", "OMPI_ALLOW_RUN_AS_ROOT_CONFIRM": "1",
              "OPENBLAS_NUM_THREADS": "1"}


def missing_keys(stderr: str) -> set[str]:
    """The kernel cost keys a simulation asked for and did not get."""
    return set(MISSING.findall(stderr))


def _load(path: Path) -> dict[str, float]:
    return json.loads(path.read_text()) if path.exists() else {}


def _save(path: Path, costs: dict[str, float]) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(costs, indent=1, sort_keys=True) + "\n")


def _build_calibrate() -> None:
    programs = sorted((HERE / "calibrate").glob("*.c"))
    sources = [*programs, HERE / "calibrate" / "calibrate.h", *(REPO / "apps").glob("*/*_kernels.h"),
               REPO / "apps/common/compute_model.h"]
    if CALIBRATE.exists() and all(s.stat().st_mtime <= CALIBRATE.stat().st_mtime for s in sources):
        return
    CALIBRATE.parent.mkdir(parents=True, exist_ok=True)
    includes = [f"-I{REPO / 'apps' / d}" for d in ("common", "jacobi3d", "cannon", "multigrid")]
    # The applications' own flags (apps/common/app.mk): the kernels compile as in the programs.
    subprocess.run(["cc", "-O3", "-march=native", *includes, "-o", str(CALIBRATE), *map(str, programs),
                    "-lopenblas", "-lm"], check=True)


def kernel_costs(keys: set[str] = frozenset(), recalibrate: bool = False) -> dict[str, float]:
    """Every kernel cost known (APP_COST_... -> seconds per unit), `keys` calibrated first where
    missing."""
    costs = {} if recalibrate else _load(KERNEL_COSTS)
    wanted = sorted(k for k in keys if k not in costs)
    if wanted:
        _build_calibrate()
        out = subprocess.run([str(CALIBRATE), *wanted], check=True, capture_output=True, text=True,
                             env=NATIVE_ENV).stdout
        for line in out.splitlines():
            key, seconds = line.split()
            costs[key] = float(seconds)
        _save(KERNEL_COSTS, costs)
    return costs


def _median_result(cmd: list[str], name: str) -> float:
    values = []
    for _ in range(REPEATS):
        out = subprocess.run(["timeout", "120", *cmd], check=True, capture_output=True, text=True,
                             env=NATIVE_ENV).stdout
        values += [float(line.split()[2]) for line in out.splitlines() if line.startswith(f"RESULT {name} ")]
    if len(values) != REPEATS:
        raise SystemExit(f"smpi: {' '.join(cmd)} did not print RESULT {name}")
    return statistics.median(values)


def _build_micro() -> None:
    subprocess.run(["make", "--no-print-directory", "-s", "-C", str(REPO), "runtime"], check=True)
    MICRO.mkdir(parents=True, exist_ok=True)
    libs = [line for line in (NATIVE_RUNTIME / "program-libs").read_text().split("\n") if line] \
        if (NATIVE_RUNTIME / "program-libs").exists() else []
    link = [f"-L{NATIVE_RUNTIME}", "-lbamboo", *libs, "-lboost_context", "-lstdc++", "-lpthread", "-lm"]
    include = f"-I{REPO / 'runtime' / 'include'}"
    micro = REPO / "bench" / "micro"
    for cmd in (["mpicc", "-O2", include, "-DWITH_BAMBOO", str(micro / "pingpong.c"), "-o", str(MICRO / "pingpong_bamboo"), *link],
                ["mpicc", "-O2", str(micro / "pingpong.c"), "-o", str(MICRO / "pingpong_mpi")],
                ["mpicc", "-O2", include, str(micro / "switch.c"), "-o", str(MICRO / "switch"), *link]):
        subprocess.run(cmd, check=True)


def runtime_costs(recalibrate: bool = False) -> dict[str, float]:
    """BAMBOO_SMPI_{SWITCH,MESSAGE,REMOTE}_COST in seconds, measured natively (see above)."""
    costs = {} if recalibrate else _load(RUNTIME_COSTS)
    if costs:
        return costs
    _build_micro()
    flags = ["--oversubscribe"] if b"Open MPI" in subprocess.run(["mpirun", "--version"], capture_output=True).stdout else []
    one = ["mpirun", *flags, "-n", "1"]
    two = ["mpirun", *flags, "-n", "2"]
    switch = _median_result([*one, str(MICRO / "switch"), "200000", "--bamboo-vf", "2", "--bamboo-workers", "1"],
                            "switch_ns") * 1e-9
    local = _median_result([*one, str(MICRO / "pingpong_bamboo"), "8", "100000", "--bamboo-vf", "2",
                            "--bamboo-workers", "1"], "oneway_us") * 1e-6
    remote = _median_result([*two, str(MICRO / "pingpong_bamboo"), "8", "50000", "--bamboo-single-thread"],
                            "oneway_us") * 1e-6
    raw = _median_result([*two, str(MICRO / "pingpong_mpi"), "8", "50000"], "oneway_us") * 1e-6
    # A one-way hop within a process is a send, a receive and a switch to the receiving task;
    # between processes, the same and the comm engine's work at both ends, beyond raw MPI's.
    costs = {"BAMBOO_SMPI_SWITCH_COST": switch,
             "BAMBOO_SMPI_MESSAGE_COST": max(local - switch, 0) / 2,
             "BAMBOO_SMPI_REMOTE_COST": max(remote - raw - local, 0) / 2}
    _save(RUNTIME_COSTS, costs)
    return costs
