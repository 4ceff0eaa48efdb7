"""Canonical counted loops: ``for (i = LO; i < END; i++)``, with ``<=``, ``++i``, ``i += C`` and
``i = i + C`` (C a positive integer constant), the variable an integer declared in the loop
or before it.  Only these have a trip count the run time can compute before the loop runs."""
from __future__ import annotations

from dataclasses import dataclass

from ..frontend import cx
from ..frontend.cx import INTEGER_KINDS, unwrap
from ..source import SourceFile

CK = cx.CK
_IMPLICIT = (CK.UNEXPOSED_EXPR, CK.PAREN_EXPR)


@dataclass
class CanonicalLoop:
    cursor: object        # the FOR_STMT
    var: object           # the loop variable's VAR_DECL (or PARM_DECL)
    declared: bool        # declared in the loop's init (not visible after it)
    lo: object            # cursor of the first value
    end: object           # cursor of the bound
    inclusive: bool       # <= rather than <
    step: int
    body: object
    header_end: int       # offset just past the header's ')'

    def trip(self, lo: str, end: str) -> str:
        """C for the trip count, given the texts of the first value and the bound."""
        last = f"({end}) + 1" if self.inclusive else f"({end})"
        if self.step == 1:
            return f"({last} > ({lo}) ? (long)({last} - ({lo})) : 0L)"
        return (f"({last} > ({lo}) ? (long)(({last} - ({lo}) + {self.step - 1}) / {self.step})"
                " : 0L)")


def for_parts(src: SourceFile, loop) -> tuple[list, int] | None:
    """The FOR_STMT's (init, cond, inc) cursors, None for a part left out, and the offset
    just past its header: libclang lists only the parts present."""
    header = src.for_header(loop.extent.start.offset)
    if header is None:
        return None
    open_paren, semis, close = header
    bounds = [(open_paren, semis[0]), (semis[0], semis[1]), (semis[1], close)]
    parts = [None, None, None]
    for child in loop.get_children():
        o = child.extent.start.offset
        for n, (a, b) in enumerate(bounds):
            if a < o < b:
                parts[n] = child
    return parts, close + 1


def canonical_loop(src: SourceFile, loop) -> CanonicalLoop | str:
    """The loop's counted form, or why it has none."""
    split = for_parts(src, loop)
    if split is None:
        return "its header is not the usual for (init; condition; increment)"
    (init, cond, inc), header_end = split
    body = list(loop.get_children())[-1]
    if init is None or cond is None or inc is None:
        return "its header leaves out the start, the condition or the increment"
    var, declared, lo = _init(init)
    if var is None:
        return "its start is not 'i = first value' for one integer variable i"
    if var.type.get_canonical().kind not in INTEGER_KINDS:
        return f"its variable '{var.spelling}' is not an integer"
    bound = _condition(cond, var)
    if bound is None:
        return f"its condition is not '{var.spelling} < bound' or '{var.spelling} <= bound'"
    end, inclusive = bound
    step = _step(inc, var)
    if step is None:
        return (f"its increment is not {var.spelling}++ or {var.spelling} += a positive "
                "constant")
    return CanonicalLoop(loop, var, declared, lo, end, inclusive, step, body, header_end)


def is_var(c, var) -> bool:
    c = unwrap(c, _IMPLICIT)
    return c.kind == CK.DECL_REF_EXPR and c.referenced is not None and \
        c.referenced.hash == var.hash


def _init(init):
    if init.kind == CK.DECL_STMT:
        decls = list(init.get_children())
        if len(decls) != 1 or decls[0].kind != CK.VAR_DECL:
            return None, False, None
        values = [c for c in decls[0].get_children() if c.kind != CK.TYPE_REF]
        if len(values) != 1:
            return None, False, None
        return decls[0], True, values[0]
    c = unwrap(init, _IMPLICIT)
    if c.kind == CK.BINARY_OPERATOR and cx.binary_op(c) == "=":
        lhs, rhs = list(c.get_children())
        lhs = unwrap(lhs, _IMPLICIT)
        if lhs.kind == CK.DECL_REF_EXPR and lhs.referenced is not None and \
                lhs.referenced.kind in (CK.VAR_DECL, CK.PARM_DECL):
            return lhs.referenced, False, rhs
    return None, False, None


def _condition(cond, var):
    c = unwrap(cond, _IMPLICIT)
    if c.kind != CK.BINARY_OPERATOR or cx.binary_op(c) not in ("<", "<="):
        return None
    lhs, rhs = list(c.get_children())
    if not is_var(lhs, var):
        return None
    return rhs, cx.binary_op(c) == "<="


def _step(inc, var) -> int | None:
    c = unwrap(inc, _IMPLICIT)
    if c.kind == CK.UNARY_OPERATOR and cx.unary_op(c) in ("++", "post++"):
        return 1 if is_var(list(c.get_children())[0], var) else None
    if c.kind == CK.COMPOUND_ASSIGNMENT_OPERATOR and cx.binary_op(c) == "+=":
        lhs, rhs = list(c.get_children())
        return _positive_constant(rhs) if is_var(lhs, var) else None
    if c.kind == CK.BINARY_OPERATOR and cx.binary_op(c) == "=":
        lhs, rhs = list(c.get_children())
        rhs = unwrap(rhs, _IMPLICIT)
        if is_var(lhs, var) and rhs.kind == CK.BINARY_OPERATOR and cx.binary_op(rhs) == "+":
            a, b = list(rhs.get_children())
            if is_var(a, var):
                return _positive_constant(b)
    return None


def _positive_constant(c) -> int | None:
    value = cx.integer_literal(c)
    return value if value is not None and value > 0 else None
