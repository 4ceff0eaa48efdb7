"""Whether an index is affine in a nest's loop variables (so that the elements it touches form
a linear memory access descriptor), and what a remote address is made of.

The optimizer never rewrites an index: the run time evaluates the user's own address at the
corners of the iteration space (writer.py), so only the index's shape is checked here."""
from __future__ import annotations

from dataclasses import dataclass

from ..frontend import cx
from ..frontend.cx import base_variable, unwrap

CK = cx.CK
TK = cx.TK
_TRANSPARENT = (CK.UNEXPOSED_EXPR, CK.PAREN_EXPR, CK.CSTYLE_CAST_EXPR)
INVARIANT = 0
AFFINE = 1


class NotAffine(Exception):
    """Why an expression is not affine in the loop variables, or not invariant."""


@dataclass
class Context:
    """What a nest changes: its loop variables, the variables it assigns or declares, the
    arrays whose elements it writes, and the types it stores through pointers."""
    loop_vars: dict          # VAR_DECL hash -> name, of the loops enclosing the access
    assigned: dict           # hash -> name: assigned, incremented, declared or address taken
    contents: set            # hashes of arrays (or structures) with elements written
    pointer_stores: set      # canonical type spellings stored through pointers ("*": unknown)

    def memory_is_invariant(self, variable, through_pointer: bool) -> bool:
        if variable is None or variable.hash in self.assigned or variable.hash in self.contents:
            return False
        return not (through_pointer and self.pointer_stores)


def degree(c, ctx: Context) -> int:
    """INVARIANT or AFFINE; raises NotAffine."""
    c = unwrap(c, _TRANSPARENT)
    k = c.kind
    if k in (CK.INTEGER_LITERAL, CK.CHARACTER_LITERAL, CK.CXX_BOOL_LITERAL_EXPR):
        return INVARIANT
    if k == CK.DECL_REF_EXPR:
        v = c.referenced
        if v is None:
            raise NotAffine(f"'{c.spelling}' is unknown")
        if v.hash in ctx.loop_vars:
            return AFFINE
        if v.kind == CK.ENUM_CONSTANT_DECL:
            return INVARIANT
        if v.kind not in (CK.VAR_DECL, CK.PARM_DECL):
            raise NotAffine(f"'{c.spelling}' is not a variable")
        if v.hash in ctx.assigned:
            raise NotAffine(f"'{c.spelling}' changes inside the loop")
        return INVARIANT
    if k == CK.CXX_UNARY_EXPR:   # sizeof, alignof (C too)
        return INVARIANT
    if k == CK.UNARY_OPERATOR:
        op = cx.unary_op(c)
        child = list(c.get_children())[0]
        if op in ("-", "+", "~"):
            d = degree(child, ctx)
            if op == "~" and d != INVARIANT:
                raise NotAffine("'~' of a loop variable is not affine")
            return d
        if op == "*":
            return _memory_read(c, ctx)
        raise NotAffine(f"the operator '{op}' has a side effect or takes an address")
    if k == CK.BINARY_OPERATOR:
        op = cx.binary_op(c)
        a, b = (degree(x, ctx) for x in c.get_children())
        if op in ("+", "-"):
            return max(a, b)
        if op == "*":
            if a and b:
                raise NotAffine("it multiplies loop variables together")
            return max(a, b)
        if op in ("=", ","):
            raise NotAffine(f"it has a side effect ('{op}')")
        if a or b:
            raise NotAffine(f"'{op}' of a loop variable is not affine")
        return INVARIANT
    if k in (CK.ARRAY_SUBSCRIPT_EXPR, CK.MEMBER_REF_EXPR):
        return _memory_read(c, ctx)
    if k == CK.CONDITIONAL_OPERATOR:
        if any(degree(x, ctx) for x in c.get_children()):
            raise NotAffine("a conditional expression of a loop variable is not affine")
        return INVARIANT
    if k == CK.CALL_EXPR:
        raise NotAffine(f"it calls {c.spelling}()")
    if k in (CK.COMPOUND_ASSIGNMENT_OPERATOR,):
        raise NotAffine("it has a side effect")
    raise NotAffine(f"the optimizer does not understand '{_text(c)}'")


def _memory_read(c, ctx: Context) -> int:
    """An element read from memory: invariant if its place is and the nest does not write it;
    a read at a place that moves with the loop is an indirect index."""
    for operand in c.get_children():
        if operand.kind == CK.TYPE_REF:
            continue
        if _mentions_loop_var(operand, ctx):
            raise NotAffine(f"'{_text(c)}' reads memory at a place that moves with the loop "
                            "(an indirect index)")
        degree(operand, ctx)
    variable, through = base_variable(c)
    if not ctx.memory_is_invariant(variable, through):
        raise NotAffine(f"'{_text(c)}' may change inside the loop")
    return INVARIANT


