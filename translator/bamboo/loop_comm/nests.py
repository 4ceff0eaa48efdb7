"""Which loop nests may have their remote accesses hoisted, and why the others may not.

A nest qualifies when every remote access in it is one the optimizer moves (accesses.py), in
canonical loops (loops.py) whose bounds the nest does not change, at an address affine in
those loops' variables on a PE the nest does not change (affine.py), and executed in every
iteration (no if, while, switch, ?:, && or ||, continue or break around it); when the nest
calls nothing that could communicate or synchronize, leaves only through its end, and
neither writes an array it reads remotely from a loop nor makes two remote writes to one.

A remote read whose elements no LMAD describes (an index read through an array, an inner loop
whose bounds follow the outer one's variable) is inspected instead when an inspector can
compute its elements before the nest runs: indices and inner bounds without side effects that
read only what the nest does not write (inspect.h in the run time).

A nest that reads or writes locally an array it also accesses remotely conflicts with its
own transfers only when the PE is its own: that is checked at run time, and such a nest
falls back to its fine-grained accesses (seed 004 sec. 5: "the runtime analysis is allowed
to fail").
"""
from __future__ import annotations

from dataclasses import dataclass, field

from ..frontend import cx
from ..frontend.cx import base_variable, leaves, unwrap
from ..source import SourceFile
from . import affine as af
from .accesses import GET, MPI_FORMS, PUT, RemoteAccess, remote_access
from .loops import CanonicalLoop, canonical_loop

CK = cx.CK
MAX_DIMS = 4   # BAMBOO_LC_MAX_DIMS
# Functions a nest may call: they neither communicate nor touch memory the nest accesses.
PURE = {
    "sqrt", "sqrtf", "fabs", "fabsf", "abs", "labs", "exp", "expf", "log", "logf", "log2",
    "log10", "pow", "powf", "sin", "sinf", "cos", "cosf", "tan", "atan", "atan2", "floor",
    "ceil", "fmin", "fmax", "fma", "round", "trunc", "cbrt", "hypot", "copysign", "erf",
}
_CONDITIONAL = {CK.IF_STMT: "an if", CK.WHILE_STMT: "a while loop", CK.DO_STMT: "a do loop",
                CK.SWITCH_STMT: "a switch", CK.CONDITIONAL_OPERATOR: "a ?: expression",
                CK.CASE_STMT: "a case", CK.DEFAULT_STMT: "a default"}


@dataclass
class Reference:
    access: RemoteAccess
    address: af.RemoteAddress
    loops: list             # CanonicalLoop, the nest's root first, to the access's innermost
    local_conflict: str = ""   # how the nest accesses the array locally too, if it does
    statement: bool = False    # the access is a whole statement (its value unused)
    source: PutSource | None = None   # a PUT whose values are elements of a local array
    inspected: str = ""   # a GET with no LMAD (why not): an inspector computes its elements


@dataclass
class PutSource:
    """A PUT's values as elements of a local array the nest does not write (``y`` of
    ``shmem_double_p(&x[i], y[i], pe)`` or ``shmem_double_put(&x[i], &y[i], 1, pe)``): the run
    time may put straight from it."""
    address: object        # cursor: the value (p: an lvalue, its address taken) or the pointer (put)
    name: str
    of_value: bool         # address is the value itself (p), not a pointer to it (put)


@dataclass
class Nest:
    root: CanonicalLoop
    references: list
    ops_per_iteration: int
    loops: list = field(default_factory=list)   # the root, and every loop of an LMAD reference

    @property
    def mpi(self) -> bool:
        """MPI one-sided accesses (all of them, or none: _dependences)."""
        return self.references[0].access.mpi


@dataclass
class Refusal:
    loop: object            # the FOR_STMT left as written
    reason: str


def plan(src: SourceFile, body, shmem: bool = True) -> tuple[list[Nest], list[Refusal]]:
    """The nests of a function body to optimize, outermost first, and the loops with remote
    accesses left as written; without ``shmem``, of MPI one-sided accesses only."""
    nests, refusals = [], []
    pending = [body]
    while pending:
        c = pending.pop()
        if c.kind == CK.FOR_STMT and _has_remote_access(c, shmem):
            outcome = _nest(src, c)
            if isinstance(outcome, Nest):
                nests.append(outcome)
                continue
            refusals.append(Refusal(c, outcome))
        pending.extend(reversed(list(c.get_children())))
    return nests, refusals


