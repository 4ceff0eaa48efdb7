"""Per-function facts used by the checks and by firing rules.

For each function defined in the file or in one of the user's headers: which MPI operations
it performs (directly or through other functions defined there), whether it calls functions
defined elsewhere, whether it writes or reads memory beyond its own locals, and so whether
it is pure.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from .. import mpi_api
from ..frontend.cx import CK, TK
from ..frontend.model import Function, Program

# Library functions known to have no side effects and to read nothing but their arguments.
PURE_LIBRARY = {
    "abs", "labs", "llabs", "fabs", "fabsf", "fabsl", "sqrt", "sqrtf", "cbrt", "floor", "floorf",
    "ceil", "ceilf", "round", "roundf", "lround", "trunc", "fmin", "fmax", "fminf", "fmaxf",
    "fmod", "pow", "powf", "exp", "exp2", "log", "log2", "log10", "sin", "cos", "tan", "asin",
    "acos", "atan", "atan2", "sinh", "cosh", "tanh", "hypot", "ldexp", "copysign", "isnan",
    "isinf", "toupper", "tolower", "isdigit", "isalpha", "isspace",
    "__builtin_expect", "__builtin_abs", "__builtin_fabs",
} | set(mpi_api.RUNTIME_LOCAL)   # the same value at every call in a task, nothing else changed

# Library calls that leave the calling function without returning to it.
LONG_JUMPS = {"longjmp", "siglongjmp", "_longjmp", "__builtin_longjmp"}

ASSIGN_OPS = {"=", "*=", "/=", "%=", "+=", "-=", "<<=", ">>=", "&=", "^=", "|="}
INCDEC_OPS = {"++", "--", "post++", "post--"}


def is_assignment(n) -> bool:
    if n.kind == CK.COMPOUND_ASSIGNMENT_OPERATOR:
        return True
    if n.kind == CK.BINARY_OPERATOR and n.op in ASSIGN_OPS:
        return True
    return n.kind == CK.UNARY_OPERATOR and n.op in INCDEC_OPS


@dataclass
class Summary:
    name: str
    mpi_kinds: set = field(default_factory=set)
    first_call: dict = field(default_factory=dict)   # kind -> MPICall (first one found)
    callees: set = field(default_factory=set)         # functions defined in this file
    calls_unknown: list = field(default_factory=list)  # names of functions defined elsewhere
    impure_library: bool = False
    writes_memory: bool = False
    reads_memory: bool = False
    pure: bool = True

    collects: bool = False  # makes a collective call a firing rule can wait for
    long_jump: object = None  # a call to longjmp/siglongjmp, here or in a callee (Node)

    @property
    def receives(self) -> bool:
        """Whether a firing rule can wait for messages the function receives."""
        return mpi_api.RECEIVE in self.mpi_kinds or self.collects

    @property
    def may_communicate(self) -> bool:
        return bool(self.calls_unknown) or any(k != mpi_api.LOCAL for k in self.mpi_kinds)


def _is_pointer(node) -> bool:
    return node.type.get_canonical().kind == TK.POINTER


def _base_is_local(prog: Program, fn: Function, lhs) -> bool:
    """Whether an assignment's target is (part of) a local variable of the function."""
    n = lhs.strip()
    while n.kind in (CK.ARRAY_SUBSCRIPT_EXPR, CK.MEMBER_REF_EXPR) and n.children:
        base = n.children[0].strip()
        if _is_pointer(base):
            return False
        n = base
    if n.kind != CK.DECL_REF_EXPR:
        return False
    v = prog.var_of_ref(n)
    return v is not None and v.is_local and not v.is_static_storage and not _is_reference(v)


def _is_reference(v) -> bool:
    """A C++ reference: assigning or reading it is a write or read of what it refers to."""
    return v.type.kind in (TK.LVALUEREFERENCE, TK.RVALUEREFERENCE)


def summarize(prog: Program) -> dict:
    sums = {}
    for fn in prog.functions.values():
        s = Summary(fn.name)
        for n in fn.body.walk():
            if n.kind == CK.CALL_EXPR:
                mc = prog.mpi_call(n)
                if mc is not None:
                    s.mpi_kinds.add(mc.spec.kind)
                    s.first_call.setdefault(mc.spec.kind, mc)
                    s.collects |= mc.spec.collective is not None
                    continue
                name = n.callee_name
                if name in LONG_JUMPS and s.long_jump is None:
                    s.long_jump = n
                if name is None:
                    s.calls_unknown.append("a function pointer")
                elif name in prog.functions:
                    s.callees.add(name)
                elif prog.function_is_system(name):
                    if name not in PURE_LIBRARY:
                        s.impure_library = True
                else:
                    s.calls_unknown.append(name)
            elif is_assignment(n):
                if not _base_is_local(prog, fn, n.children[0]):
                    s.writes_memory = True
            elif n.kind == CK.DECL_REF_EXPR:
                v = prog.var_of_ref(n)
                if v is not None and (v.is_static_storage or _is_reference(v)):
                    s.reads_memory = True
            elif n.kind == CK.UNARY_OPERATOR and n.op == "*":
                s.reads_memory = True
            elif n.kind == CK.ARRAY_SUBSCRIPT_EXPR and n.children and \
                    _is_pointer(n.children[0].strip()):
                s.reads_memory = True
            elif n.kind == CK.MEMBER_REF_EXPR and n.children and \
                    _is_pointer(n.children[0].strip()):
                s.reads_memory = True
            elif n.kind == CK.ASM_STMT:
                s.writes_memory = True
                s.impure_library = True
        sums[fn.name] = s
    # propagate through the calls between defined functions: every fact only goes from
    # false to true (a set only grows), so the loop ends
    changed = True
    while changed:
        changed = False
        for s in sums.values():
            for c in list(s.callees):
                t = sums[c]
                before = (len(s.mpi_kinds), len(s.calls_unknown), s.impure_library,
                          s.writes_memory, s.reads_memory, s.collects, s.long_jump)
                s.mpi_kinds |= t.mpi_kinds
                s.collects |= t.collects
                s.long_jump = s.long_jump or t.long_jump
                for k, v in t.first_call.items():
                    s.first_call.setdefault(k, v)
                for u in t.calls_unknown:
                    if u not in s.calls_unknown:
                        s.calls_unknown.append(u)
                s.impure_library |= t.impure_library
                s.writes_memory |= t.writes_memory
                s.reads_memory |= t.reads_memory
                after = (len(s.mpi_kinds), len(s.calls_unknown), s.impure_library,
                         s.writes_memory, s.reads_memory, s.collects, s.long_jump)
                changed |= before != after
    for s in sums.values():
        s.pure = not (s.mpi_kinds or s.calls_unknown or s.impure_library or s.writes_memory
                      or s.reads_memory)
    return sums


def call_chain_to(prog: Program, sums: dict, fn_name: str, kinds) -> list:
    """A chain of function names from fn_name to one making an MPI call of one of ``kinds``,
    and that call: ([f, g, h], MPICall)."""
    seen = set()

    def go(name, path):
        if name in seen:
            return None
        seen.add(name)
        fn = prog.functions[name]
        for n in fn.body.walk():
            if n.kind != CK.CALL_EXPR:
                continue
            mc = prog.mpi_call(n)
            if mc is not None and mc.spec.kind in kinds:
                return path + [name], mc
            c = n.callee_name
            if c in prog.functions and kinds & sums[c].mpi_kinds:
                r = go(c, path + [name])
                if r:
                    return r
        return None
    return go(fn_name, []) or ([fn_name], None)
