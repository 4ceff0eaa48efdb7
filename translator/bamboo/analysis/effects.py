"""Effects on the abstract state (state.py) of code the slice does not reproduce:
assignments, stores, calls, MPI calls writing their outputs, asm."""
from __future__ import annotations

from .. import mpi_api
from ..frontend.cx import CK, TK
from ..frontend.lvalues import base_variable_node
from ..frontend.model import Node, Program
from .state import State, StateUpdates
from .summaries import PURE_LIBRARY, is_assignment

_ARRAYS = (TK.CONSTANTARRAY, TK.INCOMPLETEARRAY, TK.VARIABLEARRAY)


def _addressed_lvalue(a: Node) -> Node | None:
    """The lvalue an argument hands over for writing: ``x`` of ``&x``, or an array."""
    if a.kind == CK.UNARY_OPERATOR and a.op == "&":
        return a.children[0]
    if a.kind == CK.DECL_REF_EXPR and a.type.get_canonical().kind in _ARRAYS:
        return a
    return None


class Effects:
    def __init__(self, prog: Program, sums: dict, updates: StateUpdates):
        self.prog = prog
        self.sums = sums
        self.updates = updates

    def of(self, n: Node | None, st: State) -> State:
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
            st = self.write_lvalue(n.children[0], st, f"is assigned at line {n.line}")
        elif n.kind == CK.CALL_EXPR:
            st = self.call(n, st)
        elif n.kind == CK.ASM_STMT:
            st = self.updates.dirty(st, None, f"the asm statement at line {n.line}")
        return st

    def write_lvalue(self, lhs: Node, st: State, why: str) -> State:
        b = base_variable_node(lhs)
        v = self.prog.var_of_ref(b) if b is not None else None
        if v is not None:
            return self.updates.taint(st, v, why)
        t = lhs.strip()
        st = self.updates.dirty(st, t.type, f"the store to '{t.text}' at line {t.line}")
        if t.kind == CK.MEMBER_REF_EXPR and t.children:
            bt = t.children[0].strip().type.get_canonical()
            if bt.kind == TK.POINTER:
                st = self.updates.dirty(st, bt.get_pointee(),
                                        f"the store to '{t.text}' at line {t.line}")
        return st

    def _write_through(self, arg: Node | None, st: State, why: str) -> State:
        """Effects of an MPI call writing through a pointer argument."""
        if arg is None:
            return st
        a = arg.strip()
        if "_IGNORE" in a.text or a.kind == CK.INTEGER_LITERAL or \
                (a.kind == CK.CSTYLE_CAST_EXPR and a.children and
                 a.children[-1].strip().kind == CK.INTEGER_LITERAL):
            return st
        lvalue = _addressed_lvalue(a)
        if lvalue is not None:
            return self.write_lvalue(lvalue, st, why)
        t = a.type.get_canonical()
        if t.kind == TK.POINTER:
            return self.updates.dirty(st, t.get_pointee(),
                                      why.replace("is written", "writes memory"))
        return self.updates.dirty(st, None, why)

    def _pass_by_address(self, n: Node, st: State, why: str) -> State:
        """A call may write the variables whose addresses it is given."""
        for arg in n.args:
            lvalue = _addressed_lvalue(arg.strip())
            if lvalue is not None:
                st = self.write_lvalue(lvalue, st, why)
        return st

    def call(self, n: Node, st: State) -> State:
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
                st = self.updates.block(st, n, f"{spec.name} at line {line}")
            return st
        name = n.callee_name
        fn = self.prog.functions.get(name) if name else None
        if fn is not None:
            s = self.sums[name]
            if s.pure:
                return st
            st = self.updates.dirty(st, None, f"the call to '{name}' at line {line}")
            st = self._pass_by_address(n, st, f"is passed by address to '{name}' at line {line}")
            if s.calls_unknown or (s.mpi_kinds & mpi_api.ANSWERED_BY_PEERS):
                st = self.updates.block(st, n, f"the call to '{name}' at line {line}, which "
                                               "communicates")
            return st
        if name is not None and self.prog.function_is_system(name):
            if name in PURE_LIBRARY:
                return st
            st = self.updates.dirty(st, None, f"the call to '{name}' at line {line}")
            return self._pass_by_address(n, st, f"is passed by address to '{name}' at line "
                                                f"{line}")
        who = f"'{name}'" if name else "a function pointer"
        st = self.updates.dirty(st, None, f"the call to {who} at line {line}")
        st = self._pass_by_address(n, st, f"is passed by address to {who} at line {line}")
        return self.updates.block(st, n, f"the call to {who} at line {line}, defined elsewhere "
                                         "(it may communicate)")