def _has_remote_access(c, shmem: bool) -> bool:
    """Whether a loop makes remote accesses, movable or not."""
    return any(x.kind == CK.CALL_EXPR and remote_access(x) is not None and
               (shmem or x.spelling in MPI_FORMS) for x in cx.walk_preorder(c))


def _nest(src: SourceFile, root) -> Nest | str:
    loop = canonical_loop(src, root)
    if isinstance(loop, str):
        return f"the loop is not a counted loop: {loop}"
    if leaves(root):
        return "a return or goto may leave the loop"
    parents = _parents(root)
    accesses = []
    for c in cx.walk_preorder(root):
        if c.kind != CK.CALL_EXPR:
            continue
        found = remote_access(c)
        if isinstance(found, str):
            return f"{found} (line {c.location.line})"
        if found is not None:
            accesses.append(found)
        elif c.spelling not in PURE and not _inside_access(c, parents):
            what = "a SHMEM call the optimizer does not move" if c.spelling.startswith(
                "shmem_") else "a function that may communicate or synchronize"
            return f"it calls {c.spelling}() at line {c.location.line}, {what}"
    ctx = _effects(root, accesses, parents)
    refs = []
    for a in accesses:
        ref = _reference(src, loop, a, accesses, parents, ctx)
        if isinstance(ref, str):
            return f"{a.name} at line {a.call.location.line}: {ref}"
        refs.append(ref)
    problem = _dependences(refs, root, ctx, parents)
    if problem:
        return problem
    for r in refs:
        r.source = _put_source(r, ctx)
    loops = [loop]
    for r in refs:
        for lp in [] if r.inspected else r.loops:
            if all(lp.cursor.hash != x.cursor.hash for x in loops):
                loops.append(lp)
    return Nest(loop, refs, _ops(refs[0].loops[-1].body), loops)


def _parents(root) -> dict:
    parents = {}
    for c in cx.walk_preorder(root):
        for child in c.get_children():
            parents[child.hash] = c
    return parents


def _inside_access(c, parents) -> bool:
    p = parents.get(c.hash)
    while p is not None:
        if p.kind == CK.CALL_EXPR and isinstance(remote_access(p), RemoteAccess):
            return True
        p = parents.get(p.hash)
    return False


def _effects(root, accesses, parents) -> af.Context:
    """What the nest writes, outside its remote accesses' addresses."""
    assigned, contents, pointer_stores = {}, set(), set()
    access_calls = {a.call.hash for a in accesses}

    def store(lhs):
        target = unwrap(lhs, (CK.UNEXPOSED_EXPR, CK.PAREN_EXPR))
        if target.kind == CK.DECL_REF_EXPR and target.referenced is not None:
            assigned[target.referenced.hash] = target.spelling   # a pointer too: it moves
            return
        variable, through = base_variable(lhs)
        if variable is None or through:
            pointer_stores.add(_type_name(lhs))
        else:
            contents.add(variable.hash)

    pending = [root]
    while pending:
        c = pending.pop()
        if c.hash in access_calls:
            a = next(x for x in accesses if x.call.hash == c.hash)
            if a.form == "get":   # the destination of a one-element get is written
                store(_pointee(a.local))
            if a.form == "MPI_Get":   # and so is the origin of an MPI_Get
                store(_pointee(a.address))
            walked = [a.pe] if a.form == "get" else [a.pe, a.local]
            if a.form == "put":   # its source is only read: &y[i] takes no address to write
                walked = [a.pe, _pointee(a.local)]
            if a.mpi:
                walked = [a.pe, a.target]   # handles: _unchanged()
            pending.extend(x for x in walked if x is not None)
            continue
        k = c.kind
        children = list(c.get_children())
        if k == CK.BINARY_OPERATOR and cx.binary_op(c) == "=" or \
                k == CK.COMPOUND_ASSIGNMENT_OPERATOR:
            store(children[0])
        elif k == CK.UNARY_OPERATOR and cx.unary_op(c) in ("++", "--", "post++", "post--"):
            store(children[0])
        elif k == CK.UNARY_OPERATOR and cx.unary_op(c) == "&":
            variable, _ = base_variable(children[0])
            if variable is not None:
                assigned[variable.hash] = variable.spelling   # may be written through it
        elif k == CK.VAR_DECL:
            assigned[c.hash] = c.spelling
        pending.extend(children)
    return af.Context({}, assigned, contents, pointer_stores)


def _pointee(c):
    """The lvalue an address names: ``&v`` -> v, ``p`` -> *p."""
    u = unwrap(c, (CK.UNEXPOSED_EXPR, CK.PAREN_EXPR, CK.CSTYLE_CAST_EXPR))
    if u.kind == CK.UNARY_OPERATOR and cx.unary_op(u) == "&":
        return list(u.get_children())[0]
    return u


