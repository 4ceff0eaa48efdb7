"""The clauses' expressions in their scope: a second parse of the file in which every directive
becomes ``(void)(EXPR);`` probes at its place (line count kept), so that clang checks each
expression where the transfer evaluates it and gives its type.  From the types: what each
buffer is (its address, element type, extent, the variable that holds it) and what a
transfer's count is."""
from __future__ import annotations

import bisect
from dataclasses import dataclass

from ..diagnostics import Diagnostics
from ..frontend import cx
from ..frontend.cx import CK, INTEGER_KINDS, TK, base_variable, unwrap
from ..frontend.load import report_parse_errors
from ..source import SourceFile
from . import clauses as cl
from .clauses import Expr
from .datatypes import Basic, Record, Unsupported, element, strip_arrays
from .structure import Layout

SHMEM_ALLOCATORS = ("shmem_malloc", "shmem_calloc", "shmem_align", "shmalloc", "shmemalign",
                    "shpalloc")


@dataclass
class Buffer:
    expr: Expr
    address: str               # C expression of its first element's address
    element: object            # Basic or Record
    extent: int | None         # elements, when its type says (an array, or one object)
    variable: object = None    # the variable whose storage holds it (cursor), if one does
    through_pointer: bool = False   # reached through a pointer held in ``variable``
    # where it starts in ``variable``, a one-dimensional array, when the expression says it
    # with constants and at most one variable: offset + stride * (that variable's value), as
    # in ``a``, ``&a[3]``, ``&a[2 * i + 1]``; ``index`` is the variable's cursor hash (None:
    # stride 0). Sections of one array (groups.py).
    offset: int | None = None
    index: int | None = None
    stride: int = 0

    @property
    def name(self) -> str:
        return self.expr.text


@dataclass
class _Piece:
    probe_start: int
    length: int
    orig_start: int
    exact: bool          # offsets inside map one to one (copied text, an expression)


class ProbeText:
    """The probe file being built, and the way back from its offsets to the user's."""

    def __init__(self):
        self.parts: list[str] = []
        self.pieces: list[_Piece] = []
        self.size = 0

    def add(self, text: str, orig_start: int, exact: bool):
        self.pieces.append(_Piece(self.size, len(text), orig_start, exact))
        self.parts.append(text)
        self.size += len(text)
        return self.size - len(text)

    def original(self, offset: int) -> int:
        k = bisect.bisect_right([p.probe_start for p in self.pieces], offset) - 1
        p = self.pieces[max(k, 0)]
        return p.orig_start + (offset - p.probe_start if p.exact else 0)

    @property
    def text(self) -> str:
        return "".join(self.parts)


def probe(src: SourceFile, layout: Layout, args, cxx: bool, diags: Diagnostics):
    """Parse the probe file; return {Expr offset: its cursor} or None after C errors."""
    edits = []    # (start, end, [(text, orig offset or None)])
    for r in layout.regions:
        if not r.directive.valid:
            continue
        exprs = [r.clause("max_comm_iter").expr] if r.clause("max_comm_iter") else []
        edits.append((r.directive.start, r.directive.end, _probes(exprs, "{")))
        edits.append((r.stmt.end, r.stmt.end, [("}", None)]))
    for inst in layout.instances:
        if not inst.directive.valid:
            continue
        exprs = []
        for name in cl.CLAUSES:
            c = inst.clause(name)
            if c is not None and c.keyword is None:
                exprs.extend(c.items)
        edits.append((inst.directive.start, inst.directive.end, _probes(exprs, "{")))
        edits.append((inst.stmt.end, inst.stmt.end, [("}", None)]))
    edits.sort(key=lambda e: (e[0], e[1]))
    out = ProbeText()
    at = {}
    pos = 0
    for start, end, texts in edits:
        out.add(src.text[pos:start], pos, True)
        for text, orig in texts:
            probe_at = out.add(text, orig if orig is not None else start, orig is not None)
            if orig is not None:
                at[probe_at] = orig
        out.add("\n" * src.text.count("\n", start, end), end, False)
        pos = end
    out.add(src.text[pos:], pos, True)
    tu = cx.parse(src.path, args, unsaved_text=out.text)
    # an error in a clause's expression shows at its place in the directive
    failed = report_parse_errors(tu, src, diags, place=out.original)
    if failed:
        return None, tu
    wanted = {p: orig for p, orig in at.items()}
    found = {}
    for c in cx.walk_preorder(tu.cursor):
        if c.kind == CK.PAREN_EXPR and c.location.file is not None:
            inner_start = c.extent.start.offset + 1
            if inner_start in wanted and wanted[inner_start] not in found \
                    and cx.loc_file(c.location) == src.path:
                found[wanted[inner_start]] = unwrap(next(iter(c.get_children())))
    return found, tu


