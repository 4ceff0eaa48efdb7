"""Irecv-to-Wait matching: an MPI_Irecv joins a firing rule only if an MPI_Wait/MPI_Waitall
that certainly runs after it completes its request before anything that may send."""
from __future__ import annotations

from .. import mpi_api
from ..frontend.cx import CK
from ..frontend.lvalues import request_variable
from ..frontend.model import MPICall, Node, Program

_FOUND, _STOP = "found", "stop"


class IrecvCompletion:
    """``sequence``: for a window, the region body's statements after block reordering (the
    search goes on after the window); ``boundary``: for a helper, its body (the search ends
    there)."""

    def __init__(self, prog: Program, sums: dict, sequence: list | None, boundary: Node | None):
        self.prog = prog
        self.sums = sums
        self.sequence = sequence or []
        self.boundary = boundary

    def completed(self, mc: MPICall) -> bool:
        req = mc.arg(mc.spec.request)
        if req is None:
            return False
        cur = mc.node
        top_ids = {id(x) for x in self.sequence}
        while True:
            p = cur.parent
            if p is None:
                return False
            if id(cur) in top_ids:
                idx = next(i for i, x in enumerate(self.sequence) if x is cur)
                return self._scan(self.sequence[idx + 1:], req) == _FOUND
            if cur is self.boundary:
                return False
            if p.kind == CK.COMPOUND_STMT:
                siblings = p.children
                idx = next(i for i, x in enumerate(siblings) if x is cur)
                found = self._scan(siblings[idx + 1:], req)
                if found is not None:
                    return found == _FOUND
            cur = p

    def _completes(self, wait: MPICall, req: Node) -> bool:
        if wait.spec.name == "MPI_Wait":
            waited = wait.arg(0)
            return "".join((waited.text if waited else "").split()) == "".join(req.text.split())
        waited = request_variable(self.prog, wait.arg(1))
        received = request_variable(self.prog, req)
        return waited is not None and received is not None and waited.key == received.key

    def _may_send(self, call: Node) -> bool:
        fn = self.prog.defined_function(call)
        if fn is not None:
            s = self.sums[fn.name]
            return s.may_communicate and bool(s.mpi_kinds & mpi_api.ANSWERED_BY_PEERS or
                                              s.calls_unknown)
        return call.callee_name is not None and not self.prog.function_is_system(call.callee_name)

    def _scan(self, stmts, req: Node):
        """_FOUND (a statement completes the request), _STOP (something may send first) or
        None (neither: keep looking)."""
        for s in stmts:
            direct = s.strip() if s.is_expr else None
            for c in s.walk():
                if c.kind != CK.CALL_EXPR:
                    continue
                m = self.prog.mpi_call(c)
                if m is None:
                    if self._may_send(c):
                        return _STOP
                    continue
                if m.spec.kind in mpi_api.ANSWERED_BY_PEERS:
                    return _STOP
                # a wait that is the statement, or the value assigned by it
                is_statement = direct is c or (direct is not None and
                                               direct.kind == CK.BINARY_OPERATOR and
                                               direct.children[-1].strip() is c)
                if m.spec.name in ("MPI_Wait", "MPI_Waitall") and is_statement and \
                        self._completes(m, req):
                    return _FOUND
        return None
