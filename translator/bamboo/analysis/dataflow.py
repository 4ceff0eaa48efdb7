"""The first pass of the firing-rule analysis: walk the window's statements in execution
order over the abstract state (state.py), decide for each receive whether the rule can
announce it (decisions.py), and mark the statements the rule can redo (``Reproduced``) for
the second pass, the rule builder."""
from __future__ import annotations

from dataclasses import dataclass, field

from ..diagnostics import InternalError
from ..frontend.cx import CK
from ..frontend.model import LOOPS, Node, Program
from ..source import NameRewrites
from .completion import IrecvCompletion
from .decisions import ReceiveDecisions
from .effects import Effects
from .reproducible import ReproducibilityCheck
from .state import State, StateUpdates
from .summaries import is_assignment

_LABELED = (CK.CASE_STMT, CK.DEFAULT_STMT, CK.LABEL_STMT)


@dataclass(frozen=True)
class ReproducedAssignment:
    """An assignment to a tracked local the rule can redo."""
    key: str


@dataclass(frozen=True)
class ReproducedDeclaration:
    """A local the rule can declare, initialized as in the window if ``with_initializer``."""
    key: str
    with_initializer: bool


@dataclass(frozen=True)
class ReproducedJump:
    """A break, continue (or, in a helper, return) the rule can take where the code does."""


@dataclass
class _Frame:
    """A loop or switch being walked: the states at its breaks and continues."""
    kind: str    # 'loop' | 'switch'
    breaks: list = field(default_factory=list)
    continues: list = field(default_factory=list)


