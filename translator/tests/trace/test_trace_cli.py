"""``bin/bamboo trace summary|plot|check`` end to end, as a user runs them: output, files
written and exit status (0 fine, 1 problems found by check, 2 errors, one line each)."""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from trace_builder import two_processes

BAMBOO = Path(__file__).resolve().parents[3] / "bin" / "bamboo"
PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"


def bamboo(*args) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, str(BAMBOO), *map(str, args)], capture_output=True,
                          text=True, timeout=120)


@pytest.fixture
def trace(tmp_path) -> Path:
    return two_processes().write(tmp_path / "run.json")


def test_check_a_well_formed_trace(trace):
    done = bamboo("trace", "check", trace)
    assert (done.returncode, done.stdout, done.stderr) == (
        0, f"{trace}: 62 events, 2 processes, well formed\n", "")


def malformed(tmp_path: Path) -> Path:
    """A trace whose last event, the E of p1 worker 0's idle span from 70, is missing."""
    builder = two_processes()
    data = builder.data()
    del data["traceEvents"][-1]
    return builder.write(tmp_path / "run.json", data)


def unended(path: Path) -> str:
    """The problem of `malformed`'s trace."""
    events = json.loads(path.read_text())["traceEvents"]
    begin = next(i for i, e in enumerate(events)
                 if (e["ph"], e["pid"], e.get("ts")) == ("B", 1, 70))
    return f"event {begin} (B 'idle' at 70 on p1 'worker 0'): never ends"


def test_check_lists_the_problems_and_exits_1(tmp_path):
    path = malformed(tmp_path)
    done = bamboo("trace", "check", path)
    assert (done.returncode, done.stdout) == (1, f"{path}: {unended(path)}\n")


def test_summary_as_text_and_as_json(trace):
    done = bamboo("trace", "summary", trace)
    assert done.returncode == 0 and done.stderr == ""
    assert done.stdout.startswith(f"{trace}: 2 processes, 4 tasks (VF 2), 62 events\n")
    assert "Job: achieved overlap 25.0%" in done.stdout

    done = bamboo("trace", "summary", trace, "--json", "--longest", "1")
    assert done.returncode == 0
    figures = json.loads(done.stdout)
    assert figures["overlap"] == 0.25 and figures["time_unit"] == "us"
    assert [p["overlap"] for p in figures["processes"]] == [0.25, 0.25]
    assert [t["ready"] for t in figures["tasks"]] == [2, 5, 2, 0]
    assert [(w["vrank"], w["waits_for"], w["duration"]) for w in figures["longest_waits"]] == [
        (1, "message from vrank 2, tag 7", 70)]


def test_plot_writes_a_png(trace, tmp_path):
    out = tmp_path / "timeline.png"
    done = bamboo("trace", "plot", trace, "-o", out)
    assert (done.returncode, done.stderr) == (0, "")
    assert out.read_bytes().startswith(PNG_SIGNATURE)

    window = tmp_path / "window.png"
    done = bamboo("trace", "plot", trace, "-o", window, "--from", "15", "--to", "65")
    assert done.returncode == 0 and window.read_bytes().startswith(PNG_SIGNATURE)
    assert window.read_bytes() != out.read_bytes()


def not_a_bamboo_trace(tmp_path: Path) -> Path:
    path = tmp_path / "chrome.json"
    path.write_text(json.dumps({"traceEvents": []}))
    return path


def not_json(tmp_path: Path) -> Path:
    path = tmp_path / "run.json"
    path.write_text("{ half")
    return path


@pytest.mark.parametrize("make, command, complaint", [
    (lambda tmp: tmp / "missing.json", "summary", "missing.json: No such file or directory"),
    (lambda tmp: tmp / "missing.json", "check", "missing.json: No such file or directory"),
    (not_json, "summary", "run.json: not JSON (Expecting property name"),
    (not_json, "plot", "run.json: not JSON"),
    (not_a_bamboo_trace, "check", "chrome.json: not a Bamboo trace (no otherData.bamboo)"),
    (lambda tmp: tmp, "summary", ": Is a directory"),
    (malformed, "plot", "run.json: not well formed"),
])
def test_errors_are_one_line_and_exit_2(tmp_path, make, command, complaint):
    args = ["-o", tmp_path / "out.png"] if command == "plot" else []
    done = bamboo("trace", command, make(tmp_path), *args)
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.startswith("bamboo trace: error: ") and complaint in done.stderr
    assert done.stderr.count("\n") == 1


def test_summary_refuses_a_malformed_trace_with_its_first_problem(tmp_path):
    path = malformed(tmp_path)
    done = bamboo("trace", "summary", path)
    assert (done.returncode, done.stderr) == (
        2, f"bamboo trace: error: {path}: not well formed: {unended(path)}; "
           f"'bamboo trace check {path}' lists them\n")


def test_plot_into_a_missing_directory_is_an_error(trace, tmp_path):
    done = bamboo("trace", "plot", trace, "-o", tmp_path / "no" / "t.png")
    assert done.returncode == 2
    assert done.stderr == (f"bamboo trace: error: {tmp_path / 'no' / 't.png'}: "
                           "No such file or directory\n")


@pytest.mark.parametrize("args, complaint", [
    (["summary", "f.json", "--longest", "-1"], "--longest must not be negative"),
    (["plot", "f.json", "-o", "o.png", "--from", "5", "--to", "5"], "--from must be before --to"),
    (["plot", "f.json"], "the following arguments are required: -o"),
    (["frobnicate"], "invalid choice: 'frobnicate'"),
])
def test_usage_errors_exit_2(args, complaint):
    done = bamboo("trace", *args)
    assert done.returncode == 2 and complaint in done.stderr


def test_bamboo_help_names_both_commands():
    done = bamboo("--help")
    assert done.returncode == 0
    assert "bamboo translate FILE.c" in done.stdout
    assert "bamboo trace {summary,plot,check}" in done.stdout
