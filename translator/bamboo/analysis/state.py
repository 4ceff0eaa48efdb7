"""The abstract state of the firing-rule analysis, a lattice, and its updates.

At each point of a window (or of a helper's body) the ``State`` says what the slice, run at
the evaluation point, can no longer reproduce:

* ``tainted``: variables whose value here the slice cannot reproduce (received into,
  assigned from something impure, ...);
* ``dirty``: memory, by type ('*' any type), that may have changed behind the slice's back
  (stores through pointers, calls, received buffers); ``named`` the types of memory
  variables assigned by name;
* ``blocked``: a send or another communicating call came first: the peer may need that
  message before it sends ours, so later receives must wait on their own;
* ``cut``: control may leave before this point (return, goto, a break the slice cannot
  decide).

States only grow along a path, and ``join`` (where paths meet) is their union: a finite
lattice whose height is bounded by the variables and types the code names (dataflow.py
relies on that to bound its loops).  ``StateUpdates`` makes the changes and keeps, for each
variable and type, the first reason it was tainted or dirtied: the notes say why.
"""
from __future__ import annotations

from dataclasses import dataclass, replace

from ..frontend import cx
from ..frontend.cx import TK
from ..frontend.model import Node

# Memory of these types may alias anything: a store to it dirties every type.
CHARLIKE = {"char", "signed char", "unsigned char", "void"}

ANY_TYPE = "*"


@dataclass(frozen=True)
class State:
    tainted: frozenset = frozenset()    # variable keys
    dirty: frozenset = frozenset()      # type keys stored through pointers and calls
    named: frozenset = frozenset()      # type keys of named memory variables assigned
    blocked: tuple | None = None        # (offset, description)
    cut: tuple | None = None            # (offset, description, scope: 'loop' | 'fn')

    def join(self, o: "State") -> "State":
        return State(self.tainted | o.tainted, self.dirty | o.dirty, self.named | o.named,
                     self.blocked or o.blocked, self.cut or o.cut)

    @property
    def memory_changed(self) -> bool:
        return bool(self.dirty or self.named)


def memory_type_key(t) -> str:
    """The type key a variable or an lvalue of type ``t`` occupies (arrays by element)."""
    return cx.type_key(cx.strip_arrays(t))


class StateUpdates:
    """Changes of the state, remembering the first reason for each tainted variable and
    each dirtied type."""

    def __init__(self):
        self.taint_why: dict = {}   # variable key -> reason
        self.dirty_why: dict = {}   # type key -> reason

    def taint(self, st: State, v, why: str) -> State:
        self.taint_why.setdefault(v.key, why)
        named = st.named
        if v.is_memory:
            named = named | {memory_type_key(v.type)}
        return replace(st, tainted=st.tainted | {v.key}, named=named)

    @staticmethod
    def untaint(st: State, v) -> State:
        return replace(st, tainted=st.tainted - {v.key})

    def dirty(self, st: State, t, why: str) -> State:
        """Memory of type ``t`` (None: of any type) may have changed."""
        key = ANY_TYPE
        if t is not None:
            c = t.get_canonical()
            key = cx.type_key(c)
            if key in CHARLIKE or c.kind in (TK.VOID, TK.RECORD):
                key = ANY_TYPE
        self.dirty_why.setdefault(key, why)
        return replace(st, dirty=st.dirty | {key})

    def taint_reason(self, v) -> str:
        return self.taint_why.get(v.key, "the window changes")

    def dirty_reason(self, st: State, key=None) -> str:
        """Why memory of type ``key`` (or, failing that, any memory) may have changed."""
        if key and key in st.dirty:
            return self.dirty_why.get(key, "")
        if ANY_TYPE in st.dirty:
            return self.dirty_why.get(ANY_TYPE, "")
        for k in sorted(st.dirty):
            return self.dirty_why.get(k, "")
        return ""

    @staticmethod
    def block(st: State, n: Node, desc: str) -> State:
        if st.blocked:
            return st
        return replace(st, blocked=(n.start, desc))

    @staticmethod
    def cut(st: State, n: Node, desc: str, scope: str) -> State:
        if st.cut:
            return st
        return replace(st, cut=(n.start, desc, scope))

    @staticmethod
    def end_scope(out: State, before: State) -> State:
        """Leaving a loop or switch: a cut by a break out of it ends with it."""
        if out.cut and out.cut[2] == "loop" and not before.cut:
            out = replace(out, cut=None)
        return out
