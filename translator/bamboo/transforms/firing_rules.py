"""Firing rules: each maximal run of consecutive receive blocks, after reordering, is an input
window; its firing rule (analysis/slicer.py) is inserted right before it, and
``bamboo_fire(BAMBOO_AT)`` stands where the window's first ``receive`` directive was.  The
task waits there, holding no worker, until every message the rule announced has arrived.

Checked first: a receive block receives (what its rule is about), and runs to its end (a
long jump out of it would skip receives its rule announced).
"""
from __future__ import annotations

from .. import mpi_api
from ..analysis.region_plans import Window
from ..analysis.regions import Block
from ..analysis.slicer import SliceAnalysis
from ..analysis.summaries import LONG_JUMPS
from ..emit.edits import EditBuffer, EditOrder
from ..emit.rule_writers import C_INDENT, CRuleWriter
from ..frontend import directives as dirs
from ..frontend.cx import CK
from ..frontend.model import Program
from ..source import NameRewrites
from .base import BlockTransformation, needs_braces, replace_directive

# What makes a receive block one: a call that receives or completes a receive.
_RECEIVING = {mpi_api.RECEIVE, mpi_api.SENDRECV, mpi_api.WAIT, mpi_api.COLLECTIVE}


class InsertFiringRules(BlockTransformation):
    """Inserts the windows' firing rules the regions' plans have; spells the rules with the
    privatization's name ``rewrites``."""

    kind = dirs.RECEIVE

    def __init__(self, prog: Program, sums: dict, plans: tuple, rewrites: NameRewrites):
        super().__init__(prog, sums, plans)
        self.rewrites = rewrites

    def check_block(self, b: Block):
        """A receive block receives (what its window's firing rule is about), and is left
        only at its end: a long jump would skip the receives its rule announced."""
        prog = self.prog
        receives = False
        for n in b.stmt.walk():
            if n.kind != CK.CALL_EXPR:
                continue
            mc = prog.mpi_call(n)
            fn = prog.defined_function(n)
            if n.callee_name in LONG_JUMPS:
                prog.error(n.start, f"receive block calls {n.callee_name}(); a receive block must "
                                    "run to its end, since its firing rule announced the "
                                    "messages it receives (jump after the block instead)")
            elif fn is not None and self.sums[fn.name].long_jump is not None:
                jump = self.sums[fn.name].long_jump
                prog.error(n.start, f"receive block calls {fn.name}(), which may leave the block "
                                    f"with {jump.callee_name}() ({prog.line_ref(jump)}); a receive "
                                    "block must run to its end, since its firing rule announced "
                                    "the messages it receives")
            if mc is not None:
                receives |= mc.spec.kind in _RECEIVING
            elif fn is not None:
                s = self.sums[fn.name]
                receives |= bool(s.mpi_kinds & _RECEIVING or s.calls_unknown)
            else:  # code defined elsewhere may receive
                receives |= n.callee_name is None or not prog.function_is_system(n.callee_name)
        if not receives:
            prog.error(b.directive.start, "receive block contains no receive (MPI_Recv, "
                                          "MPI_Irecv, MPI_Sendrecv, a wait or a collective, "
                                          "directly or in a function it calls); put the receives "
                                          "of this window in it, or remove the directive")

    def apply(self, buf: EditBuffer):
        for p in self.plans:
            r = p.region
            for w in p.windows:
                self._insert_rule(buf, w)
                for d in w.analysis.left_out:
                    self.prog.note(d.node.start, f"{d.what} is left out of the firing rule and "
                                                 f"waits on its own: {d.reason}")
            what = ("olap region: each iteration is an evaluation point" if r.is_loop
                    else "olap region: one evaluation point")
            if r.directive.layouts:
                what += "; layout " + ", ".join(str(lay) for lay in r.directive.layouts)
            replace_directive(buf, r.directive, f"/* bamboo: {what} */")

    def _insert_rule(self, buf: EditBuffer, w: Window):
        first, *others = w.blocks
        for b in others:
            replace_directive(buf, b.directive, "/* bamboo: receive block */")
        if w.analysis.rules:
            fire = ("bamboo_fire(BAMBOO_AT);  /* bamboo: evaluation point: wait for the messages "
                    "announced above; receive block */")
        else:
            fire = "bamboo_fire(BAMBOO_AT);  /* bamboo: evaluation point; receive block */"
        replace_directive(buf, first.directive, fire)
        if needs_braces(first.stmt):
            buf.insert(w.insert_at, "{ ", EditOrder.OPEN_BRACE)
            buf.insert(first.stmt.stmt_end(), " }", EditOrder.CLOSE_BRACE)
        text = self._rule_c(w.analysis, self.prog.src.indent_at(first.stmt.start))
        if text:
            buf.insert(w.insert_at, text, EditOrder.FIRING_RULE)

    def _rule_c(self, analysis: SliceAnalysis, indent: str) -> str:
        """The C text inserted before an input window (empty if nothing is expected)."""
        if not analysis.rules:
            return ""
        lines = [f"{indent}/* bamboo: firing rule of the receive blocks below: announce every "
                 "message they will take (evaluated without side effects) */",
                 f"{indent}{{"]
        inner = indent + C_INDENT
        copies = [name for name, copy in analysis.shadows if copy]
        if copies:
            for name in copies:
                lines.append(f"{inner}__typeof__({name}) bamboo_saved_{name} = {name};")
            lines.append(f"{inner}{{")
            inner += C_INDENT
        for name, copy in analysis.shadows:
            init = f" = bamboo_saved_{name}" if copy else ""
            lines.append(f"{inner}__typeof__({name}) {name}{init};  /* bamboo: the rule's own "
                         "copy */")
        lines += CRuleWriter(self.rewrites).lines(analysis.rules, inner)
        if copies:
            lines.append(f"{indent}{C_INDENT}}}")
        lines.append(f"{indent}}}")
        return "\n".join(lines) + "\n"

