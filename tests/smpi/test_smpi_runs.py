"""The applications under SimGrid SMPI, as bench/smpi runs them (runtime built against SMPI,
single-threaded, the scheduler driving progress), each Bamboo run against plain MPI on as
many simulated ranks as Bamboo has tasks.

SMPI is a second MPI library with its own datatype engine and progress rules; runs that
are correct under Open MPI and MPICH need not be correct here (SMPI describes a subarray
datatype in its own way, for one). Small grids: a simulation of 16 ranks takes a second."""

from __future__ import annotations

import math
import os
import re
import subprocess
from pathlib import Path

import pytest
from smpi_bench import REPO, bench

# app -> program arguments, virtual ranks, and the (processes, VF) splits of them to run.
CASES = {
    "jacobi3d": (["32", "5"], 8, [(8, 1), (4, 2), (2, 4), (1, 8)]),
    "cannon": (["64", "1"], 16, [(16, 1), (4, 4), (1, 16)]),
    # 26 neighbours: each task's send block joins its messages for one process (2 x 8: 9 to
    # the other process in one MPI message), which the blocked engine takes apart.
    "multigrid": (["8", "1", "2"], 16, [(2, 8), (4, 4)]),
}


@pytest.fixture(scope="module")
def binaries():
    bench.setup()
    bench.build_runtime()
    return {name: bench.build_app(name) for name in CASES}


def modelled_env(**costs: float) -> dict[str, str]:
    """The environment of a simulation whose computation is modelled, with just these costs."""
    return {"APP_SMPI_MODEL": "1", **{key: str(value) for key, value in costs.items()}}


def simulate(binary: Path, processes: int, args: list[str], workdir: Path, vf: int | None = None):
    extra_env = {"BAMBOO_VF": str(vf)} if vf else {}
    sim, _, verification = bench.simulate(binary, "torus", processes, args, workdir, extra_env, timeout=300)
    return sim, verification


@pytest.mark.parametrize("app,processes,vf", [(app, p, vf) for app, (_, _, splits) in CASES.items()
                                              for p, vf in splits])
def test_bamboo_matches_plain_mpi(binaries, tmp_path, app, processes, vf):
    args, ranks, _ = CASES[app]
    _, expected = simulate(binaries[app] / "basic", ranks, args, tmp_path)
    assert "PASSED" in expected, f"plain MPI under SMPI: {expected}"
    sim, verification = simulate(binaries[app] / "bamboo", processes, args, tmp_path, vf)
    assert not math.isnan(sim)
    assert verification == expected


def test_the_runtimes_copies_are_charged_like_mpis(binaries, tmp_path):
    # bench/smpi charges the runtime's copies of message data by the model SMPI applies to
    # MPI's own copies (BAMBOO_SMPI_BYTE_COST, simulated seconds per byte), not at the CPU
    # time they take. At an absurd rate the faces copied between 8 tasks of one process
    # (jacobi3d 32^3, 5 sweeps: 8 x 3 faces of 16 x 16 doubles a sweep, 240 KiB) must cost
    # simulated seconds; copied for real, they take microseconds.
    args = ["32", "5"]
    binary = binaries["jacobi3d"] / "bamboo"
    runs = {}
    for cost in (bench.BYTE_COST, 1e-5):
        runs[cost] = bench.simulate(binary, "torus", 1, args, tmp_path,
                                    {"BAMBOO_VF": "8", "BAMBOO_SMPI_BYTE_COST": str(cost)}, timeout=300)
    (modelled, _, verification), (expensive, _, expensive_verification) = runs[bench.BYTE_COST], runs[1e-5]
    assert "PASSED" in verification and expensive_verification == verification
    assert expensive - modelled > 0.9 * 240 * 1024 * 1e-5


