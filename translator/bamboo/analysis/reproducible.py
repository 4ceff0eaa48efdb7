"""Can the firing rule evaluate this expression at the evaluation point, without side effects,
to the value it has at this point of the window?  The reproducibility check."""
from __future__ import annotations

from ..frontend import cx
from ..frontend.cx import CK, TK
from ..frontend.model import Node, Program
from .state import ANY_TYPE, CHARLIKE, State, StateUpdates, memory_type_key
from .summaries import PURE_LIBRARY

_LITERALS = (CK.INTEGER_LITERAL, CK.FLOATING_LITERAL, CK.CHARACTER_LITERAL, CK.STRING_LITERAL,
             CK.CXX_UNARY_EXPR, CK.TYPE_REF)
_COMPARISONS = ("==", "!=", "<=", ">=")


class Unreproducible(Exception):
    """The expression cannot be reproduced; the message says why."""


class ReproducibilityCheck:
    def __init__(self, prog: Program, sums: dict, updates: StateUpdates):
        self.prog = prog
        self.sums = sums
        self.updates = updates
        self.reads_memory = False   # whether a checked expression reads memory

    def ok(self, n: Node | None, st: State | None):
        """(True, None) or (False, reason).  ``st`` None: only side-effect freedom."""
        if n is None:
            return True, None
        try:
            self.check(n, st)
            return True, None
        except Unreproducible as e:
            return False, str(e)

    def check(self, n: Node, st: State | None):
        """Raise Unreproducible(reason) unless ``n`` can be reproduced."""
        if not self.prog.text_reproducible(n):
            raise Unreproducible("comes from inside a macro expansion")
        pending = [n]
        while pending:
            pending.extend(reversed(self._check_node(pending.pop(), st)))

    def _memory_read(self, t, st, what):
        if st is None or not st.memory_changed:
            return
        key = memory_type_key(t)
        if ANY_TYPE in st.dirty or key in st.dirty or key in st.named or key in CHARLIKE:
            why = self.updates.dirty_reason(st, key) or "a store to a variable of that type"
            raise Unreproducible(f"reads {what} after {why} may have changed it")

    def _variable(self, n: Node, st: State | None) -> list:
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
            raise Unreproducible(f"reads '{v.name}', which {self.updates.taint_reason(v)}")
        if v.is_memory:
            self.reads_memory = True
            if st.dirty:
                key = memory_type_key(v.type)
                if ANY_TYPE in st.dirty or key in st.dirty or key in CHARLIKE or \
                        cx.strip_arrays(v.type).kind == TK.RECORD:
                    why = self.updates.dirty_reason(st, key)
                    raise Unreproducible(f"reads '{v.name}' after {why} may have changed it")
        return []

    def _check_node(self, n: Node, st: State | None) -> list:
        """Check one node of an expression; returns its operands still to be checked (the
        walk is iterative: expressions nest as deep as they have operators)."""
        k = n.kind
        if k in _LITERALS:
            return []
        if k == CK.DECL_REF_EXPR:
            return self._variable(n, st)
        if k == CK.UNARY_OPERATOR:
            op = n.op
            if op in ("++", "--", "post++", "post--"):
                raise Unreproducible("modifies a variable")
            if op == "&":
                target = n.children[0].strip()
                if target.kind == CK.DECL_REF_EXPR:
                    return []  # an address, not a read
                if target.kind == CK.ARRAY_SUBSCRIPT_EXPR:
                    return target.children  # &a[i] is a + i: the element is not read
                if target.kind == CK.MEMBER_REF_EXPR and target.children and \
                        target.children[0].strip().type.get_canonical().kind == TK.POINTER:
                    return target.children  # &p->f is p plus an offset
            if op == "*":
                self.reads_memory = True
                self._memory_read(n.type, st, f"'{n.text}'")
            return n.children
        if k == CK.BINARY_OPERATOR:
            if n.op.endswith("=") and n.op not in _COMPARISONS:
                raise Unreproducible("assigns a variable")
            return n.children
        if k == CK.COMPOUND_ASSIGNMENT_OPERATOR:
            raise Unreproducible("assigns a variable")
        if k == CK.ARRAY_SUBSCRIPT_EXPR:
            base = n.children[0].strip()
            if base.kind == CK.DECL_REF_EXPR and base.type.get_canonical().kind != TK.POINTER:
                return [base, n.children[1]]
            self.reads_memory = True
            self._memory_read(n.type, st, f"'{n.text}'")
            return [n.children[0], n.children[1]]
        if k == CK.MEMBER_REF_EXPR:
            base = n.children[0].strip() if n.children else None
            if base is not None and base.type.get_canonical().kind == TK.POINTER:
                self.reads_memory = True
                self._memory_read(n.type, st, f"'{n.text}'")
                self._memory_read(base.type.get_canonical().get_pointee(), st, f"'{n.text}'")
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
        if k == CK.StmtExpr:
            raise Unreproducible("uses a statement expression")
        if k.is_expression():
            return n.children
        raise Unreproducible(f"uses {k.name.lower()}")
