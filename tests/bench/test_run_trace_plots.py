"""bench/run --trace-plots: only a Bamboo configuration's command line gets --bamboo-trace, and
a traced run's timeline is drawn beside its trace. No MPI: the run is replaced by one that
writes, where --bamboo-trace says, the synthetic trace of the translator's trace tests."""

from __future__ import annotations

import sys
from pathlib import Path

from bench_scripts import REPO, load

sys.path.insert(0, str(REPO / "translator" / "tests" / "trace"))
from trace_builder import two_processes  # noqa: E402

bench = load("run", "bench_run")


def test_only_bamboo_runs_are_traced(tmp_path):
    trace = tmp_path / "trace.json"
    fixed = bench.Config("jacobi3d", "shm", 2, "bamboo", "4")
    assert bench.command(fixed, tmp_path, trace)[-4:] == ["--bamboo-vf", "4", "--bamboo-trace", str(trace)]
    assert "--bamboo-trace" not in bench.command(fixed, tmp_path)
    auto = bench.command(bench.Config("jacobi3d", "shm", 2, "bamboo", "auto"), tmp_path, trace)
    assert "--bamboo-profile" in auto and auto[-2:] == ["--bamboo-trace", str(trace)]
    assert "--bamboo-trace" not in bench.command(bench.Config("jacobi3d", "shm", 2, "basic", ""),
                                                 tmp_path, trace)


def test_a_timeline_is_drawn_from_the_traced_run(tmp_path, monkeypatch):
    commands = []

    def run_once(cmd: list[str]) -> tuple[float, str, str]:
        commands.append(cmd)
        two_processes().write(Path(cmd[cmd.index("--bamboo-trace") + 1]))
        return 1.0, "verification: PASSED", ""

    monkeypatch.setattr(bench, "run_once", run_once)
    png = bench.timeline(bench.Config("cannon", "shm", 2, "bamboo", "auto"), tmp_path)
    assert png == tmp_path / "timeline-cannon-shm-2-vfauto.png"
    assert png.read_bytes().startswith(b"\x89PNG\r\n\x1a\n")
    assert len(commands) == 1 and str(tmp_path / "trace-cannon-shm-2-vfauto.json") in commands[0]