@pytest.fixture(scope="module")
def pingpongs(binaries, tmp_path_factory):
    """bench/micro's ping-pong under SMPI: plain MPI, and against the runtime built for SMPI."""
    out = tmp_path_factory.mktemp("pingpong")
    source = REPO / "bench" / "micro" / "pingpong.c"
    subprocess.run(["smpicc", "-O2", "-o", str(out / "mpi"), str(source)], check=True)
    # As bench/micro/run links it (written against bamboo.h: nothing to translate), and with
    # main() pulled out of the runtime's archive, as bamboocc does.
    libs = [line for line in (bench.RUNTIME_BUILD / "program-libs").read_text().split("\n") if line] \
        if (bench.RUNTIME_BUILD / "program-libs").exists() else []
    subprocess.run(["smpicc", "-O2", "-DWITH_BAMBOO", f"-I{REPO / 'runtime' / 'include'}", "-o", str(out / "bamboo"),
                    str(source), f"-L{bench.RUNTIME_BUILD}", "-Wl,--undefined=main", "-lbamboo", *libs,
                    "-lboost_context", "-lstdc++", "-lpthread", "-lm"], check=True)
    return out


def oneway(binary: Path, workdir: Path, extra_env: dict[str, str]) -> float:
    """Simulated one-way time of an 8-byte message between 2 processes on two nodes of the
    fat tree, nothing timed (smpi/simulate-computation:no: the figure is the model's alone)."""
    cmd = ["smpirun", "-platform", str(bench.PLATFORMS["fattree"]),
           "-hostfile", str(bench.hostfile("fattree", 8, workdir)), "-np", "2",
           *[f"--cfg={c}" for c in bench.SMPI_CFG + bench.MODELLED_CFG], "--log=root.thres:warning",
           str(binary), "8", "2000"]
    done = subprocess.run(cmd, capture_output=True, text=True, cwd=workdir, timeout=300,
                          env={**bench.ENV, "BAMBOO_VF": "1", **extra_env})
    assert done.returncode == 0 and "Deadlock detected" not in done.stderr, done.stdout + done.stderr
    line = next(l for l in done.stdout.splitlines() if l.startswith("RESULT oneway_us "))
    return float(line.split()[2])


def test_a_message_between_processes_costs_the_runtime_what_mpi_charges_once(pingpongs, tmp_path):
    # The comm engine's own MPI calls cost simulated time too: a failed test, billed per
    # request inside an MPI_Testsome (8 control slots: 8 failed tests a poll), and every poll
    # of an idle process. An idle simulated process blocks in MPI instead, and the engine
    # tests with MPI_Testany: a message costs the runtime about what MPI charges it once
    # (17.8 us one way against 1.1 before, both for raw MPI).
    raw = oneway(pingpongs / "mpi", tmp_path, {})
    runtime = oneway(pingpongs / "bamboo", tmp_path, {})
    assert runtime <= 2 * raw, (runtime, raw)


def test_the_runtimes_work_is_charged_by_the_model(pingpongs, tmp_path):
    # BAMBOO_SMPI_{SWITCH,MESSAGE,REMOTE}_COST (util/simulation.hpp): a hop of the ping-pong
    # is a switch to the receiving task, both ends of a message, and both ends of a message
    # between processes.
    free = oneway(pingpongs / "bamboo", tmp_path, {})
    costs = {"BAMBOO_SMPI_SWITCH_COST": "1e-5", "BAMBOO_SMPI_MESSAGE_COST": "2e-5", "BAMBOO_SMPI_REMOTE_COST": "4e-5"}
    charged = oneway(pingpongs / "bamboo", tmp_path, costs)
    per_hop = (1e-5 + 2 * 2e-5 + 2 * 4e-5) * 1e6
    assert per_hop * 0.9 <= charged - free <= per_hop * 1.1, (charged, free)


def test_kernels_are_charged_by_the_model_and_missing_costs_reported(binaries, tmp_path):
    # apps/common/compute_model.h: with APP_SMPI_MODEL=1 each sweep of jacobi3d costs its
    # points times APP_COST_jacobi3d_sweep, and without that cost the simulation says so.
    args, ranks, _ = CASES["jacobi3d"]
    n, sweeps = int(args[0]), int(args[1])
    binary = binaries["jacobi3d"] / "basic"
    sim, _, verification, missing = bench.simulate_once(binary, "torus", ranks, args, tmp_path,
                                                        modelled_env(APP_COST_jacobi3d_sweep=1e-6), 300,
                                                        modelled=False)
    assert "PASSED" in verification and not missing
    assert sim >= sweeps * n ** 3 / ranks * 1e-6
    _, _, verification, missing = bench.simulate_once(binary, "torus", ranks, args, tmp_path, modelled_env(), 300,
                                                      modelled=False)
    assert missing == {"APP_COST_jacobi3d_sweep"}


