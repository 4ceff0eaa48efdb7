"""Firing rules: which messages an input window will take, computed without side effects.

A firing rule is a *slice* of the window's code: the control structure that leads to the
receives, the assignments the kept conditions and the receives' (source, tag, comm) depend
on, and one ``bamboo_expect(source, tag, comm)`` per receive.  The slice runs at the
evaluation point with the task's current values; variables it writes are shadowed.

Soundness comes first: the rule must never expect a message the code will not receive.
``WindowAnalysis`` walks the window in execution order with an abstract ``State``:

* ``tainted``: variables whose value here the slice cannot reproduce (received into,
  assigned from something impure, ...);
* ``dirty``: memory (by type) that may have changed behind the slice's back (stores through
  pointers, calls, received buffers); ``named`` records named stores to memory variables;
* ``blocked``: a send or another communicating call came first: the peer may need that
  message before it sends ours, so later receives must wait on their own;
* ``cut``: control may leave before this point (return, goto, a break the slice cannot
  decide).

A receive whose guard or arguments are not reproducible at its point is *left out* of the
rule (it then waits on its own at run time, which is always correct) with a reason.

The result is a tree of rule nodes (rules.py), written as C or for --explain by
emit/rule_writers.py.  Helper functions defined in the file that receive get a companion
``bamboo_expect_<fn>()`` built by the same analysis over their body.
"""
from __future__ import annotations

from dataclasses import dataclass, replace

from .. import mpi_api
from ..frontend import cx
from .summaries import PURE_LIBRARY, is_assignment
from ..frontend.cx import CK, TK
from ..frontend.lvalues import base_variable_node, request_variable
from ..frontend.model import LOOPS, Function, MPICall, Node, Program
from ..source import NameRewrites
from .rules import (Assignment, Block, Code, CollectiveExpect, CompanionCall, Declaration, DoWhile,
                    Expect, For, If, Jump, While, announcements, walk_rules)

WINDOW, HELPER = "window", "helper"
_CHARLIKE = {"char", "signed char", "unsigned char", "void"}
_LABELED = (CK.CASE_STMT, CK.DEFAULT_STMT, CK.LABEL_STMT)

# The analysis and the rule tree recurse once per level of statement nesting (a label does
# not count); beyond this many levels (clang's own limit for brackets) a window gets no
# rule and a helper no companion, so that Python's recursion limit is never reached.
MAX_STATEMENT_NESTING = 256
_NESTING = {CK.COMPOUND_STMT, CK.IF_STMT, CK.SWITCH_STMT} | LOOPS


def statement_nesting_beyond_limit(statements) -> Node | None:
    """The first statement nested more than MAX_STATEMENT_NESTING levels deep in
    ``statements``, if any."""
    pending = [(n, 0) for n in statements]
    while pending:
        n, depth = pending.pop()
        if n.kind in _NESTING:
            depth += 1
            if depth > MAX_STATEMENT_NESTING:
                return n
        pending.extend((c, depth) for c in n.children if not c.is_expr)
    return None


# ---------------------------------------------------------------------------------------------
# Abstract state

@dataclass(frozen=True)
class State:
    tainted: frozenset = frozenset()
    dirty: frozenset = frozenset()      # type keys ('*' = any) stored through pointers/calls
    named: frozenset = frozenset()      # type keys of named memory variables assigned
    blocked: tuple | None = None        # (offset, description)
    cut: tuple | None = None            # (offset, description, scope: 'loop' | 'fn')

    def join(self, o: "State") -> "State":
        return State(self.tainted | o.tainted, self.dirty | o.dirty, self.named | o.named,
                     self.blocked or o.blocked, self.cut or o.cut)


@dataclass
class Decision:
    """Whether one receive (or call of a receiving helper) is in the firing rule."""
    node: Node
    call: MPICall | None = None
    helper: Function | None = None
    included: bool = True
    reason: str | None = None

    @property
    def what(self) -> str:
        return self.call.name if self.call else f"{self.helper.name}()"


# ---------------------------------------------------------------------------------------------
# The analysis

class Unreproducible(Exception):
    pass