def _type_name(c) -> str:
    return af.type_name(c.type) or "*"


def _reference(src, root: CanonicalLoop, a: RemoteAccess, accesses, parents,
               ctx) -> Reference | str:
    loops = [root]
    inner = []
    node, child = parents.get(a.call.hash), a.call
    while node is not None and node.hash != root.cursor.hash:
        if node.kind in _CONDITIONAL:
            return f"it runs only when {_CONDITIONAL[node.kind]} lets it (line " \
                   f"{node.location.line})"
        if node.kind == CK.BINARY_OPERATOR and cx.binary_op(node) in ("&&", "||"):
            return f"it runs only when '{cx.binary_op(node)}' lets it"
        if node.kind == CK.FOR_STMT:
            lp = canonical_loop(src, node)
            if isinstance(lp, str):
                return f"the loop at line {node.location.line} is not a counted loop: {lp}"
            if child.hash != lp.body.hash:
                return f"it is in the header of the loop at line {node.location.line}"
            inner.insert(0, lp)
        child, node = node, parents.get(node.hash)
    if child.hash != root.body.hash:
        return "it is in the loop's header"
    loops += inner
    if len(loops) > MAX_DIMS:
        return f"it is {len(loops)} loops deep; the optimizer handles {MAX_DIMS}"
    problem = _skipping_jumps(loops, parents)
    if problem:
        return problem
    loop_vars = {lp.var.hash: lp.var.spelling for lp in loops}
    for lp in loops:
        if lp.var.hash in ctx.assigned and \
                lp.var.hash in _effects(lp.body, accesses, parents).assigned:
            return f"the loop variable '{lp.var.spelling}' is changed in the loop's body"
    nest_ctx = af.Context(loop_vars, _without(ctx.assigned, loop_vars), ctx.contents,
                          ctx.pointer_stores)
    try:
        address = af.remote_address(a.address)
    except af.NotAffine as why:
        return f"its address is not affine in the loop variables: {why}"
    if address.variable.hash in ctx.assigned:
        return f"its address is not affine in the loop variables: '{address.name}' changes " \
               "inside the loop"
    element = af.type_name(_address_element_type(a))
    if not _one_block(address.variable, len(address.subscripts), element):
        return f"its address is not affine in the loop variables: '{address.name}' is indexed " \
               f"through a pointer read on the way (not one block of {element})"
    inspected = ""
    problem = _affine_problem(loops, address, ctx, nest_ctx)
    if problem:
        if a.direction != GET or a.mpi:
            return problem
        why_not = _inspection_problem(loops, address, ctx)
        if why_not:
            return f"{problem}; nor can an inspector compute its elements: {why_not}"
        inspected = problem
    peer = "rank" if a.mpi else "PE"
    try:
        if af.degree(a.pe, nest_ctx) != af.INVARIANT:
            raise af.NotAffine("it follows a loop variable")
    except af.NotAffine as why:
        return f"its {peer} changes inside the loop: {why}"
    if a.mpi:
        if source_text(src, a.datatype) != source_text(src, a.target_datatype):
            return f"{a.name} has different origin and target datatypes"
        try:
            af.degree(a.target, nest_ctx)
        except af.NotAffine as why:
            return f"its target displacement is not affine in the loop variables: {why}"
        for what, c in (("datatype", a.datatype), ("window", a.window)):
            if not _unchanged(c, ctx):
                return f"its {what} may change inside the loop"
    if _macro_expanded(src, a.call):
        return "it is written by a macro; the optimizer rewrites only accesses written out"
    parent = parents.get(a.call.hash)
    statement = parent is not None and parent.kind in (CK.COMPOUND_STMT, CK.FOR_STMT)
    return Reference(a, address, loops, statement=statement, inspected=inspected)


def _affine_problem(loops, address: af.RemoteAddress, ctx: af.Context,
                    nest_ctx: af.Context) -> str | None:
    """Why the reference's elements are no LMAD: a loop bound that changes inside the nest (the
    region is not rectangular) or an index not affine in the loop variables."""
    bound_ctx = af.Context({}, ctx.assigned, ctx.contents, ctx.pointer_stores)
    for lp in loops:
        for what, expr in (("start", lp.lo), ("bound", lp.end)):
            try:
                af.degree(expr, bound_ctx)
            except af.NotAffine as why:
                return (f"the {what} of the loop over '{lp.var.spelling}' (line "
                        f"{lp.cursor.location.line}) changes inside the nest: {why}")
    try:
        for s in address.subscripts:
            af.degree(s, nest_ctx)
    except af.NotAffine as why:
        return f"its address is not affine in the loop variables: {why}"
    return None