def computable(c, ctx: Context) -> None:
    """Whether an inspector may compute the expression before the nest runs, with the loop
    variables its own: no side effect, no call, and nothing it reads written by the nest;
    raises NotAffine with the reason."""
    c = unwrap(c, _TRANSPARENT)
    k = c.kind
    if k in (CK.INTEGER_LITERAL, CK.CHARACTER_LITERAL, CK.CXX_BOOL_LITERAL_EXPR,
             CK.CXX_UNARY_EXPR):
        return
    if k == CK.DECL_REF_EXPR:
        if c.referenced is not None and c.referenced.hash in ctx.loop_vars:
            return
        degree(c, ctx)
        return
    if k == CK.UNARY_OPERATOR:
        op = cx.unary_op(c)
        if op not in ("-", "+", "~", "!", "*"):
            raise NotAffine(f"the operator '{op}' has a side effect or takes an address")
        computable(list(c.get_children())[0], ctx)
        if op == "*":
            _unwritten(c, ctx)
        return
    if k == CK.BINARY_OPERATOR:
        if cx.binary_op(c) in ("=", ","):
            raise NotAffine(f"it has a side effect ('{cx.binary_op(c)}')")
        for x in c.get_children():
            computable(x, ctx)
        return
    if k == CK.CONDITIONAL_OPERATOR:
        for x in c.get_children():
            computable(x, ctx)
        return
    if k in (CK.ARRAY_SUBSCRIPT_EXPR, CK.MEMBER_REF_EXPR):
        for x in c.get_children():
            if x.kind != CK.TYPE_REF:
                computable(x, ctx)
        _unwritten(c, ctx)
        return
    if k == CK.CALL_EXPR:
        raise NotAffine(f"it calls {c.spelling}()")
    raise NotAffine(f"the optimizer does not understand '{_text(c)}'")


def _unwritten(c, ctx: Context) -> None:
    """A read of memory the nest does not write: not an element of an array it writes, and not
    of a type it stores through a pointer."""
    variable, through = base_variable(c)
    if variable is None:
        raise NotAffine(f"'{_text(c)}' is not read from a named variable")
    if variable.hash in ctx.assigned or variable.hash in ctx.contents:
        raise NotAffine(f"'{_text(c)}' may change inside the loop")
    element = type_name(c.type)
    stored = [t for t in sorted(ctx.pointer_stores) if may_alias(t, element)] if through else []
    if stored:
        raise NotAffine(f"'{_text(c)}' may change inside the loop (it stores through a pointer "
                        f"to {stored[0]})")


_CHAR_TYPES = {"char", "signed char", "unsigned char"}


def type_name(t) -> str:
    """A type as stores and reads are compared: canonical, without qualifiers."""
    return t.get_canonical().spelling.replace("const ", "").replace("volatile ", "")


def may_alias(stored: str, element: str) -> bool:
    """Whether a store of type ``stored`` ("*": unknown) may change an object of type
    ``element`` (C's aliasing rules: its own type, or a character type)."""
    return stored in ("*", element) or stored in _CHAR_TYPES


def _mentions_loop_var(c, ctx: Context) -> bool:
    return any(x.kind == CK.DECL_REF_EXPR and x.referenced is not None and
               x.referenced.hash in ctx.loop_vars for x in cx.walk_preorder(c))


def _text(c) -> str:
    return " ".join(t.spelling for t in c.get_tokens())


@dataclass
class RemoteAddress:
    variable: object       # VAR_DECL or PARM_DECL of the array or pointer
    name: str
    subscripts: list       # index cursors, outermost first (p + e: [e])


def remote_address(c) -> RemoteAddress:
    """``&x[i]``, ``&x[i][j]``..., ``x + e``, ``x[i] + e`` or ``x`` for a named array or
    pointer x: the variable and every index the address adds up."""
    c = unwrap(c, _TRANSPARENT)
    if c.kind == CK.UNARY_OPERATOR and cx.unary_op(c) == "&":
        inner = unwrap(list(c.get_children())[0], _TRANSPARENT)
        if inner.kind != CK.ARRAY_SUBSCRIPT_EXPR:
            raise NotAffine("the address is not an element of an array (&x[i])")
        return _element(inner)
    if c.kind == CK.BINARY_OPERATOR and cx.binary_op(c) in ("+", "-"):
        if cx.binary_op(c) == "-":
            raise NotAffine("write the address as &x[i] or x + i")
        a, b = list(c.get_children())
        if _is_pointer(b) and not _is_pointer(a):
            a, b = b, a
        address = remote_address(a)
        address.subscripts.append(b)
        return address
    return _element(c)


def element(c) -> RemoteAddress:
    """``x[i]``, ``x[i][j]``...: an element of a named array or pointer (raises NotAffine)."""
    return _element(unwrap(c, _TRANSPARENT))


def _element(c) -> RemoteAddress:
    subscripts = []
    while c.kind == CK.ARRAY_SUBSCRIPT_EXPR:
        base, index = list(c.get_children())
        subscripts.insert(0, index)
        c = unwrap(base, _TRANSPARENT)
    if c.kind != CK.DECL_REF_EXPR or c.referenced is None or \
            c.referenced.kind not in (CK.VAR_DECL, CK.PARM_DECL):
        raise NotAffine(f"'{_text(c)}' is not a named array or pointer")
    return RemoteAddress(c.referenced, c.spelling, subscripts)


def _is_pointer(c) -> bool:
    return c.type.get_canonical().kind in (TK.POINTER, TK.CONSTANTARRAY, TK.INCOMPLETEARRAY)
