"""bench/smpi/run --trace: each Bamboo simulation, and only those, gets --bamboo-trace, and its
trace is kept in --out with `bamboo trace summary` of it beside it. No SimGrid: the
simulation is replaced by one that writes, where --bamboo-trace says, the synthetic trace of
the translator's trace tests (tests/smpi/test_smpi_trace.py runs a real one)."""

from __future__ import annotations

import math
import sys
from pathlib import Path

import pytest

from bench_scripts import REPO, load

sys.path.insert(0, str(REPO / "translator" / "tests" / "trace"))
from trace_builder import two_processes  # noqa: E402

run = load("smpi/run", "smpi_run_trace")


@pytest.fixture
def simulations(monkeypatch, tmp_path):
    """The (binary name, program arguments) of every simulation main() asks for; nothing is
    built, calibrated or simulated. A Bamboo run at VF 4 fails (no trace)."""
    asked = []

    def simulate(binary, platform, processes, args, workdir, extra_env, timeout, modelled=False):
        asked.append((binary.name, args))
        if "--bamboo-trace" in args:
            if extra_env.get("BAMBOO_VF") == "4":
                return math.nan, 1.0, "FAILED"
            two_processes().write(Path(args[args.index("--bamboo-trace") + 1]))
        return 0.5, 1.0, "verification: PASSED"

    monkeypatch.setattr(run, "setup", lambda: None)
    monkeypatch.setattr(run, "build_runtime", lambda: None)
    monkeypatch.setattr(run, "build_app", lambda name: tmp_path / "bin" / name)
    monkeypatch.setattr(run, "simulate", simulate)
    monkeypatch.setattr(run, "smpi_version", lambda: "SimGrid (fake)")
    monkeypatch.setattr(run.model, "kernel_costs", lambda *args, **kwargs: {})
    monkeypatch.setattr(run.model, "runtime_costs", lambda *args, **kwargs: {})
    return asked


def test_bamboo_runs_are_traced_and_summarized(simulations, tmp_path, capsys):
    out = tmp_path / "out"
    assert run.main(["--apps", "jacobi3d", "--platforms", "torus", "--ranks", "8", "--vf", "2,4",
                     "--repeats", "2", "--no-nocomm", "--trace", "--out", str(out)]) == 0
    out = out.resolve()
    assert [name for name, args in simulations if "--bamboo-trace" not in args] == ["basic", "olap"] * 2
    assert [args[-2:] for name, args in simulations if name == "bamboo"] == \
        [["--bamboo-trace", str(out / f"trace-jacobi3d-torus-P8-vf{vf}-r{repeat}.json")]
         for repeat in (1, 2) for vf in (2, 4)]
    traces = [out / f"trace-jacobi3d-torus-P8-vf2-r{repeat}.json" for repeat in (1, 2)]
    err = capsys.readouterr().err
    for trace in traces:
        summary = trace.with_suffix(".summary.txt")
        assert summary.read_text().startswith(f"{trace}: 2 processes")
        assert f"trace {trace}, its summary {summary}" in err
    failed = out / "trace-jacobi3d-torus-P8-vf4-r1.json"
    assert f"the simulation wrote no trace at {failed}" in err
    assert not failed.with_suffix(".summary.txt").exists()


def test_without_trace_nothing_is_traced(simulations, tmp_path):
    out = tmp_path / "out"
    assert run.main(["--apps", "jacobi3d", "--platforms", "torus", "--ranks", "8", "--vf", "2",
                     "--out", str(out)]) == 0
    assert simulations and not any("--bamboo-trace" in args for _, args in simulations)
    assert not list(out.glob("trace-*"))