def _inspection_problem(loops, address: af.RemoteAddress, ctx: af.Context) -> str | None:
    """Why an inspector, a copy of the nest's loops run before it, could not compute the
    reference's elements: the outer loop's bounds must not change inside the nest, an inner
    loop's and the indices may depend on the loops around them and on memory the nest does not
    write, with no side effect."""
    def context(outer):
        loop_vars = {lp.var.hash: lp.var.spelling for lp in outer}
        return af.Context(loop_vars, _without(ctx.assigned, loop_vars), ctx.contents,
                          ctx.pointer_stores)

    for depth, lp in enumerate(loops):
        for what, expr in (("start", lp.lo), ("bound", lp.end)):
            try:
                af.computable(expr, context(loops[:depth]))
            except af.NotAffine as why:
                return (f"the {what} of the loop over '{lp.var.spelling}' (line "
                        f"{lp.cursor.location.line}) changes inside the nest: {why}")
    try:
        for s in address.subscripts:
            af.computable(s, context(loops))
    except af.NotAffine as why:
        return str(why)
    return None


def source_text(src: SourceFile, c) -> str:
    """An expression as written, on one line, for messages and comparisons (a macro's
    arguments have no tokens of their own)."""
    return " ".join(src.no_comments[c.extent.start.offset:c.extent.end.offset].split())


def _unchanged(c, ctx: af.Context) -> bool:
    """An expression of no side effect, whose variables the nest does not assign (an MPI
    handle: often a macro for an address, which degree() would not take)."""
    for x in cx.walk_preorder(c):
        if x.kind in (CK.CALL_EXPR, CK.COMPOUND_ASSIGNMENT_OPERATOR):
            return False
        if x.kind == CK.BINARY_OPERATOR and cx.binary_op(x) == "=":
            return False
        if x.kind == CK.UNARY_OPERATOR and cx.unary_op(x) in ("++", "--", "post++", "post--"):
            return False
        if x.kind == CK.DECL_REF_EXPR and x.referenced is not None and \
                x.referenced.hash in ctx.assigned:
            return False
    return True


def _without(d: dict, keys: dict) -> dict:
    return {k: v for k, v in d.items() if k not in keys}


def _skipping_jumps(loops: list[CanonicalLoop], parents) -> str | None:
    """A continue or break of one of the reference's loops may skip it in some iterations."""
    targets = {lp.cursor.hash for lp in loops}
    for c in cx.walk_preorder(loops[0].cursor):
        if c.kind not in (CK.CONTINUE_STMT, CK.BREAK_STMT):
            continue
        p = parents.get(c.hash)
        while p is not None and p.kind not in (CK.FOR_STMT, CK.WHILE_STMT, CK.DO_STMT) and \
                not (c.kind == CK.BREAK_STMT and p.kind == CK.SWITCH_STMT):
            p = parents.get(p.hash)
        if p is not None and p.hash in targets:
            word = "continue" if c.kind == CK.CONTINUE_STMT else "break"
            return f"a {word} at line {c.location.line} may skip it"
    return None


def _macro_expanded(src: SourceFile, call) -> bool:
    start = call.extent.start.offset
    return not src.text.startswith(call.spelling, start)


def _dependences(refs: list[Reference], root, ctx: af.Context, parents) -> str | None:
    """OpenSHMEM's: MPI one-sided accesses complete with their epoch, after the nest, and a
    program may touch neither their origin nor their target before that."""
    if len({r.access.mpi for r in refs}) > 1:
        return "it mixes MPI one-sided and OpenSHMEM accesses"
    by_array = {}
    for r in refs:
        if not r.access.mpi:
            by_array.setdefault(r.address.variable.hash, []).append(r)
    local_reads = _local_reads(root, refs, parents)
    for same in by_array.values():
        name = same[0].address.name
        puts = [r for r in same if r.access.direction == PUT]
        if puts and len(puts) < len(same):
            return f"it reads and writes '{name}' remotely in one loop nest"
        if len(puts) > 1:
            return (f"it writes '{name}' remotely from {len(puts)} places in one loop nest; "
                    "their order would be lost")
        var = same[0].address.variable
        element = same[0].access.ctype
        stored = [t for t in sorted(ctx.pointer_stores) if af.may_alias(t, element)]
        loaded = [t for t in sorted(local_reads["*"]) if af.may_alias(t, element)]
        conflict = ""
        if var.hash in ctx.contents:
            conflict = f"it writes '{name}' locally"
        elif stored:
            conflict = f"it stores through a pointer to {stored[0]}, which may point into '{name}'"
        elif puts and var.hash in local_reads:
            conflict = f"it reads '{name}' locally"
        elif puts and loaded:
            conflict = f"it reads through a pointer to {loaded[0]}, which may point into '{name}'"
        for r in same:
            r.local_conflict = conflict
    return None


