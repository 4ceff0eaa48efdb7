"""Firing-rule companions of helper functions: ``bamboo_expect_<fn>()``, a side-effect-free
function that announces the messages ``fn`` will receive, called from the firing rules of
the windows (and companions) that call ``fn``.  For a helper of the translated file, its
prototype goes before the helper's first declaration, its definition right after the
helper's; the companions of helpers defined in headers go together, prototypes first,
after the #include that brings the headers (analysis/companions.py says why).  Only the
companions some rule calls are written."""
from __future__ import annotations

from ..emit.edits import EditBuffer, EditOrder
from ..emit.rule_writers import C_INDENT, CRuleWriter
from ..frontend.model import Program
from ..source import NameRewrites
from .base import Transformation


class AddHelperCompanions(Transformation):
    """Writes the companions the windows of the regions' ``plans`` call; spells them with the
    privatization's name ``rewrites``."""

    def __init__(self, prog: Program, plans: tuple, companions: dict, rewrites: NameRewrites):
        self.prog = prog
        self.plans = plans
        self.companions = companions   # helper name -> HelperRule
        self.rewrites = rewrites
        self.used: set = set()         # helpers whose companion a rule calls

    def check(self):
        """The helpers whose companion a firing rule calls, directly or through other
        companions."""
        pending = [name for p in self.plans for w in p.windows
                   for name in _called_companions(w.analysis)]
        while pending:
            name = pending.pop()
            if name not in self.used:
                self.used.add(name)
                pending += _called_companions(self.companions[name].analysis)

    def used_companions(self) -> list:
        """The HelperRules of the written companions, in the order of their helpers."""
        return [h for h in self.companions.values() if h.fn.name in self.used]

    def apply(self, buf: EditBuffer):
        prog = self.prog
        for name in sorted(self.used):
            for d in self.companions[name].analysis.left_out:
                prog.note_at(d.node, f"{d.what} is left out of the firing rule of {name}() and "
                                     f"waits on its own: {d.reason}")
        rewrites = self.rewrites
        in_headers = []
        for h in self.used_companions():
            if h.fn.in_header:
                in_headers.append(h)
                continue
            decls = [c for c in prog.declared_functions.get(h.fn.name, []) if prog.in_main(c)]
            first = min((c.extent.start.offset for c in decls), default=h.fn.node.start)
            buf.insert(prog.src.line_start(first),
                       f"{_prototype(h, rewrites)}  /* bamboo: firing rule of {h.fn.name}(), "
                       "defined after it */\n", EditOrder.COMPANION_PROTOTYPE)
            buf.insert(h.fn.node.end, "\n" + _definition(h, rewrites),
                       EditOrder.COMPANION_DEFINITION)
        if in_headers:
            buf.insert(in_headers[0].written_at, _header_companions(in_headers),
                       EditOrder.HEADER_COMPANIONS)


def _header_companions(helpers) -> str:
    """The companions of helpers defined in headers, with their code as the headers spell
    it (no privatized variable can be named there)."""
    lines = ["/* bamboo: firing rules of helpers defined in headers: each announces the "
             "messages its helper will receive, without side effects */"]
    lines += [_prototype(h, NameRewrites(h.fn.src)) for h in helpers]
    lines += [_definition(h, NameRewrites(h.fn.src)) for h in helpers]
    return "\n".join(lines) + "\n"


def _called_companions(analysis) -> list:
    """The helpers whose calls the analysed rule announces."""
    return [d.helper.name for d in analysis.included if d.helper is not None]


def _parameters(helper, rewrites: NameRewrites) -> str:
    params = [rewrites.text(p.start, p.end) for p in helper.fn.params]
    return ", ".join(params) if params else "void"


def _prototype(helper, rewrites: NameRewrites) -> str:
    return f"static void {helper.name}({_parameters(helper, rewrites)}) __attribute__((unused));"


def _definition(helper, rewrites: NameRewrites) -> str:
    fn = helper.fn
    lines = [f"/* bamboo: firing rule of {fn.name}(): announces the messages it will receive, "
             "without side effects */",
             f"static void {helper.name}({_parameters(helper, rewrites)})", "{"]
    for p in fn.params:
        v = fn.node.prog.var(p.cursor)
        if p.spelling and (v is None or v.key not in helper.analysis.reads):
            lines.append(f"{C_INDENT}(void){p.spelling};")
    lines += CRuleWriter(rewrites).lines(helper.analysis.rules, C_INDENT)
    lines.append("}")
    return "\n".join(lines)
