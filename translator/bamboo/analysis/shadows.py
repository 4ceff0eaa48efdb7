"""The rule's own copies: a window's firing rule runs before the window, so the variables it
assigns (loop counters, locals its receives' arguments need) must not change the task's
own.  Each one declared outside the window gets a shadow in the rule's block, initialized
from the task's variable unless the rule certainly assigns it before reading it."""
from __future__ import annotations

from ..frontend.cx import CK
from ..frontend.model import Node, Program
from .rules import Assignment, Block, For, walk_rules


def shadow_copies(prog: Program, window: list, rules: list, writes: set) -> list:
    """[(name, needs the task's value)] for the variables in ``writes`` declared outside
    the window's statements."""
    inside = [(n.start, n.end) for n in window]
    shadows = []
    for key in sorted(writes):
        v = prog.var_by_key(key)
        if v is None:
            continue
        off = v.cursor.location.offset
        if any(a <= off < b for a, b in inside):
            continue
        shadows.append((v.name, _needs_copy_in(prog, rules, v)))
    return shadows


def _needs_copy_in(prog: Program, rules: list, v) -> bool:
    """False when the rule's first use of ``v`` is an assignment ``v = e`` (e not reading v)
    that certainly runs: the shadow needs no initial value."""
    def mentions(n: Node) -> bool:
        return any(c.kind == CK.DECL_REF_EXPR and prog.var_of_ref(c) is not None and
                   prog.var_of_ref(c).key == v.key for c in n.walk())

    def plain_assign(n: Node) -> bool:
        s = n.strip()
        if s.kind == CK.BINARY_OPERATOR and s.op == "=":
            t = s.children[0].strip()
            tv = prog.var_of_ref(t) if t.kind == CK.DECL_REF_EXPR else None
            return tv is not None and tv.key == v.key and not mentions(s.children[1])
        return False

    # the rule's statements in the order they run, into blocks but not into branches or
    # loops: the first that mentions v decides
    for r in walk_rules(rules, into=lambda r: isinstance(r, Block)):
        if isinstance(r, Block):
            continue
        if isinstance(r, Assignment) and mentions(r.node):
            return not plain_assign(r.node)
        if isinstance(r, For):
            init = r.node.for_parts()[0]
            return not (init is not None and init.is_expr and plain_assign(init))
        if mentions(r.node):
            return True
    return True
