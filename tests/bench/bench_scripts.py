"""The bench scripts are executables without a .py suffix: loaded here as modules, to test
their pure parts."""

from __future__ import annotations

import importlib.machinery
import importlib.util
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]


def load(script: str, name: str):
    """bench/SCRIPT (e.g. "heterogeneous/run") as the module `name`."""
    loader = importlib.machinery.SourceFileLoader(name, str(REPO / "bench" / script))
    module = importlib.util.module_from_spec(importlib.util.spec_from_loader(loader.name, loader))
    sys.modules[loader.name] = module   # dataclasses look their module up by name
    loader.exec_module(module)
    return module
