"""What an lvalue or an MPI argument designates: the variable behind ``a[i]``, ``s.f`` or
``&r``.  Shared by the front end (address-taken variables), the firing-rule analysis (what a
store changes) and the region checks (what a receive block writes).  These work on the Node
tree; on libclang's cursors, before there is a model, cx.base_variable answers what the comm
directives and loop communication ask instead: which variable's storage an address reaches,
and whether through a pointer."""
from __future__ import annotations

from . import cx
from .cx import CK
from .model import Node, Program


def base_variable_node(n: Node):
    """The variable an lvalue designates as a whole (a, a[i], a.f, (a)) -> DECL_REF of a."""
    n = n.strip()
    while True:
        if n.kind == CK.ARRAY_SUBSCRIPT_EXPR and n.children:
            base = n.children[0].strip()
            if base.kind == CK.DECL_REF_EXPR and base.type.get_canonical().kind in (
                    cx.TK.CONSTANTARRAY, cx.TK.INCOMPLETEARRAY, cx.TK.VARIABLEARRAY):
                n = base
                continue
            return None
        if n.kind == CK.MEMBER_REF_EXPR and n.children:
            base = n.children[0].strip()
            if base.type.get_canonical().kind == cx.TK.RECORD:  # s.f (not p->f)
                n = base
                continue
            return None
        break
    return n if n.kind == CK.DECL_REF_EXPR else None


def request_variable(prog: Program, arg: Node | None):
    """The variable behind an MPI_Request argument: `reqs`, `&reqs[i]` or `&r`, or None."""
    if arg is None:
        return None
    a = arg.strip()
    base = base_variable_node(a.children[0] if a.kind == CK.UNARY_OPERATOR and a.op == "&" else arg)
    return prog.var_of_ref(base) if base is not None else None