class SliceAnalysis:
    """Analyse a sequence of statements (a window, or a helper's body) and build its rule.

    ``items``: the statements of the window, in execution order (for a helper: [body]).
    ``sequence``: for a window, the region body's statements after block reordering (used to
    find the MPI_Wait that completes an MPI_Irecv); for a helper, None (its body).
    """

    def __init__(self, prog: Program, fn: Function, sums: dict, mode: str, items: list,
                 helpers: dict, sequence: list | None = None):
        self.prog = prog
        self.fn = fn
        self.sums = sums
        self.mode = mode
        self.items = items
        self.user_code = NameRewrites(prog.src)  # the code as written, for reasons
        self.helpers = helpers          # name -> HelperRule (companions), may be partial
        self.sequence = sequence
        self.decisions: dict = {}       # id(node) -> Decision
        self.order: list = []           # decisions in source order of first visit
        self.repro: dict = {}           # id(node) -> (kind, var key or None)
        self.taint_why: dict = {}
        self.dirty_why: dict = {}
        self.loops: list = []           # stack of lists of break states
        self.rules: list = []
        self.shadows: list = []         # [(name, copy_in)]
        self.reads_memory = False       # does the rule read memory (for helper companions)

    # -- public ------------------------------------------------------------------------------
    def run(self):
        too_deep = statement_nesting_beyond_limit(self.items)
        if too_deep is not None:
            self.prog.note(too_deep.start, f"statements nest more than {MAX_STATEMENT_NESTING} "
                                           "levels deep here: the firing rule of this window is "
                                           "left empty, and its receives wait on their own")
            return self
        st = State()
        for n in self.items:
            st = self.visit(n, st, None)
        self._build()
        return self

    @property
    def included(self):
        return [d for d in self.order if d.included]

    @property
    def left_out(self):
        return [d for d in self.order if not d.included]

    @property
    def reads(self) -> set:
        """Keys of the variables the rule reads."""
        return self._reads

    # -- helpers -----------------------------------------------------------------------------
    def line(self, n: Node) -> int:
        return n.line

    def render_node(self, n: Node) -> str:
        return self.user_code.code(n.start, n.end)

    def _taint(self, st: State, v, why: str) -> State:
        self.taint_why.setdefault(v.key, why)
        named = st.named
        if v.is_memory:
            named = named | {cx.type_key(cx.strip_arrays(v.type))}
        return replace(st, tainted=st.tainted | {v.key}, named=named)

    def _untaint(self, st: State, v) -> State:
        return replace(st, tainted=st.tainted - {v.key})

    def _dirty(self, st: State, t, why: str) -> State:
        key = "*"
        if t is not None:
            c = t.get_canonical()
            key = cx.type_key(c)
            if key in _CHARLIKE or c.kind in (TK.VOID, TK.RECORD):
                key = "*"
        self.dirty_why.setdefault(key, why)
        return replace(st, dirty=st.dirty | {key})

    def _dirty_reason(self, st: State, key=None) -> str:
        if key and key in st.dirty:
            return self.dirty_why.get(key, "")
        if "*" in st.dirty:
            return self.dirty_why.get("*", "")
        for k in st.dirty:
            return self.dirty_why.get(k, "")
        return ""

    def _block(self, st: State, n: Node, desc: str) -> State:
        if st.blocked:
            return st
        return replace(st, blocked=(n.start, desc))

    def _cut(self, st: State, n: Node, desc: str, scope: str) -> State:
        if st.cut:
            return st
        return replace(st, cut=(n.start, desc, scope))

    # -- expressions: can the slice evaluate this here? -------------------------------------
    def check(self, n: Node, st: State | None):
        """Raise Unreproducible(reason) unless ``n`` evaluates, without side effects, to the
        value it has at this point of the window.  ``st`` None: only side-effect freedom."""
        if not self.prog.text_reproducible(n):
            raise Unreproducible("comes from inside a macro expansion")
        self._check(n, st)

    def _mem_read(self, t, st, what):
        if st is None or not (st.dirty or st.named):
            return
        key = cx.type_key(cx.strip_arrays(t))
        if "*" in st.dirty or key in st.dirty or key in st.named or key in _CHARLIKE:
            why = self._dirty_reason(st, key) or "a store to a variable of that type"
            raise Unreproducible(f"reads {what} after {why} may have changed it")

    def _check(self, n: Node, st: State | None):
        pending = [n]
        while pending:
            pending.extend(reversed(self._check_node(pending.pop(), st)))

    def _check_node(self, n: Node, st: State | None) -> list:
        """Check one node of an expression; returns its operands still to be checked (the
        walk is iterative: expressions nest as deep as they have operators)."""
        k = n.kind
        if k in (CK.INTEGER_LITERAL, CK.FLOATING_LITERAL, CK.CHARACTER_LITERAL,
                 CK.STRING_LITERAL, CK.CXX_UNARY_EXPR, CK.TYPE_REF):
            return []
        if k == CK.DECL_REF_EXPR:
            r = n.ref
            if r is None or r.kind in (CK.ENUM_CONSTANT_DECL, CK.FUNCTION_DECL):
                return []
            v = self.prog.var(r)
            if v is None:
                return []
            if r.type.is_volatile_qualified():
                raise Unreproducible(f"reads volatile '{v.name}'")
            if st is None:
                return []
            if v.key in st.tainted:
                raise Unreproducible(f"reads '{v.name}', which {self.taint_why.get(v.key, 'the window changes')}")
            if v.is_memory:
                self.reads_memory = True
                if st.dirty:
                    key = cx.type_key(cx.strip_arrays(v.type))
                    if "*" in st.dirty or key in st.dirty or key in _CHARLIKE or \
                            cx.strip_arrays(v.type).kind == TK.RECORD:
                        why = self._dirty_reason(st, key)
                        raise Unreproducible(f"reads '{v.name}' after {why} may have changed it")
            return []
        if k == CK.UNARY_OPERATOR:
            op = n.op
            if op in ("++", "--", "post++", "post--"):
                raise Unreproducible("modifies a variable")
            if op == "&":
                inner = n.children[0].strip()
                if inner.kind == CK.DECL_REF_EXPR:
                    return []  # an address, not a read
            if op == "*":
                self.reads_memory = True
                self._mem_read(n.type, st, f"'{n.text}'")
            return n.children
        if k == CK.BINARY_OPERATOR:
            if n.op in ("=",) or (n.op.endswith("=") and n.op not in ("==", "!=", "<=", ">=")):
                raise Unreproducible("assigns a variable")
            return n.children
        if k == CK.COMPOUND_ASSIGNMENT_OPERATOR:
            raise Unreproducible("assigns a variable")
        if k == CK.ARRAY_SUBSCRIPT_EXPR:
            base = n.children[0].strip()
            if base.kind == CK.DECL_REF_EXPR and base.type.get_canonical().kind != TK.POINTER:
                return [base, n.children[1]]
            self.reads_memory = True
            self._mem_read(n.type, st, f"'{n.text}'")
            return [n.children[0], n.children[1]]
        if k == CK.MEMBER_REF_EXPR:
            base = n.children[0].strip() if n.children else None
            if base is not None and base.type.get_canonical().kind == TK.POINTER:
                self.reads_memory = True
                self._mem_read(n.type, st, f"'{n.text}'")
                self._mem_read(base.type.get_canonical().get_pointee(), st, f"'{n.text}'")
            return n.children
        if k == CK.CALL_EXPR:
            name = n.callee_name
            fn = self.prog.functions.get(name) if name else None
            pure = (fn is not None and self.sums[name].pure) or \
                (fn is None and name in PURE_LIBRARY and self.prog.function_is_system(name))
            if not pure:
                raise Unreproducible(f"calls '{name or 'a function pointer'}', which is not "
                                     "known to be pure")
            return n.args
        if k in (CK.UNEXPOSED_EXPR, CK.PAREN_EXPR, CK.CSTYLE_CAST_EXPR, CK.CONDITIONAL_OPERATOR,
                 CK.INIT_LIST_EXPR) or k.is_expression():
            if k in (CK.STMT_EXPR if hasattr(CK, "STMT_EXPR") else CK.UNEXPOSED_EXPR,) and \
                    k != CK.UNEXPOSED_EXPR:
                raise Unreproducible("uses a statement expression")
            return n.children
        raise Unreproducible(f"uses {k.name.lower()}")

    def ok(self, n: Node | None, st: State | None):
        """(True, None) or (False, reason)."""
        if n is None:
            return True, None
        try:
            self.check(n, st)
            return True, None
        except Unreproducible as e:
            return False, str(e)

    # -- effects of code the slice does not reproduce -------------------------------------
    def effects(self, n: Node | None, st: State) -> State:
        """The state after evaluating ``n``: each node's effects after its operands', walked
        iteratively (expressions nest as deep as they have operators)."""
        pending = [(n, False)] if n is not None else []
        while pending:
            x, operands_done = pending.pop()
            if x.kind == CK.CXX_UNARY_EXPR:
                continue
            if operands_done:
                st = self._node_effects(x, st)
            else:
                pending.append((x, True))
                pending.extend((c, False) for c in reversed(x.children))
        return st

    def _node_effects(self, n: Node, st: State) -> State:
        if is_assignment(n):
            st = self._write_lvalue(n.children[0], st, f"is assigned at line {n.line}")
        elif n.kind == CK.CALL_EXPR:
            st = self._call_effects(n, st)
        elif n.kind == CK.ASM_STMT:
            st = self._dirty(st, None, f"the asm statement at line {n.line}")
        return st

    def _write_lvalue(self, lhs: Node, st: State, why: str) -> State:
        b = base_variable_node(lhs)
        v = self.prog.var_of_ref(b) if b is not None else None
        if v is not None:
            return self._taint(st, v, why)
        t = lhs.strip()
        st = self._dirty(st, t.type, f"the store to '{t.text}' at line {t.line}")
        if t.kind == CK.MEMBER_REF_EXPR and t.children:
            bt = t.children[0].strip().type.get_canonical()
            if bt.kind == TK.POINTER:
                st = self._dirty(st, bt.get_pointee(), f"the store to '{t.text}' at line {t.line}")
        return st

    def _write_through(self, arg: Node | None, st: State, why: str) -> State:
        """Effects of a call writing through a pointer argument."""
        if arg is None:
            return st
        a = arg.strip()
        if "_IGNORE" in a.text or a.kind in (CK.INTEGER_LITERAL,) or \
                (a.kind == CK.CSTYLE_CAST_EXPR and a.children and
                 a.children[-1].strip().kind == CK.INTEGER_LITERAL):
            return st
        if a.kind == CK.UNARY_OPERATOR and a.op == "&":
            return self._write_lvalue(a.children[0], st, why)
        if a.kind == CK.DECL_REF_EXPR and a.type.get_canonical().kind in (
                TK.CONSTANTARRAY, TK.INCOMPLETEARRAY, TK.VARIABLEARRAY):
            return self._write_lvalue(a, st, why)
        t = a.type.get_canonical()
        if t.kind == TK.POINTER:
            return self._dirty(st, t.get_pointee(), why.replace("is written", "writes memory"))
        return self._dirty(st, None, why)

    def _call_effects(self, n: Node, st: State) -> State:
        mc = self.prog.mpi_call(n)
        line = n.line
        if mc is not None:
            spec = mc.spec
            idxs = list(spec.outputs)
            for i in (spec.status, spec.request):
                if i is not None:
                    idxs.append(i)
            if spec.is_receive and spec.buffer is not None:
                idxs.append(spec.buffer)
            for i in idxs:
                st = self._write_through(mc.arg(i), st, f"{spec.name} at line {line}")
            if spec.kind in mpi_api.ANSWERED_BY_PEERS:
                st = self._block(st, n, f"{spec.name} at line {line}")
            return st
        name = n.callee_name
        fn = self.prog.functions.get(name) if name else None
        if fn is not None:
            s = self.sums[name]
            if s.pure:
                return st
            st = self._dirty(st, None, f"the call to '{name}' at line {line}")
            for a in n.args:
                st = self._write_through_addr(a, st, f"is passed by address to '{name}' at line {line}")
            if s.calls_unknown or (s.mpi_kinds & mpi_api.ANSWERED_BY_PEERS):
                st = self._block(st, n, f"the call to '{name}' at line {line}, which communicates")
            return st
        if name is not None and self.prog.function_is_quiet(name):
            if name in PURE_LIBRARY:
                return st
            st = self._dirty(st, None, f"the call to '{name}' at line {line}")
            for a in n.args:
                st = self._write_through_addr(a, st, f"is passed by address to '{name}' at line {line}")
            return st
        who = f"'{name}'" if name else "a function pointer"
        st = self._dirty(st, None, f"the call to {who} at line {line}")
        for a in n.args:
            st = self._write_through_addr(a, st, f"is passed by address to {who} at line {line}")
        return self._block(st, n, f"the call to {who} at line {line}, defined elsewhere "
                                  "(it may communicate)")

    def _write_through_addr(self, arg: Node, st: State, why: str) -> State:
        a = arg.strip()
        if a.kind == CK.UNARY_OPERATOR and a.op == "&":
            return self._write_lvalue(a.children[0], st, why)
        if a.kind == CK.DECL_REF_EXPR and a.type.get_canonical().kind in (
                TK.CONSTANTARRAY, TK.INCOMPLETEARRAY, TK.VARIABLEARRAY):
            return self._write_lvalue(a, st, why)
        return st

    # -- receive decisions -------------------------------------------------------------------
    def _decide(self, n: Node, included: bool, reason: str | None, call=None, helper=None):
        d = self.decisions.get(id(n))
        if d is None:
            d = Decision(n, call, helper, included, reason)
            self.decisions[id(n)] = d
            self.order.append(d)
        elif d.included and not included:
            d.included, d.reason = False, reason

    def _receiving(self, n: Node):
        """(MPICall, None) / (None, helper Function) when the call receives, else None."""
        if n.kind != CK.CALL_EXPR:
            return None
        mc = self.prog.mpi_call(n)
        if mc is not None:
            return (mc, None) if mc.spec.is_receive or mc.spec.collective else None
        fn = self.prog.defined_function(n)
        if fn is not None and self.sums[fn.name].receives:
            return None, fn
        return None

    def _common_reasons(self, st: State, guard: str | None):
        if st.cut:
            return f"control may leave before it ({st.cut[1]})"
        if st.blocked:
            return (f"{st.blocked[1]} comes before it in the window (the peer may need that "
                    "message before it sends this one)")
        if guard:
            return guard
        return None

    def decide(self, n: Node, st: State, guard: str | None):
        rc = self._receiving(n)
        if rc is None:
            return
        mc, helper = rc
        if mc is not None:
            spec = mc.spec
            if spec.kind == mpi_api.SENDRECV:
                self._decide(n, False, "MPI_Sendrecv sends before it receives, so its receive "
                                       "waits on its own", call=mc)
                return
            reason = self._common_reasons(st, guard)
            if reason is None:
                roles = (("source", spec.source), ("tag", spec.tag), ("communicator", spec.comm))
                if spec.kind == mpi_api.COLLECTIVE:
                    roles = (("root", spec.root), ("operation", spec.op), ("communicator", spec.comm))
                for role, idx in roles:
                    if idx is None:
                        continue
                    ok, why = self.ok(mc.arg(idx), st)
                    if not ok:
                        reason = f"its {role} argument {why}"
                        break
            if reason is None and spec.name == "MPI_Irecv" and not self._waited(mc):
                reason = ("no MPI_Wait/MPI_Waitall completes it in the region before the next "
                          "send")
            self._decide(n, reason is None, reason, call=mc)
            return
        # a helper function that receives
        reason = self._common_reasons(st, guard)
        h = self.helpers.get(helper.name)
        if reason is None and (h is None or not h.possible):
            reason = f"'{helper.name}' cannot have a firing-rule companion ({h.why if h else 'not analysed'})"
        if reason is None:
            for a in n.args:
                ok, why = self.ok(a, st)
                if not ok:
                    reason = f"its argument '{a.text}' {why}"
                    break
        if reason is None and h.reads_memory and (st.dirty or st.named):
            reason = (f"the messages '{helper.name}' receives depend on memory that "
                      f"{self._dirty_reason(st) or 'the window'} may have changed")
        self._decide(n, reason is None, reason, helper=helper)

    def exclude_nested(self, n: Node | None, reason: str, skip=None):
        if n is None:
            return
        for c in n.walk():
            if c is skip or c.kind != CK.CALL_EXPR:
                continue
            rc = self._receiving(c)
            if rc is not None:
                mc, helper = rc
                self._decide(c, False, reason, call=mc, helper=helper)

    # -- Irecv completion --------------------------------------------------------------------
    def _waited(self, mc: MPICall) -> bool:
        """Is the request of this MPI_Irecv completed by an MPI_Wait/MPI_Waitall that
        certainly runs after it, with no send in between?"""
        req = mc.arg(mc.spec.request)
        if req is None:
            return False
        req_text = "".join(req.text.split())
        base_var = request_variable(self.prog, req)

        def scan(stmts):
            """'found', 'stop' or None (keep looking)."""
            for s in stmts:
                direct = s.strip() if s.is_expr else None
                for c in s.walk():
                    if c.kind != CK.CALL_EXPR:
                        continue
                    m = self.prog.mpi_call(c)
                    if m is not None:
                        if m.spec.kind in mpi_api.ANSWERED_BY_PEERS:
                            return "stop"
                        if m.spec.name in ("MPI_Wait", "MPI_Waitall") and (
                                direct is c or (direct is not None and direct.kind == CK.BINARY_OPERATOR
                                                and direct.children[-1].strip() is c)):
                            if m.spec.name == "MPI_Wait":
                                if "".join((m.arg(0).text if m.arg(0) else "").split()) == req_text:
                                    return "found"
                            else:
                                bv = request_variable(self.prog, m.arg(1))
                                if bv is not None and base_var is not None and bv.key == base_var.key:
                                    return "found"
                        continue
                    fn = self.prog.defined_function(c)
                    if fn is not None and self.sums[fn.name].may_communicate:
                        s_ = self.sums[fn.name]
                        if s_.mpi_kinds & mpi_api.ANSWERED_BY_PEERS or s_.calls_unknown:
                            return "stop"
                    elif fn is None and c.callee_name is not None and \
                            not self.prog.function_is_quiet(c.callee_name):
                        return "stop"
            return None

        cur = mc.node
        top_ids = {id(x) for x in (self.sequence or [])}
        while True:
            p = cur.parent
            if p is None:
                return False
            if id(cur) in top_ids:
                idx = next(i for i, x in enumerate(self.sequence) if x is cur)
                return scan(self.sequence[idx + 1:]) == "found"
            if self.mode == HELPER and cur is self.fn.body:
                return False
            if p.kind == CK.COMPOUND_STMT:
                sibs = p.children
                idx = next(i for i, x in enumerate(sibs) if x is cur)
                r = scan(sibs[idx + 1:])
                if r == "found":
                    return True
                if r == "stop":
                    return False
            cur = p

    # -- statements ----------------------------------------------------------------------------
    def visit(self, n: Node, st: State, guard: str | None) -> State:
        k = n.kind
        if k == CK.COMPOUND_STMT:
            for c in n.children:
                st = self.visit(c, st, guard)
            return st
        if k == CK.DECL_STMT:
            for c in n.children:
                if c.kind == CK.VAR_DECL:
                    st = self.decl(c, st, guard)
            return st
        if k == CK.IF_STMT:
            cond = n.children[0]
            ok, why = self.ok(cond, st)
            self.exclude_nested(cond, "it is part of an if condition")
            st = self.effects(cond, st)
            g = guard or (None if ok else f"its guard '{self.render_node(cond)}' (line {cond.line}) {why}")
            s1 = self.visit(n.children[1], st, g)
            s2 = self.visit(n.children[2], st, g) if len(n.children) > 2 else st
            return s1.join(s2)
        if k in LOOPS:
            return self.loop(n, st, guard)
        if k == CK.SWITCH_STMT:
            cond = n.children[0]
            self.exclude_nested(cond, "it is part of a switch condition")
            st = self.effects(cond, st)
            g = guard or f"it is inside the switch at line {n.line} (firing rules do not reproduce switch statements)"
            frame = {"kind": "switch", "breaks": [], "continues": []}
            self.loops.append(frame)
            body = n.children[-1]
            s = self.visit(body, st, g)
            self.loops.pop()
            out = st.join(s)
            for b in frame["breaks"]:
                out = out.join(b)
            return self._end_scope(out, st)
        if k in _LABELED:
            # a run of labels (case 1: case 2: ...) nests one statement per label: follow it
            # in a loop, not a recursion
            while n.kind in _LABELED:
                if n.kind == CK.LABEL_STMT:
                    st = self._cut(st, n, f"the label at line {n.line} may be reached by goto",
                                   "fn")
                n = n.children[-1]
            return self.visit(n, st, guard)
        if k in (CK.BREAK_STMT, CK.CONTINUE_STMT):
            word = "break" if k == CK.BREAK_STMT else "continue"
            # the loop or switch this statement leaves
            frames = self.loops if k == CK.BREAK_STMT else [f for f in self.loops if f["kind"] == "loop"]
            if not frames:
                return self._cut(st, n, f"the {word} at line {n.line} leaves the window", "fn")
            frame = frames[-1]
            if guard is None and frame["kind"] == "loop":
                self.repro[id(n)] = ("control", None)
                frame["breaks" if k == CK.BREAK_STMT else "continues"].append(st)
                return st
            frame["breaks" if k == CK.BREAK_STMT else "continues"].append(st)
            return self._cut(st, n, f"the {word} at line {n.line} depends on what the rule "
                                    "cannot reproduce", "loop")
        if k == CK.RETURN_STMT:
            e = n.children[0] if n.children else None
            call = e.strip() if e is not None else None
            if call is not None and self._receiving(call) is not None:
                self.decide(call, st, guard)
                self.exclude_nested(e, "it is part of a larger expression", skip=call)
            else:
                self.exclude_nested(e, "it is part of a return expression")
            st = self.effects(e, st)
            if self.mode == HELPER and guard is None:
                self.repro[id(n)] = ("control", None)
                return st
            return self._cut(st, n, f"the return at line {n.line}", "fn")
        if k in (CK.GOTO_STMT, CK.INDIRECT_GOTO_STMT):
            return self._cut(st, n, f"the goto at line {n.line}", "fn")
        if k == CK.NULL_STMT:
            return st
        if n.is_expr:
            return self.expr_stmt(n, st, guard)
        # anything else (asm, ...): unknown effects
        self.exclude_nested(n, f"it is inside a {k.name.lower()}")
        return self._dirty(self.effects(n, st), None, f"the statement at line {n.line}")

    def _end_scope(self, out: State, before: State) -> State:
        if out.cut and out.cut[2] == "loop" and not before.cut:
            out = replace(out, cut=None)
        return out

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
        if rhs is not None and self._receiving(rhs.strip()) is not None:
            return None
        ok, why = self.ok(rhs, st)
        if ok and not self.prog.text_reproducible(s):
            ok, why = False, "comes from inside a macro expansion"
        if ok and s.kind != CK.BINARY_OPERATOR or (ok and s.op != "="):
            if v.key in st.tainted:
                ok, why = False, f"reads '{v.name}', which {self.taint_why.get(v.key)}"
        if ok and guard is None:
            self._mark_repro(n, ("assign", v.key))
            return self._untaint(st, v)
        self._mark_repro(n, None)
        self.exclude_nested(s, "it is part of a larger expression")
        st = self.effects(rhs, st) if rhs is not None else st
        why_t = f"is assigned at line {n.line}" + (f" from a value that {why}" if why else
                                                   " under a condition the rule cannot reproduce")
        return self._taint(st, v, why_t)

    def _mark_repro(self, n: Node, val):
        prev = self.repro.get(id(n), "unset")
        if val is None or prev is None:
            self.repro[id(n)] = None
        elif prev == "unset":
            self.repro[id(n)] = val

    def expr_stmt(self, n: Node, st: State, guard: str | None) -> State:
        r = self.assignment(n, st, guard)
        if r is not None:
            return r
        s = n.strip()
        call = None
        if s.kind == CK.CALL_EXPR:
            call = s
        elif is_assignment(s) and s.kind != CK.UNARY_OPERATOR and s.children[1].strip().kind == CK.CALL_EXPR:
            call = s.children[1].strip()
        if call is not None and self._receiving(call) is not None:
            st = self._receive_call(call, st, guard)
            if call is not s:
                st = self._write_lvalue(s.children[0], st, f"is assigned at line {s.line}")
            return st
        self.exclude_nested(s, "it is part of a larger expression")
        return self.effects(s, st)

    def _receive_call(self, call: Node, st: State, guard: str | None) -> State:
        """A call that receives, directly or through a helper: its arguments are evaluated
        first, then it is announced or left out, then its effects apply."""
        for a in call.args:
            self.exclude_nested(a, "it is part of a larger expression")
            st = self.effects(a, st)
        self.decide(call, st, guard)
        return self._call_effects(call, st)

    def decl(self, vd: Node, st: State, guard: str | None) -> State:
        v = self.prog.var(vd.cursor)
        if v is None or v.is_static_storage:
            return st
        init = vd.children[-1] if vd.children and vd.children[-1].is_expr else None
        call = init.strip() if init is not None else None
        if call is not None and self._receiving(call) is not None:
            st = self._receive_call(call, st, guard)
            self._mark_repro(vd, ("decl", v.key, False))
            return self._taint(st, v, f"is initialized at line {vd.line} by a receive")
        if v.trackable and "(" not in v.type.spelling:
            ok, why = self.ok(init, st)
            if init is not None and ok and not self.prog.text_reproducible(init):
                ok, why = False, "comes from inside a macro expansion"
            if ok and guard is None:
                self._mark_repro(vd, ("decl", v.key, init is not None))
                return self._untaint(st, v)
            self._mark_repro(vd, ("decl", v.key, False))
            self.exclude_nested(init, "it is part of an initializer")
            st = self.effects(init, st)
            return self._taint(st, v, f"is initialized at line {vd.line} with a value that "
                                      f"{why or 'depends on a condition the rule cannot reproduce'}")
        self.exclude_nested(init, "it is part of an initializer")
        st = self.effects(init, st)
        self._mark_repro(vd, None)
        return self._taint(st, v, f"is declared at line {vd.line} with a value the rule does not "
                                  "rebuild")

    def loop(self, n: Node, st: State, guard: str | None) -> State:
        k = n.kind
        before = st
        header_why = None
        init = cond = inc = None
        if k == CK.FOR_STMT:
            init, cond, inc, body, ho, _hc = n.for_parts()
            if ho is None:
                header_why = "its loop header comes from a macro"
            if init is not None:
                if init.kind == CK.DECL_STMT:
                    st = self.visit(init, st, guard)
                    if any(self.repro.get(id(c)) is None for c in init.children if c.kind == CK.VAR_DECL):
                        header_why = header_why or f"its loop header (line {n.line}) is not reproducible"
                else:
                    st = self.expr_stmt(init, st, guard)
                    if self.repro.get(id(init)) is None:
                        header_why = header_why or f"its loop header (line {n.line}) is not reproducible"
            if inc is not None:
                si = inc.strip()
                ok, why = self.ok(si.children[1] if si.kind in (
                    CK.BINARY_OPERATOR, CK.COMPOUND_ASSIGNMENT_OPERATOR) and len(si.children) > 1
                    else None, None)
                if not (is_assignment(inc.strip()) or inc.strip().kind == CK.BINARY_OPERATOR
                        and inc.strip().op == ",") or not ok:
                    header_why = header_why or f"the increment of the loop at line {n.line} is not reproducible"
                elif inc.strip().kind == CK.BINARY_OPERATOR and inc.strip().op == ",":
                    header_why = header_why or f"the increment of the loop at line {n.line} is not reproducible"
                elif self._trackable_target(inc.strip()) is None:
                    header_why = header_why or (f"the loop at line {n.line} steps a variable "
                                                "the rule cannot track")
        elif k == CK.WHILE_STMT:
            cond, body = n.children[0], n.children[1]
        else:  # DO_STMT
            body, cond = n.children[0], n.children[1]
        self.exclude_nested(cond, "it is part of a loop condition")
        self.exclude_nested(inc, "it is part of a loop header")
        entry = st
        g_do = None
        frame = {"kind": "loop", "breaks": [], "continues": []}
        self.loops.append(frame)
        for _ in range(8):
            frame["continues"] = []
            new_g_do = g_do
            if k == CK.DO_STMT:
                g = guard or header_why or g_do
                s = self.visit(body, entry, g)
                for c in frame["continues"]:
                    s = s.join(c)
                ok, why = self.ok(cond, s)
                new_g_do = None if ok else (f"its loop condition '{self.render_node(cond)}' "
                                            f"(line {cond.line}) {why}")
                s = self.effects(cond, s)
            else:
                ok, why = self.ok(cond, entry)
                g = guard or header_why or (None if ok else
                                            f"its loop condition '{self.render_node(cond)}' "
                                            f"(line {cond.line}) {why}")
                s = self.effects(cond, entry) if cond is not None else entry
                s = self.visit(body, s, g)
                for c in frame["continues"]:
                    s = s.join(c)
                if inc is not None:
                    s = self.expr_stmt(inc, s, g)
            new = entry.join(s)
            if new == entry and new_g_do == g_do:
                break
            entry, g_do = new, new_g_do
        self.loops.pop()
        out = entry
        for b in frame["breaks"]:
            out = out.join(b)
        return self._end_scope(out, before)

    # -- building the rule ------------------------------------------------------------------
    def _build(self):
        """Slice: keep what leads to included receives and what their arguments need;
        iterate until the set of needed variables is stable."""
        needed = set()
        while True:
            self._needed = needed
            self._reads = set()
            self._writes = set()
            rules = []
            for n in self.items:
                rules += self._slice(n)
            if self._reads <= needed:
                break
            needed = needed | self._reads
        if self.mode == HELPER:
            # a return that ends the function decides nothing
            while rules and isinstance(rules[-1], Jump) and rules[-1].keyword == "return":
                rules.pop()
        if not announcements(rules):
            rules = []
        self.rules = rules
        if self.mode == WINDOW:
            self._shadow()

    def _note_reads(self, n: Node):
        for c in n.walk():
            if c.kind == CK.DECL_REF_EXPR:
                v = self.prog.var_of_ref(c)
                if v is not None:
                    self._reads.add(v.key)

    def _slice(self, n: Node, top=False) -> list:
        """Rules for statement ``n`` (empty when nothing of it belongs to the rule)."""
        k = n.kind
        if k == CK.COMPOUND_STMT:
            body = []
            for c in n.children:
                body += self._slice(c)
            if not body:
                return []
            if any(isinstance(r, Declaration) for r in body):
                return [Block(n, body)]
            return body
        if k == CK.DECL_STMT:
            out = []
            for c in n.children:
                if c.kind != CK.VAR_DECL:
                    continue
                out += self._calls_in(c)
                val = self.repro.get(id(c))
                v = self.prog.var(c.cursor)
                if v is not None and v.key in self._needed and val and val[0] == "decl":
                    init = c.children[-1] if (val[2] and c.children and c.children[-1].is_expr) else None
                    if init is not None:
                        self._note_reads(init)
                    self._writes.add(v.key)
                    out.append(Declaration(c, v.type.spelling, v.name,
                                           Code.of(init) if init is not None else None))
            return out
        if k == CK.IF_STMT:
            then = self._slice(n.children[1])
            els = self._slice(n.children[2]) if len(n.children) > 2 else []
            calls = self._calls_in(n.children[0])
            if not then and not els:
                return calls
            self._note_reads(n.children[0])
            if not then:
                then = []
            return calls + [If(n, Code.of(n.children[0]), then, els)]
        if k in LOOPS:
            if k == CK.FOR_STMT:
                init, cond, inc, body, ho, hc = n.for_parts()
            elif k == CK.WHILE_STMT:
                cond, body = n.children
            else:
                body, cond = n.children
            b = self._slice(body)
            if not any(r.essential for r in b):
                return []
            if k == CK.FOR_STMT:
                for part in (init, cond, inc):
                    if part is not None:
                        self._note_reads(part)
                for part in (init, inc):
                    if part is not None:
                        self._note_writes(part)
                return [For(n, Code(ho + 1, hc), b)]
            self._note_reads(cond)
            return [(While if k == CK.WHILE_STMT else DoWhile)(n, Code.of(cond), b)]
        if k in (CK.BREAK_STMT, CK.CONTINUE_STMT):
            if self.repro.get(id(n)):
                return [Jump(n, "break" if k == CK.BREAK_STMT else "continue")]
            return []
        if k == CK.RETURN_STMT:
            out = self._calls_in(n)
            if self.mode == HELPER and self.repro.get(id(n)):
                out.append(Jump(n, "return"))
            return out
        if k in (CK.CASE_STMT, CK.DEFAULT_STMT, CK.LABEL_STMT, CK.SWITCH_STMT):
            return self._calls_in(n)
        if n.is_expr:
            out = self._calls_in(n)
            val = self.repro.get(id(n))
            if val and val[0] == "assign" and val[1] in self._needed:
                s = n.strip()
                self._note_reads(s)
                self._writes.add(val[1])
                out.append(Assignment(n, Code(n.start, n.stmt_end())))
            return out
        return self._calls_in(n)

    def _note_writes(self, part: Node):
        for c in part.walk():
            if c.kind == CK.VAR_DECL:
                continue
            if is_assignment(c):
                t = c.children[0].strip()
                v = self.prog.var_of_ref(t) if t.kind == CK.DECL_REF_EXPR else None
                if v is not None:
                    self._writes.add(v.key)

    def _calls_in(self, n: Node) -> list:
        """expect / companion-call rules for the included receives directly in ``n``
        (not inside nested statements, which _slice visits itself)."""
        out = []
        for c in self._expr_calls(n):
            d = self.decisions.get(id(c))
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
                out.append(Expect(c, Code.of(source), Code.of(tag), Code.of(comm)))
            else:
                for a in c.args:
                    self._note_reads(a)
                out.append(CompanionCall(c, d.helper.name, tuple(Code.of(a) for a in c.args)))
        return out

    def _expr_calls(self, n: Node):
        stack = [n]
        res = []
        while stack:
            x = stack.pop()
            if x is not n and not x.is_expr and x.kind != CK.VAR_DECL:
                continue
            if x.kind == CK.CALL_EXPR:
                res.append(x)
            stack.extend(reversed(x.children))
        res.sort(key=lambda c: c.start)
        return res

    def _shadow(self):
        """Variables the rule writes but that are declared outside it get a local copy."""
        inside = [(n.start, n.end) for n in self.items]
        shadows = []
        for key in sorted(self._writes):
            v = self.prog._var_cache.get(key)
            if v is None:
                continue
            off = v.cursor.location.offset
            if any(a <= off < b for a, b in inside):
                continue
            shadows.append(v)
        result = []
        for v in shadows:
            result.append((v.name, self._needs_copy_in(v)))
        self.shadows = result

    def _needs_copy_in(self, v) -> bool:
        """False when the rule's first use of ``v`` is an assignment ``v = e`` (e not
        reading v) that certainly runs: the shadow needs no initial value."""
        def mentions(n):
            return any(c.kind == CK.DECL_REF_EXPR and self.prog.var_of_ref(c) is not None and
                       self.prog.var_of_ref(c).key == v.key for c in n.walk())

        def plain_assign(n):
            s = n.strip()
            if s.kind == CK.BINARY_OPERATOR and s.op == "=":
                t = s.children[0].strip()
                tv = self.prog.var_of_ref(t) if t.kind == CK.DECL_REF_EXPR else None
                return tv is not None and tv.key == v.key and not mentions(s.children[1])
            return False

        # the rule's statements in the order they run, into blocks but not into branches or
        # loops: the first that mentions v decides
        for r in walk_rules(self.rules, into=lambda r: isinstance(r, Block)):
            if isinstance(r, Block):
                continue
            if isinstance(r, Assignment) and mentions(r.node):
                return not plain_assign(r.node)
            if isinstance(r, For):
                init = r.node.for_parts()[0]
                if init is not None and init.is_expr and plain_assign(init):
                    return False
                return True
            if mentions(r.node):
                return True
        return True


