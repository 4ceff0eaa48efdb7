"""The second pass of the firing-rule analysis: slice the window down to the rule.  Kept are
the announced receives (rules.py's Expect, CollectiveExpect, CompanionCall), the control
structure around them, and the declarations and assignments that what is kept reads."""
from __future__ import annotations

from .. import mpi_api
from ..frontend.cx import CK
from ..frontend.model import LOOPS, Node, Program
from .dataflow import ReproducedAssignment, ReproducedDeclaration
from .decisions import ReceiveDecisions
from .rules import (Assignment, Block, Code, CollectiveExpect, CompanionCall, Declaration, DoWhile,
                    Expect, For, If, Jump, While, announcements)
from .summaries import is_assignment


class RuleBuilder:
    def __init__(self, prog: Program, decisions: ReceiveDecisions, reproduced: dict,
                 in_helper: bool, whole: bool = False):
        self.prog = prog
        self.decisions = decisions
        self.reproduced = reproduced    # from the StatementWalk
        self.in_helper = in_helper
        self.whole = whole              # the receives are announced whole
        self.reads: set = set()         # keys of the variables the rule reads
        self.writes: set = set()        # ... and writes
        self._needed: set = set()       # variables whose assignments the rule keeps

    def build(self, statements) -> list:
        # Each round keeps the assignments to the variables the previous rounds found read
        # and notes what those read in turn: the needed set only grows, within the finite
        # set of variables the statements name, so the loop ends.
        while True:
            self.reads, self.writes = set(), set()
            rules = []
            for n in statements:
                rules += self._slice(n)
            if self.reads <= self._needed:
                break
            self._needed |= self.reads
        if self.in_helper:
            # a return that ends the function decides nothing
            while rules and isinstance(rules[-1], Jump) and rules[-1].keyword == "return":
                rules.pop()
        return rules if announcements(rules) else []

    def _note_reads(self, n: Node):
        for c in n.walk():
            if c.kind == CK.DECL_REF_EXPR:
                v = self.prog.var_of_ref(c)
                if v is not None:
                    self.reads.add(v.key)

    def _note_writes(self, part: Node):
        for c in part.walk():
            if c.kind == CK.VAR_DECL:
                continue
            if is_assignment(c):
                t = c.children[0].strip()
                v = self.prog.var_of_ref(t) if t.kind == CK.DECL_REF_EXPR else None
                if v is not None:
                    self.writes.add(v.key)

    def _slice(self, n: Node) -> list:
        """Rules for statement ``n`` (empty when nothing of it belongs to the rule)."""
        k = n.kind
        if k == CK.COMPOUND_STMT:
            body = []
            for c in n.children:
                body += self._slice(c)
            if any(isinstance(r, Declaration) for r in body):
                return [Block(n, body)]
            return body
        if k == CK.DECL_STMT:
            return self._declarations(n)
        if k == CK.IF_STMT:
            then = self._slice(n.children[1])
            orelse = self._slice(n.children[2]) if len(n.children) > 2 else []
            calls = self._announcements_in(n.children[0])
            if not then and not orelse:
                return calls
            self._note_reads(n.children[0])
            return calls + [If(n, Code.of(n.children[0]), then, orelse)]
        if k in LOOPS:
            return self._loop(n)
        if k in (CK.BREAK_STMT, CK.CONTINUE_STMT):
            if self.reproduced.get(id(n)):
                return [Jump(n, "break" if k == CK.BREAK_STMT else "continue")]
            return []
        if k == CK.RETURN_STMT:
            out = self._announcements_in(n)
            if self.in_helper and self.reproduced.get(id(n)):
                out.append(Jump(n, "return"))
            return out
        if n.is_expr:
            out = self._announcements_in(n)
            how = self.reproduced.get(id(n))
            if isinstance(how, ReproducedAssignment) and how.key in self._needed:
                self._note_reads(n.strip())
                self.writes.add(how.key)
                out.append(Assignment(n, Code(n.start, n.stmt_end())))
            return out
        return self._announcements_in(n)

    def _declarations(self, n: Node) -> list:
        out = []
        for c in n.children:
            if c.kind != CK.VAR_DECL:
                continue
            out += self._announcements_in(c)
            how = self.reproduced.get(id(c))
            v = self.prog.var(c.cursor)
            if v is None or v.key not in self._needed or \
                    not isinstance(how, ReproducedDeclaration):
                continue
            init = c.children[-1] if (how.with_initializer and c.children and
                                      c.children[-1].is_expr) else None
            if init is not None:
                self._note_reads(init)
            self.writes.add(v.key)
            out.append(Declaration(c, v.type.spelling, v.name,
                                   Code.of(init) if init is not None else None))
        return out

    def _loop(self, n: Node) -> list:
        k = n.kind
        if k == CK.FOR_STMT:
            init, cond, inc, body, header_open, header_close = n.for_parts()
        elif k == CK.WHILE_STMT:
            cond, body = n.children
        else:
            body, cond = n.children
        kept = self._slice(body)
        if not any(r.essential for r in kept):
            return []
        if k == CK.FOR_STMT:
            for part in (init, cond, inc):
                if part is not None:
                    self._note_reads(part)
            for part in (init, inc):
                if part is not None:
                    self._note_writes(part)
            return [For(n, Code(header_open + 1, header_close), kept)]
        self._note_reads(cond)
        return [(While if k == CK.WHILE_STMT else DoWhile)(n, Code.of(cond), kept)]

    def _announcements_in(self, n: Node) -> list:
        """Rules for the announced receives directly in ``n`` (not inside nested
        statements, which _slice visits itself), in source order."""
        out = []
        for c in _calls_in_expressions(n):
            d = self.decisions.of(c)
            if d is None or not d.included:
                continue
            if d.call is not None and d.call.spec.kind == mpi_api.COLLECTIVE:
                spec = d.call.spec
                root, op, comm = (None if i is None else d.call.arg(i)
                                  for i in (spec.root, spec.op, spec.comm))
                for arg in (root, op, comm):
                    if arg is not None:
                        self._note_reads(arg)
                out.append(CollectiveExpect(c, spec.collective, root and Code.of(root),
                                            op and Code.of(op), Code.of(comm)))
            elif d.call is not None:
                spec = d.call.spec
                source, tag, comm = (d.call.arg(i) for i in (spec.source, spec.tag, spec.comm))
                for arg in (source, tag, comm):
                    self._note_reads(arg)
                expect = Expect(c, Code.of(source), Code.of(tag), Code.of(comm))
                if self.whole:
                    buffer, count, datatype = (d.call.arg(i) for i in (spec.buffer, spec.count, spec.datatype))
                    for arg in (buffer, count, datatype):
                        self._note_reads(arg)
                    expect.buffer, expect.count, expect.datatype = map(Code.of, (buffer, count, datatype))
                out.append(expect)
            else:
                for a in c.args:
                    self._note_reads(a)
                out.append(CompanionCall(c, d.helper.name, tuple(Code.of(a) for a in c.args)))
        return out


def _calls_in_expressions(n: Node) -> list:
    """The calls in ``n`` and in the expressions (and declarations) directly below it."""
    stack = [n]
    calls = []
    while stack:
        x = stack.pop()
        if x is not n and not x.is_expr and x.kind != CK.VAR_DECL:
            continue
        if x.kind == CK.CALL_EXPR:
            calls.append(x)
        stack.extend(reversed(x.children))
    calls.sort(key=lambda c: c.start)
    return calls
