"""The directives that are not about regions: ``dimension`` becomes a comment (the runtime
does not need the layouts' geometry yet), ``priority EXPR`` becomes
``bamboo_set_priority((EXPR));`` where the directive stands."""
from __future__ import annotations

from ..emit.edits import EditBuffer, EditOrder
from ..frontend import directives as dirs
from ..frontend.model import Program
from ..source import LINE_CONTINUATION, NameRewrites
from .base import Transformation, needs_braces, replace_directive


class LowerDirectives(Transformation):
    """Spells priority expressions with the privatization's name ``rewrites``."""

    def __init__(self, prog: Program, rewrites: NameRewrites):
        self.prog = prog
        self.rewrites = rewrites

    def check(self):
        """Nothing left to check: the front end checked the directives, priority expressions
        included (frontend/priority.py)."""

    def apply(self, buf: EditBuffer):
        for d in self.prog.directives:
            if d.kind == dirs.DIMENSION:
                replace_directive(buf, d, f"/* bamboo: dimension {d.dimension} */")
            elif d.kind == dirs.PRIORITY:
                wrap = needs_braces(d.stmt)
                replace_directive(buf, d, ("{ " if wrap else "") +
                                  f"bamboo_set_priority(({self._expression(d)}));  "
                                  "/* bamboo: priority */")
                if wrap:
                    buf.insert(d.stmt.stmt_end(), " }", EditOrder.CLOSE_BRACE)

    def _expression(self, d) -> str:
        """The expression as written, on one line, privatized variables rewritten."""
        return LINE_CONTINUATION.sub(" ", self.rewrites.text(d.expr_offset, d.end))