# ---------------------------------------------------------------------------------------------
# Companions of helper functions

@dataclass
class HelperRule:
    fn: Function
    possible: bool = True
    why: str = ""
    analysis: SliceAnalysis | None = None
    reads_memory: bool = False

    @property
    def name(self):
        return f"bamboo_expect_{self.fn.name}"


def _old_style_parameters(prog: Program, fn: Function) -> bool:
    """Whether ``fn`` is defined as ``f(a, b) int a; double *b; {...}``: its parameters are
    declared after the parenthesis that closes its identifier list."""
    if not fn.params:
        return False
    _, _, _, name_offset = cx.file_location(fn.cursor.location)
    return ")" in prog.src.blanked[name_offset:fn.params[0].start]


def analyse_helpers(prog: Program, sums: dict) -> dict:
    """Companions for every function defined in the file that receives."""
    helpers = {}
    for fn in prog.function_order:
        if not sums[fn.name].receives:
            continue
        h = HelperRule(fn)
        t = fn.cursor.type
        if t.kind != TK.FUNCTIONPROTO:
            h.possible, h.why = False, "it has no prototype"
        elif t.is_function_variadic():
            h.possible, h.why = False, "it is variadic"
        elif any(not p.spelling for p in fn.params):
            h.possible, h.why = False, "it has unnamed parameters"
        elif _old_style_parameters(prog, fn):
            h.possible, h.why = False, ("it is defined with an old-style (K&R) parameter list, "
                                        "which a companion cannot copy")
        elif statement_nesting_beyond_limit([fn.body]) is not None:
            h.possible, h.why = False, (f"its statements nest more than {MAX_STATEMENT_NESTING} "
                                        "levels deep")
        helpers[fn.name] = h
    # iterate: a companion's memory reads depend on the companions it calls
    for _ in range(4):
        changed = False
        for h in helpers.values():
            if not h.possible:
                continue
            a = SliceAnalysis(prog, h.fn, sums, HELPER, [h.fn.body], helpers).run()
            reads = a.reads_memory or any(
                isinstance(r, CompanionCall) and helpers[r.helper].reads_memory
                for r in walk_rules(a.rules))
            if h.analysis is None or reads != h.reads_memory:
                changed = True
            h.analysis = a
            h.reads_memory = reads
        if not changed:
            break
    return helpers