def test_blocks_of_tasks_that_run_one_after_another_leave_joined(binaries, tmp_path):
    # transport/cork.hpp: a single thread runs the tasks of a process one after another, and
    # a block it corks waits for the next tasks' blocks while their runs are short. multigrid
    # (8^3 a rank, bottom 2) on 2 processes x VF 8: every exchange, each of a process's eight
    # tasks sends a block of 9 messages to the other process, which would leave as 8 MPI
    # messages, one a block; corked, a few blocks a message. The computation and the
    # runtime's work are modelled (fixed costs), so the runs' lengths, and what is corked,
    # are the same at every run.
    binary = binaries["multigrid"] / "bamboo"
    env = {**bench.ENV, "APP_SMPI_MODEL": "1", "BAMBOO_VF": "8", "BAMBOO_SMPI_SWITCH_COST": "5e-8",
           "BAMBOO_SMPI_MESSAGE_COST": "5e-8", "BAMBOO_SMPI_REMOTE_COST": "2.3e-7"}

    def simulate(env: dict[str, str]) -> tuple[str, set[str], list[str]]:
        lines: list[str] = []
        _, _, verification, missing = bench.smpirun(
            binary, ["8", "1", "2", "--bamboo-stats"], bench.PLATFORMS["torus"], bench.hostfile("torus", 2, tmp_path),
            2, bench.SMPI_CFG + bench.MODELLED_CFG, tmp_path, env, timeout=300, stderr_lines=lines)
        return verification, missing, lines

    _, missing, _ = simulate(env)
    env.update({key: "1e-9" for key in missing})  # every kernel's cost per unit of work
    verification, missing, lines = simulate(env)
    assert "PASSED" in verification and not missing, verification
    joined = [tuple(map(int, m.groups())) for line in lines
              if (m := re.search(r"send blocks joined (\d+) messages into (\d+) MPI messages", line))]
    assert len(joined) == 2, lines
    for messages, mpi_messages in joined:
        assert messages >= 3 * 9 * mpi_messages, f"{messages} messages in {mpi_messages} MPI messages"



def test_corked_blocks_keep_mpis_order(tmp_path):
    # tests/e2e/programs/corked_order.c under SMPI, where the cork closes (short runs, no code
    # timed): the lower half's tasks run on messages from their own process, so a task's
    # tiny messages to the upper half may still be corked when its next round sends a 32 KiB
    # message after them, which must not overtake them. Bamboo on 2 processes x VF 4 prints
    # what plain MPI on 8 ranks prints (every message in order).
    bench.setup()
    bench.build_runtime()
    source = REPO / "tests" / "e2e" / "programs" / "corked_order.c"
    subprocess.run(["smpicc", "-O2", "-o", str(tmp_path / "mpi"), str(source)], check=True)
    subprocess.run([str(REPO / "bin" / "bamboocc"), "-O2", "-o", str(tmp_path / "bamboo"), str(source)], check=True,
                   env={**os.environ, "BAMBOO_MPICC": "smpicc", "BAMBOO_RUNTIME_LIBDIR": str(bench.RUNTIME_BUILD)})

    def simulate(binary: str, processes: int, env: dict[str, str]) -> subprocess.CompletedProcess:
        cmd = ["smpirun", "-platform", str(bench.PLATFORMS["torus"]),
               "-hostfile", str(bench.hostfile("torus", processes, tmp_path)), "-np", str(processes),
               *[f"--cfg={c}" for c in bench.SMPI_CFG + bench.MODELLED_CFG], "--log=root.thres:warning",
               str(tmp_path / binary)]
        done = subprocess.run(cmd, capture_output=True, text=True, cwd=tmp_path, timeout=300, env={**bench.ENV, **env})
        assert done.returncode == 0 and "Deadlock detected" not in done.stderr, done.stdout + done.stderr
        return done

    plain = simulate("mpi", 8, {})
    bamboo = simulate("bamboo", 2, {"BAMBOO_VF": "4"})
    assert " 0 messages out of order" in plain.stdout
    assert sorted(bamboo.stdout.splitlines()) == sorted(plain.stdout.splitlines())