def _put_source(r: Reference, ctx: af.Context) -> PutSource | None:
    """Where a PUT's values are elements of a local array at indices affine in the
    reference's loops, of the remote element's very type (no conversion), in an array the nest
    neither writes nor may write through a pointer: that array."""
    a = r.access
    if a.direction != PUT or a.mpi or a.local is None:
        return None
    loop_vars = {lp.var.hash: lp.var.spelling for lp in r.loops}
    try:
        if a.form == "p":
            value = unwrap(a.local, (CK.UNEXPOSED_EXPR, CK.PAREN_EXPR))
            address, element_type, of_value = af.element(value), value.type, True
            value_cursor = value
        else:
            address = af.remote_address(a.local)
            element_type = unwrap(a.local).type.get_pointee()
            of_value, value_cursor = False, a.local
        nest_ctx = af.Context(loop_vars, _without(ctx.assigned, loop_vars), ctx.contents,
                              ctx.pointer_stores)
        for index in address.subscripts:
            af.degree(index, nest_ctx)
    except af.NotAffine:
        return None
    element = af.type_name(element_type)
    if element != af.type_name(_remote_element_type(a)) or address.variable.hash in ctx.assigned \
            or address.variable.hash in ctx.contents or \
            any(af.may_alias(t, element) for t in ctx.pointer_stores) or \
            not _one_block(address.variable, len(address.subscripts), element):
        return None
    return PutSource(value_cursor, address.name, of_value)


_ARRAY_KINDS = (cx.TK.CONSTANTARRAY, cx.TK.INCOMPLETEARRAY, cx.TK.VARIABLEARRAY)


def _one_block(variable, subscripts: int, element: str) -> bool:
    """Whether variable[i]...[k] indexes one block of elements laid out as C lays out arrays
    (an array of arrays of the element, or a pointer to such: ``double y[8][N]``, ``double *y``,
    ``double (*y)[N]``), so that element addresses differ by the linear index; not through
    pointers read on the way (``double **y``)."""
    t = variable.type.get_canonical()
    for level in range(subscripts):
        if t.kind in _ARRAY_KINDS:
            t = t.element_type.get_canonical()
        elif t.kind == cx.TK.POINTER and level == 0:
            t = t.get_pointee().get_canonical()
        else:
            return False
    return af.type_name(t) == element


def _remote_element_type(a: RemoteAccess):
    """The element type the SHMEM call's address parameter points to."""
    function = a.call.referenced
    return list(function.type.argument_types())[0].get_pointee()


def _address_element_type(a: RemoteAccess):
    """The element type of the address a nest's LMAD describes: the remote element's
    (SHMEM), the origin's as written (MPI, whose parameter is void *)."""
    if a.mpi:
        return unwrap(a.address, (CK.UNEXPOSED_EXPR, CK.PAREN_EXPR, CK.CSTYLE_CAST_EXPR)).type.get_pointee()
    return _remote_element_type(a)


def _local_reads(root, refs, parents) -> dict:
    """Hashes of the variables the nest reads locally (outside remote addresses), and
    under "*" the element types it reads through pointers."""
    skip = {r.access.address.hash for r in refs}
    reads = {"*": set()}
    pending = [root]
    while pending:
        c = pending.pop()
        if c.hash in skip:
            continue
        if c.kind == CK.DECL_REF_EXPR and c.referenced is not None:
            reads[c.referenced.hash] = True
        if c.kind == CK.ARRAY_SUBSCRIPT_EXPR or (c.kind == CK.UNARY_OPERATOR and
                                                 cx.unary_op(c) == "*"):
            _, through = base_variable(c)
            if through:
                reads["*"].add(_type_name(c))
        pending.extend(c.get_children())
    return reads


def _ops(body) -> int:
    """Arithmetic operations and memory references in the innermost loop's body: the
    computation estimate the run time starts from."""
    n = 0
    for c in cx.walk_preorder(body):
        if c.kind in (CK.BINARY_OPERATOR, CK.COMPOUND_ASSIGNMENT_OPERATOR,
                      CK.ARRAY_SUBSCRIPT_EXPR):
            n += 1
    return max(n, 1)