def _probes(exprs: list[Expr], opening: str):
    texts = [(opening, None)]
    for e in exprs:
        texts += [(" (void)(", None), (e.text, e.offset), (");", None)]
    return texts





def check_scalar(src, clause, cursor, diags, integer: bool) -> bool:
    t = cursor.type.get_canonical()
    ok = t.kind in INTEGER_KINDS if integer else cx.is_scalar(t)
    if not ok:
        want = "an integer" if integer else "a condition (a scalar)"
        diags.error_at(src, clause.expr.offset, f"{clause.name}({clause.expr.text}) must be "
                       f"{want}, not '{cursor.type.spelling}'")
    return ok


def buffer_of(src, clause_name: str, e: Expr, cursor, cxx: bool, diags) -> Buffer | None:
    t = cursor.type
    c = t.get_canonical()
    try:
        if c.kind in (TK.CONSTANTARRAY, TK.INCOMPLETEARRAY, TK.VARIABLEARRAY):
            elem_type, extent = strip_arrays(c)
            elem = element(elem_type, cxx)
            address = f"({e.text})"
        elif c.kind == TK.POINTER:
            pointee = c.get_pointee().get_canonical()
            if pointee.kind == TK.VOID:
                diags.error_at(src, e.offset, f"{clause_name} item '{e.text}' is a void pointer: "
                               "the directive cannot know what it points to (cast it to the "
                               "element type)")
                return None
            elem_type, extent = strip_arrays(pointee)
            elem = element(elem_type, cxx)
            extent = None
            address = f"({e.text})"
        elif _is_lvalue(cursor):
            elem = element(c, cxx)
            extent = 1
            address = f"&({e.text})"
        else:
            diags.error_at(src, e.offset, f"{clause_name} item '{e.text}' is not an object: give "
                           "an array, a pointer to the first element, or a variable")
            return None
    except Unsupported as why:
        diags.error_at(src, e.offset, f"{clause_name} item '{e.text}' cannot be transferred: {why}")
        return None
    variable, through_pointer = base_variable(cursor)
    section = None if through_pointer or variable is None else _section(cursor, variable)
    buffer = Buffer(e, address, elem, extent, variable, through_pointer)
    if section is not None:
        buffer.offset, buffer.index, buffer.stride = section
    return buffer


def _section(cursor, variable):
    """(offset, index variable's hash or None, stride) of where ``a`` or ``&a[E]`` starts,
    ``a`` a one-dimensional array and E affine in at most one variable with integer literals
    (``3``, ``i``, ``2 * i + 1``, ``i - 1``); None for anything else (``a + K`` has no
    variable: base_variable)."""
    t = variable.type.get_canonical()
    if t.kind != TK.CONSTANTARRAY or t.element_type.get_canonical().kind in \
            (TK.CONSTANTARRAY, TK.INCOMPLETEARRAY, TK.VARIABLEARRAY):
        return None
    c = unwrap(cursor, (CK.PAREN_EXPR, CK.UNEXPOSED_EXPR))
    names = lambda x: unwrap(x, (CK.PAREN_EXPR, CK.UNEXPOSED_EXPR)).kind == CK.DECL_REF_EXPR
    if c.kind == CK.DECL_REF_EXPR:
        return 0, None, 0
    parts = list(c.get_children())
    if c.kind == CK.UNARY_OPERATOR and cx.unary_op(c) == "&" and parts:
        element = unwrap(parts[0], (CK.PAREN_EXPR, CK.UNEXPOSED_EXPR))
        inner = list(element.get_children())
        if element.kind == CK.ARRAY_SUBSCRIPT_EXPR and len(inner) == 2 and names(inner[0]):
            section = _affine(inner[1])
            if section is not None and section[2] == 0:
                return section[0], None, 0   # the variable cancelled out
            return section
    return None


