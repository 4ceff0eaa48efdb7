"""Code that makes only certain MPI calls and changes nothing else a message could be read
from or written to: what lets the runtime keep a send's buffer lent until the evaluation point
(a send block of sends only) or post a window's receives at the evaluation point (a window of
receives and waits only)."""
from __future__ import annotations

from typing import Callable

from ..frontend.cx import CK
from ..frontend.model import MPICall, Node, Program
from .summaries import is_assignment

# Statements such code may hold (expressions are checked apart): none that leaves it early.
_PLAIN_STATEMENTS = {CK.COMPOUND_STMT, CK.IF_STMT, CK.FOR_STMT, CK.WHILE_STMT, CK.DO_STMT,
                     CK.NULL_STMT, CK.DECL_STMT}


def makes_only(prog: Program, statements, allowed: Callable[[MPICall], bool],
               reads_memory: bool = True) -> bool:
    """Whether ``statements`` run to their end (no return, break, goto, asm...), call nothing
    but MPI calls ``allowed`` accepts, and write or declare no variable but local scalars whose
    address is never taken (loop counters): no buffer of those calls can be such a variable,
    nor memory that a store or another call changes. Unless ``reads_memory``, they also read
    no memory (arrays, structures, globals, what pointers reach) but in the MPI calls'
    arguments."""
    pending = [(n, False) for n in statements]  # (node, inside an MPI call's arguments)
    while pending:
        n, in_call = pending.pop()
        if n.kind.is_statement() and n.kind not in _PLAIN_STATEMENTS:
            return False
        if n.kind == CK.COMPOUND_LITERAL_EXPR:
            return False  # a nameless object that ends with its block
        if n.kind == CK.DECL_STMT:
            declared = [prog.var(vd.cursor) for vd in n.children if vd.kind == CK.VAR_DECL]
            if not all(v is not None and v.trackable for v in declared):
                return False
        elif is_assignment(n):
            t = n.children[0].strip()
            v = prog.var_of_ref(t) if t.kind == CK.DECL_REF_EXPR else None
            if v is None or not v.trackable:
                return False  # a store through a pointer or into an array or a member
        elif n.kind == CK.CALL_EXPR:
            mc = prog.mpi_call(n)
            if mc is None or not allowed(mc):
                return False
            in_call = True
        elif not (reads_memory or in_call) and _reads_memory(prog, n):
            return False
        pending += [(c, in_call) for c in n.children]
    return True


def through_last_call(prog: Program, statements, calls: Callable[[MPICall], bool]) -> list:
    """``statements`` (those of a block, when they are one block) up to the last that makes one
    of ``calls``: what follows runs once they are all done."""
    while len(statements) == 1 and statements[0].kind == CK.COMPOUND_STMT:
        statements = statements[0].children
    last = -1
    for i, statement in enumerate(statements):
        pending = [statement]
        while pending:
            n = pending.pop()
            mc = prog.mpi_call(n) if n.kind == CK.CALL_EXPR else None
            if mc is not None and calls(mc):
                last = i
                break
            pending += n.children
    return list(statements[:last + 1])


def _reads_memory(prog: Program, n: Node) -> bool:
    if n.kind == CK.DECL_REF_EXPR:
        v = prog.var_of_ref(n)
        return v is not None and not v.trackable
    return n.kind in (CK.ARRAY_SUBSCRIPT_EXPR, CK.MEMBER_REF_EXPR) or (
        n.kind == CK.UNARY_OPERATOR and n.op == "*")
