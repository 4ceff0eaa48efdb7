"""bench/smpi/run as a module, loaded once, for the tests that drive its functions."""
from __future__ import annotations

import importlib.machinery
import importlib.util
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]


def _load():
    path = REPO / "bench" / "smpi" / "run"
    loader = importlib.machinery.SourceFileLoader("smpi_bench_run", str(path))
    module = importlib.util.module_from_spec(importlib.util.spec_from_loader("smpi_bench_run", loader))
    loader.exec_module(module)
    return module


bench = _load()
