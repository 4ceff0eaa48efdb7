"""What every transformation is: a ``check()`` that reports, as diagnostics, what keeps it
from being made (and plans it), and an ``apply(buf)`` that records its edits.  The pipeline
(translate.py) checks every transformation first and applies them only if none found an
error, so the output is never half made."""
from __future__ import annotations

from abc import ABC, abstractmethod

from ..emit.edits import EditBuffer
from ..frontend.cx import CK
from ..frontend.model import Node, Program


class Transformation(ABC):
    @abstractmethod
    def check(self) -> None:
        """Report errors to the program's diagnostics; plan the edits."""

    @abstractmethod
    def apply(self, buf: EditBuffer) -> None:
        """Record the edits (only called when no check found an error)."""


class BlockTransformation(Transformation):
    """A transformation of the olap regions' send or receive blocks (``kind``), as the
    regions' plans (analysis/region_plans.py) have them: its check checks each block of that
    kind, then what the plan of the region asks of it."""

    kind: str

    def __init__(self, prog: Program, sums: dict, plans: tuple):
        self.prog = prog
        self.sums = sums
        self.plans = plans

    def check(self):
        for p in self.plans:
            for b in p.region.blocks_of(self.kind):
                self.check_block(b)
            self.check_plan(p)

    @abstractmethod
    def check_block(self, b) -> None:
        """Report what keeps block ``b`` from being transformed."""

    def check_plan(self, p) -> None:
        """Report what keeps the region's plan ``p`` from being made."""


def replace_directive(buf: EditBuffer, d, text: str):
    """The directive's lines become ``text`` (and as many line breaks: lines keep their
    numbers)."""
    buf.replace(d.start, d.end, text + "\n" * (d.lines - 1))


def needs_braces(stmt: Node) -> bool:
    """Whether code inserted before ``stmt`` needs braces around both to stay with it (the
    statement is the body of an if, a loop or a label)."""
    p = stmt.parent
    return p is not None and p.kind != CK.COMPOUND_STMT