def _affine(c):
    """(constant, variable's hash or None, coefficient) of an integer expression, or None."""
    value = cx.integer_literal(c)
    if value is not None:
        return value, None, 0
    c = unwrap(c, (CK.PAREN_EXPR, CK.UNEXPOSED_EXPR))
    if c.kind == CK.DECL_REF_EXPR and c.referenced is not None and c.referenced.kind in \
            (CK.VAR_DECL, CK.PARM_DECL) and c.type.get_canonical().kind in INTEGER_KINDS:
        return 0, c.referenced.hash, 1
    if c.kind != CK.BINARY_OPERATOR:
        return None
    left, right = (list(c.get_children()) + [None, None])[:2]
    a, b = (_affine(left), _affine(right)) if right is not None else (None, None)
    if a is None or b is None:
        return None
    op = cx.binary_op(c)
    if op in ("+", "-"):
        sign = 1 if op == "+" else -1
        if a[1] is not None and b[1] is not None and a[1] != b[1]:
            return None
        return a[0] + sign * b[0], a[1] if a[1] is not None else b[1], a[2] + sign * b[2]
    if op == "*" and (a[1] is None or b[1] is None):
        k, term = (a[0], b) if a[1] is None else (b[0], a)
        return k * term[0], term[1] if k else None, k * term[2]
    return None


def _is_lvalue(c) -> bool:
    c = unwrap(c, (CK.PAREN_EXPR, CK.UNEXPOSED_EXPR))
    if c.kind in (CK.DECL_REF_EXPR, CK.MEMBER_REF_EXPR, CK.ARRAY_SUBSCRIPT_EXPR):
        return True
    return c.kind == CK.UNARY_OPERATOR and cx.unary_op(c) == "*"





def declared_at(src, cursor) -> int:
    """Offset in the user's file of a cursor of the probe parse: the probe keeps every line,
    and the columns of every line without a directive."""
    start = cursor.extent.start
    return src.offset(start.line, start.column)


def is_static_storage(variable) -> bool:
    if variable.kind != CK.VAR_DECL:
        return False
    parent = variable.semantic_parent
    if parent is None or parent.kind in (CK.TRANSLATION_UNIT, CK.NAMESPACE, CK.LINKAGE_SPEC):
        return True
    return variable.storage_class == cx.ci.StorageClass.STATIC


def from_shmem_allocator(tu, variable) -> str | None:
    """None when every value ``variable`` (a pointer) is given comes from a SHMEM allocator;
    else why not."""
    sources = 0
    for c in cx.walk_preorder(tu.cursor):
        if c.kind == CK.VAR_DECL and c == variable:
            init = [ch for ch in c.get_children() if ch.kind.is_expression()]
            if init:
                sources += 1
                if not _calls_allocator(init[-1]):
                    return f"'{variable.spelling}' is initialized otherwise than by shmem_malloc"
        elif c.kind == CK.BINARY_OPERATOR and cx.binary_op(c) == "=":
            lhs, rhs = list(c.get_children())
            lhs = unwrap(lhs)
            if lhs.kind == CK.DECL_REF_EXPR and lhs.referenced == variable:
                sources += 1
                if not _calls_allocator(rhs):
                    line = c.extent.start.line
                    return (f"'{variable.spelling}' is assigned otherwise than by shmem_malloc "
                            f"(line {line})")
    if sources == 0:
        what = "a parameter" if variable.kind == CK.PARM_DECL else "never assigned here"
        return f"'{variable.spelling}' is {what}: where it points is not known"
    return None


def _calls_allocator(c) -> bool:
    c = unwrap(c, (CK.CSTYLE_CAST_EXPR, CK.PAREN_EXPR, CK.UNEXPOSED_EXPR))
    return c.kind == CK.CALL_EXPR and c.spelling in SHMEM_ALLOCATORS


def same_element(a, b) -> bool:
    if isinstance(a, Basic) and isinstance(b, Basic):
        return a.mpi == b.mpi
    if isinstance(a, Record) and isinstance(b, Record):
        return a.size == b.size and [(o, n, x.mpi) for o, n, x in a.blocks] == \
            [(o, n, x.mpi) for o, n, x in b.blocks]
    return False


def element_name(e) -> str:
    return e.c_name if isinstance(e, Basic) else e.spelling

