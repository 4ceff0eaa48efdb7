"""Compiler-style diagnostics: ``file:line:col: severity: message``."""
from __future__ import annotations

import sys
from dataclasses import dataclass, field

ERROR = "error"
WARNING = "warning"
NOTE = "note"


@dataclass(frozen=True)
class Diagnostic:
    file: str
    line: int
    col: int
    severity: str
    message: str

    def __str__(self) -> str:
        if self.line:
            return f"{self.file}:{self.line}:{self.col}: {self.severity}: {self.message}"
        if self.file:
            return f"{self.file}: {self.severity}: {self.message}"
        return f"bamboo: {self.severity}: {self.message}"


class InternalError(Exception):
    """A bug of the translator found by the translator itself (an analysis that did not
    settle, say); translate_file reports it as an internal error, with the file."""


class TranslationAborted(Exception):
    """Raised to stop translation after fatal errors (the diagnostics are already recorded)."""


@dataclass
class Diagnostics:
    """Collects diagnostics in the order they are reported."""

    items: list = field(default_factory=list)
    _reported: set = field(default_factory=set, repr=False)  # a file can have many thousands

    def report(self, severity: str, file: str, line: int, col: int, message: str) -> Diagnostic:
        d = Diagnostic(file, line, col, severity, message)
        if d not in self._reported:
            self._reported.add(d)
            self.items.append(d)
        return d

    def error(self, file, line, col, message):
        return self.report(ERROR, file, line, col, message)

    def warning(self, file, line, col, message):
        return self.report(WARNING, file, line, col, message)

    def note(self, file, line, col, message):
        return self.report(NOTE, file, line, col, message)

    def error_at(self, src, offset: int, message: str):
        """An error at a byte offset of ``src`` (a source.SourceFile)."""
        line, col = src.line_col(offset)
        return self.error(src.display, line, col, message)

    def warning_at(self, src, offset: int, message: str):
        line, col = src.line_col(offset)
        return self.warning(src.display, line, col, message)

    @property
    def has_errors(self) -> bool:
        return any(d.severity == ERROR for d in self.items)

    def errors(self):
        return [d for d in self.items if d.severity == ERROR]

    def sorted(self):
        """Diagnostics in source order (stable for equal positions)."""
        return sorted(self.items, key=lambda d: (d.file, d.line, d.col))

    def print(self, stream=None):
        stream = stream or sys.stderr
        for d in self.items:
            print(d, file=stream)