class StatementWalk:
    """``boundary``: for a helper, its body, where a return ends the walk without cutting;
    for a window, None."""

    def __init__(self, prog: Program, sums: dict, companions: dict, sequence: list | None,
                 boundary: Node | None):
        self.prog = prog
        self.in_helper = boundary is not None
        self.updates = StateUpdates()
        self.check = ReproducibilityCheck(prog, sums, self.updates)
        self.effects = Effects(prog, sums, self.updates)
        self.decisions = ReceiveDecisions(prog, sums, companions, self.check, self.updates,
                                          IrecvCompletion(prog, sums, sequence, boundary))
        self.user_code = NameRewrites(prog.src)  # the code as written, for reasons
        self.reproduced: dict = {}   # id(statement) -> Reproduced*, None if not reproducible
        self._frames: list = []      # the loops and switches around the statement walked

    def run(self, statements):
        st = State()
        for n in statements:
            st = self.visit(n, st, None)

    def _quoted(self, n: Node) -> str:
        return f"'{self.user_code.code(n.start, n.end)}' (line {n.line})"

    def _mark(self, n: Node, how):
        """A statement walked again (in a loop's next round) stays not reproducible once it
        was not."""
        previous = self.reproduced.get(id(n), "unset")
        if how is None or previous is None:
            self.reproduced[id(n)] = None
        elif previous == "unset":
            self.reproduced[id(n)] = how

    # -- statements ------------------------------------------------------------------------
    def visit(self, n: Node, st: State, guard: str | None) -> State:
        """The state after statement ``n``; ``guard``, if any, is why the rule cannot know
        whether ``n`` runs."""
        k = n.kind
        if k == CK.COMPOUND_STMT:
            for c in n.children:
                st = self.visit(c, st, guard)
            return st
        if k == CK.DECL_STMT:
            for c in n.children:
                if c.kind == CK.VAR_DECL:
                    st = self.declaration(c, st, guard)
            return st
        if k == CK.IF_STMT:
            cond = n.children[0]
            ok, why = self.check.ok(cond, st)
            self.decisions.exclude_nested(cond, "it is part of an if condition")
            st = self.effects.of(cond, st)
            g = guard or (None if ok else f"its guard {self._quoted(cond)} {why}")
            s1 = self.visit(n.children[1], st, g)
            s2 = self.visit(n.children[2], st, g) if len(n.children) > 2 else st
            return s1.join(s2)
        if k in LOOPS:
            return self.loop(n, st, guard)
        if k == CK.SWITCH_STMT:
            return self.switch(n, st, guard)
        if k in _LABELED:
            # a run of labels (case 1: case 2: ...) nests one statement per label: follow it
            # in a loop, not a recursion
            while n.kind in _LABELED:
                if n.kind == CK.LABEL_STMT:
                    st = self.updates.cut(st, n, f"the label at line {n.line} may be reached by "
                                                 "goto", "fn")
                n = n.children[-1]
            return self.visit(n, st, guard)
        if k in (CK.BREAK_STMT, CK.CONTINUE_STMT):
            return self.break_or_continue(n, st, guard)
        if k == CK.RETURN_STMT:
            return self.return_statement(n, st, guard)
        if k in (CK.GOTO_STMT, CK.INDIRECT_GOTO_STMT):
            return self.updates.cut(st, n, f"the goto at line {n.line}", "fn")
        if k == CK.NULL_STMT:
            return st
        if n.is_expr:
            return self.expression_statement(n, st, guard)
        # anything else (asm, ...): unknown effects
        self.decisions.exclude_nested(n, f"it is inside a {k.name.lower()}")
        return self.updates.dirty(self.effects.of(n, st), None, f"the statement at line {n.line}")

    def switch(self, n: Node, st: State, guard: str | None) -> State:
        cond = n.children[0]
        self.decisions.exclude_nested(cond, "it is part of a switch condition")
        st = self.effects.of(cond, st)
        g = guard or (f"it is inside the switch at line {n.line} (firing rules do not reproduce "
                      "switch statements)")
        frame = _Frame("switch")
        self._frames.append(frame)
        s = self.visit(n.children[-1], st, g)
        self._frames.pop()
        out = st.join(s)
        for b in frame.breaks:
            out = out.join(b)
        return self.updates.end_scope(out, st)

    def break_or_continue(self, n: Node, st: State, guard: str | None) -> State:
        is_break = n.kind == CK.BREAK_STMT
        word = "break" if is_break else "continue"
        # the loop or switch this statement leaves
        frames = self._frames if is_break else [f for f in self._frames if f.kind == "loop"]
        if not frames:
            return self.updates.cut(st, n, f"the {word} at line {n.line} leaves the window", "fn")
        frame = frames[-1]
        (frame.breaks if is_break else frame.continues).append(st)
        if guard is None and frame.kind == "loop":
            self.reproduced[id(n)] = ReproducedJump()
            return st
        return self.updates.cut(st, n, f"the {word} at line {n.line} depends on what the rule "
                                       "cannot reproduce", "loop")

    def return_statement(self, n: Node, st: State, guard: str | None) -> State:
        e = n.children[0] if n.children else None
        call = e.strip() if e is not None else None
        if call is not None and self.decisions.receiving(call) is not None:
            self.decisions.decide(call, st, guard)
            self.decisions.exclude_nested(e, "it is part of a larger expression", skip=call)
        else:
            self.decisions.exclude_nested(e, "it is part of a return expression")
        st = self.effects.of(e, st)
        if self.in_helper and guard is None:
            self.reproduced[id(n)] = ReproducedJump()
            return st
        return self.updates.cut(st, n, f"the return at line {n.line}", "fn")

    def _trackable_target(self, n: Node):
        """For ``v = e`` / ``v op= e`` / ``v++``: the tracked local v, else None."""
        t = n.children[0].strip() if n.children else None
        if t is None or t.kind != CK.DECL_REF_EXPR:
            return None
        v = self.prog.var_of_ref(t)
        return v if (v is not None and v.trackable) else None

    def assignment(self, n: Node, st: State, guard: str | None):
        """A statement-level assignment to a tracked local. Returns the new state, or None
        when ``n`` is not of that form."""
        s = n.strip()
        if not is_assignment(s):
            return None
        v = self._trackable_target(s)
        if v is None:
            return None
        rhs = s.children[1] if s.kind != CK.UNARY_OPERATOR else None
        if rhs is not None and self.decisions.receiving(rhs.strip()) is not None:
            return None
        ok, why = self.check.ok(rhs, st)
        if ok and not self.prog.text_reproducible(s):
            ok, why = False, "comes from inside a macro expansion"
        if ok and (s.kind != CK.BINARY_OPERATOR or s.op != "=") and v.key in st.tainted:
            # v op= e, v++: the new value depends on the old one
            ok, why = False, f"reads '{v.name}', which {self.updates.taint_reason(v)}"
        if ok and guard is None:
            self._mark(n, ReproducedAssignment(v.key))
            return self.updates.untaint(st, v)
        self._mark(n, None)
        self.decisions.exclude_nested(s, "it is part of a larger expression")
        st = self.effects.of(rhs, st) if rhs is not None else st
        why_t = f"is assigned at line {n.line}" + (f" from a value that {why}" if why else
                                                   " under a condition the rule cannot reproduce")
        return self.updates.taint(st, v, why_t)

    def expression_statement(self, n: Node, st: State, guard: str | None) -> State:
        r = self.assignment(n, st, guard)
        if r is not None:
            return r
        s = n.strip()
        call = None
        if s.kind == CK.CALL_EXPR:
            call = s
        elif is_assignment(s) and s.kind != CK.UNARY_OPERATOR and \
                s.children[1].strip().kind == CK.CALL_EXPR:
            call = s.children[1].strip()
        if call is not None and self.decisions.receiving(call) is not None:
            st = self._receive_call(call, st, guard)
            if call is not s:
                st = self.effects.write_lvalue(s.children[0], st, f"is assigned at line {s.line}")
            return st
        self.decisions.exclude_nested(s, "it is part of a larger expression")
        return self.effects.of(s, st)

    def _receive_call(self, call: Node, st: State, guard: str | None) -> State:
        """A call that receives, directly or through a helper: its arguments are evaluated
        first, then it is announced or left out, then its effects apply."""
        for a in call.args:
            self.decisions.exclude_nested(a, "it is part of a larger expression")
            st = self.effects.of(a, st)
        self.decisions.decide(call, st, guard)
        return self.effects.call(call, st)

    def declaration(self, vd: Node, st: State, guard: str | None) -> State:
        v = self.prog.var(vd.cursor)
        if v is None or v.is_static_storage:
            return st
        init = vd.children[-1] if vd.children and vd.children[-1].is_expr else None
        call = init.strip() if init is not None else None
        if call is not None and self.decisions.receiving(call) is not None:
            st = self._receive_call(call, st, guard)
            self._mark(vd, ReproducedDeclaration(v.key, False))
            return self.updates.taint(st, v, f"is initialized at line {vd.line} by a receive")
        if v.trackable and "(" not in v.type.spelling:
            ok, why = self.check.ok(init, st)
            if init is not None and ok and not self.prog.text_reproducible(init):
                ok, why = False, "comes from inside a macro expansion"
            if ok and guard is None:
                self._mark(vd, ReproducedDeclaration(v.key, init is not None))
                return self.updates.untaint(st, v)
            self._mark(vd, ReproducedDeclaration(v.key, False))
            self.decisions.exclude_nested(init, "it is part of an initializer")
            st = self.effects.of(init, st)
            return self.updates.taint(st, v, f"is initialized at line {vd.line} with a value that "
                                             f"{why or 'depends on a condition the rule cannot reproduce'}")
        self.decisions.exclude_nested(init, "it is part of an initializer")
        st = self.effects.of(init, st)
        self._mark(vd, None)
        return self.updates.taint(st, v, f"is declared at line {vd.line} with a value the rule "
                                         "does not rebuild")

    # -- loops -------------------------------------------------------------------------------
    def _for_header(self, n: Node, st: State, guard: str | None):
        """Walk a for loop's initialization; returns the state and why the rule cannot
        redo the loop's header (None if it can)."""
        init, _, inc, _, header_open, _ = n.for_parts()
        why = "its loop header comes from a macro" if header_open is None else None
        if init is not None:
            if init.kind == CK.DECL_STMT:
                st = self.visit(init, st, guard)
                redone = all(self.reproduced.get(id(c)) is not None
                             for c in init.children if c.kind == CK.VAR_DECL)
            else:
                st = self.expression_statement(init, st, guard)
                redone = self.reproduced.get(id(init)) is not None
            if not redone:
                why = why or f"its loop header (line {n.line}) is not reproducible"
        if inc is not None:
            si = inc.strip()
            step = si.children[1] if si.kind in (CK.BINARY_OPERATOR,
                                                 CK.COMPOUND_ASSIGNMENT_OPERATOR) and \
                len(si.children) > 1 else None
            ok, _ = self.check.ok(step, None)
            if not is_assignment(si) or not ok:
                why = why or f"the increment of the loop at line {n.line} is not reproducible"
            elif self._trackable_target(si) is None:
                why = why or f"the loop at line {n.line} steps a variable the rule cannot track"
        return st, why

    @staticmethod
    def _rounds_bound(n: Node) -> int:
        """How many rounds the walk of loop ``n`` can take before its state settles.

        The state at the loop's entry only grows (each round joins the state after the
        body into it), and what it can gain is bounded by what the loop's N nodes name:
        tainted variables (at most N), the types of the memory ones (N), dirtied types (a
        node's type or the type it points to: 2N, and 'any'), blocked and cut (once each),
        a height of 4N + 3.  A round whose entry state does not grow differs from the one
        before at most in the do-while condition's reason (the condition, checked on a
        state that only grows, goes from reproducible to not once): two rounds per step up
        the lattice, and the last, suffice."""
        nodes = sum(1 for _ in n.walk())
        return 2 * (4 * nodes + 3) + 3

    def loop(self, n: Node, st: State, guard: str | None) -> State:
        k = n.kind
        before = st
        header_why = None
        inc = None
        if k == CK.FOR_STMT:
            _, cond, inc, body, _, _ = n.for_parts()
            st, header_why = self._for_header(n, st, guard)
        elif k == CK.WHILE_STMT:
            cond, body = n.children[0], n.children[1]
        else:  # DO_STMT
            body, cond = n.children[0], n.children[1]
        self.decisions.exclude_nested(cond, "it is part of a loop condition")
        self.decisions.exclude_nested(inc, "it is part of a loop header")
        entry = st
        g_do = None
        frame = _Frame("loop")
        self._frames.append(frame)
        rounds = self._rounds_bound(n)
        for _ in range(rounds):
            frame.continues = []
            new_g_do = g_do
            if k == CK.DO_STMT:
                g = guard or header_why or g_do
                s = self.visit(body, entry, g)
                for c in frame.continues:
                    s = s.join(c)
                ok, why = self.check.ok(cond, s)
                new_g_do = None if ok else f"its loop condition {self._quoted(cond)} {why}"
                s = self.effects.of(cond, s)
            else:
                ok, why = self.check.ok(cond, entry)
                g = guard or header_why or (None if ok else
                                            f"its loop condition {self._quoted(cond)} {why}")
                s = self.effects.of(cond, entry) if cond is not None else entry
                s = self.visit(body, s, g)
                for c in frame.continues:
                    s = s.join(c)
                if inc is not None:
                    s = self.expression_statement(inc, s, g)
            new = entry.join(s)
            if new == entry and new_g_do == g_do:
                break
            entry, g_do = new, new_g_do
        else:
            raise InternalError(f"the firing-rule analysis of the loop at line {n.line} did not "
                                f"settle in {rounds} rounds")
        self._frames.pop()
        out = entry
        for b in frame.breaks:
            out = out.join(b)
        return self.updates.end_scope(out, before)
