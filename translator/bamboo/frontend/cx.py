"""Thin layer over libclang (``clang.cindex``): parsing, locations, operator kinds, and the
helpers over cursors that the comm directives and loop communication share (at the end).

Everything else in the translator talks to libclang through this module and the Node
tree of model.py.
"""
from __future__ import annotations

import ctypes
import os
import threading

import clang.cindex as ci

from .. import toolchain
from ..source import ENCODING, SourceFile

CK = ci.CursorKind
TK = ci.TypeKind

_bound = False


def _bind():
    global _bound
    if _bound:
        return
    lib = ci.conf.lib
    lib.clang_getFileLocation.argtypes = [
        ci.SourceLocation, ctypes.POINTER(ci.c_object_p), ctypes.POINTER(ctypes.c_uint),
        ctypes.POINTER(ctypes.c_uint), ctypes.POINTER(ctypes.c_uint)]
    lib.clang_getFileLocation.restype = None
    lib.clang_getCursorBinaryOperatorKind.argtypes = [ci.Cursor]
    lib.clang_getCursorBinaryOperatorKind.restype = ctypes.c_int
    lib.clang_getCursorUnaryOperatorKind.argtypes = [ci.Cursor]
    lib.clang_getCursorUnaryOperatorKind.restype = ctypes.c_int
    lib.clang_getBinaryOperatorKindSpelling.argtypes = [ctypes.c_int]
    lib.clang_getBinaryOperatorKindSpelling.restype = ci._CXString
    lib.clang_getUnaryOperatorKindSpelling.argtypes = [ctypes.c_int]
    lib.clang_getUnaryOperatorKindSpelling.restype = ci._CXString
    _bound = True


def index():
    _bind()
    return ci.Index.create()


# Parsing an expression like ``a + a + ... + a`` recurses in clang once per operand, about
# half a kilobyte each; libclang's own parsing thread has 8 MiB and overflows at some 15,000
# operands, killing the process.  Parsing on a thread of our own with this much stack (only
# the pages used are ever touched) goes beyond what GCC itself compiles (200,000 operands).
PARSE_STACK_BYTES = 256 << 20


def parse(path: str, compiler_args, unsaved_text: str | None = None) -> ci.TranslationUnit:
    """Parse a C or C++ file (toolchain.is_cxx_source) the way the translator needs (macro
    records kept); ``unsaved_text`` replaces the file's contents (one character per byte, see
    source.ENCODING)."""
    if toolchain.is_cxx_source(path, compiler_args):
        language = ["-x", "c++", *toolchain.NO_MPI_CXX_BINDINGS]
    else:
        language = ["-x", "c"]
    args = (language + toolchain.system_include_args() + toolchain.GCC_LENIENCY + list(compiler_args)
            + ["-ferror-limit=0"])
    opts = ci.TranslationUnit.PARSE_DETAILED_PROCESSING_RECORD
    unsaved = [(path, unsaved_text.encode(ENCODING))] if unsaved_text is not None else None
    idx = index()
    # LIBCLANG_NOTHREADS: libclang parses on the calling thread, ours, instead of its own.
    os.environ["LIBCLANG_NOTHREADS"] = "1"
    outcome = {}

    def run():
        try:
            outcome["tu"] = idx.parse(path, args=args, unsaved_files=unsaved, options=opts)
        except Exception as e:  # noqa: BLE001 - handed to the caller's thread below
            outcome["error"] = e
    previous = threading.stack_size(PARSE_STACK_BYTES)
    try:
        parser = threading.Thread(target=run, name="bamboo-parse")
        parser.start()
    finally:
        threading.stack_size(previous)
    parser.join()
    if "error" in outcome:
        raise outcome["error"]
    return outcome["tu"]


class _RangeList(ctypes.Structure):
    _fields_ = [("count", ctypes.c_uint), ("ranges", ctypes.POINTER(ci.SourceRange))]


def skipped_ranges(tu, path: str) -> list:
    """(start, end) offsets of the main file's code skipped by the preprocessor (#if 0 ...)."""
    _bind()
    lib = ci.conf.lib
    try:
        f = tu.get_file(path)
    except Exception:  # noqa: BLE001 - libclang raises a bare Exception for unknown files
        return []
    lib.clang_getSkippedRanges.argtypes = [ci.TranslationUnit, ci.File]
    lib.clang_getSkippedRanges.restype = ctypes.POINTER(_RangeList)
    lib.clang_disposeSourceRangeList.argtypes = [ctypes.POINTER(_RangeList)]
    lib.clang_disposeSourceRangeList.restype = None
    lst = lib.clang_getSkippedRanges(tu, f)
    out = []
    if lst:
        for i in range(lst.contents.count):
            r = lst.contents.ranges[i]
            out.append((r.start.offset, r.end.offset))
        lib.clang_disposeSourceRangeList(lst)
    return out


def walk_preorder(cursor):
    """``cursor`` and every cursor below it, in preorder, without recursion (clang.cindex's
    own walk_preorder recurses once per nesting level, and expressions nest deeply)."""
    pending = [cursor]
    while pending:
        c = pending.pop()
        yield c
        pending.extend(reversed(list(c.get_children())))


def macro_parts(definition) -> tuple:
    """(parameter names, body tokens) of a MACRO_DEFINITION cursor."""
    tokens = list(definition.get_tokens())
    params = set()
    i = 1
    if len(tokens) > 1 and tokens[1].spelling == "(" and \
            ci.conf.lib.clang_Cursor_isMacroFunctionLike(definition):
        i = 2
        while i < len(tokens) and tokens[i].spelling != ")":
            if tokens[i].kind == ci.TokenKind.IDENTIFIER:
                params.add(tokens[i].spelling)
            i += 1
        i += 1
    return params, tokens[i:]


def file_location(loc: ci.SourceLocation):
    """(file name, line, col, offset) of a location, taking macro arguments at the place they
    are written (libclang's expansion location gives the macro's name instead)."""
    _bind()
    f = ci.c_object_p()
    line, col, off = ctypes.c_uint(), ctypes.c_uint(), ctypes.c_uint()
    ci.conf.lib.clang_getFileLocation(loc, ctypes.byref(f), ctypes.byref(line), ctypes.byref(col),
                                      ctypes.byref(off))
    name = None
    if f:
        name = _str(ci.conf.lib.clang_getFileName(ci.File(f)))
    return name, line.value, col.value, off.value


def _str(x) -> str:
    return x if isinstance(x, str) else ci._CXString.from_result(x)


def binary_op(cursor) -> str:
    _bind()
    k = ci.conf.lib.clang_getCursorBinaryOperatorKind(cursor)
    return _str(ci.conf.lib.clang_getBinaryOperatorKindSpelling(k))


def unary_op(cursor) -> str:
    """Spelling of a unary operator; postfix ++/-- are returned as 'post++'/'post--'."""
    _bind()
    k = ci.conf.lib.clang_getCursorUnaryOperatorKind(cursor)
    s = _str(ci.conf.lib.clang_getUnaryOperatorKindSpelling(k))
    if k in (1, 2):  # CXUnaryOperator_PostInc, CXUnaryOperator_PostDec
        return "post" + s
    return s


def integer_literal(c) -> int | None:
    """The value of an integer literal (through implicit conversions and parentheses)."""
    while c.kind in (CK.UNEXPOSED_EXPR, CK.PAREN_EXPR):
        inner = list(c.get_children())
        if len(inner) != 1:
            return None
        c = inner[0]
    if c.kind != CK.INTEGER_LITERAL:
        return None
    tokens = [t.spelling for t in c.get_tokens()]
    try:
        return int(tokens[0].rstrip("uUlL"), 0) if len(tokens) == 1 else None
    except ValueError:
        return None


# What defines a function body (C has the first only), and what holds declarations of
# namespace or class scope (a translated C++ file is read inside these).
FUNCTION_KINDS = {CK.FUNCTION_DECL, CK.CXX_METHOD, CK.CONSTRUCTOR, CK.DESTRUCTOR,
                  CK.CONVERSION_FUNCTION, CK.FUNCTION_TEMPLATE}
SCOPE_KINDS = {CK.NAMESPACE, CK.LINKAGE_SPEC, CK.UNEXPOSED_DECL, CK.CLASS_DECL, CK.STRUCT_DECL,
               CK.UNION_DECL, CK.CLASS_TEMPLATE, CK.CLASS_TEMPLATE_PARTIAL_SPECIALIZATION}
CLASS_KINDS = {CK.CLASS_DECL, CK.STRUCT_DECL, CK.UNION_DECL, CK.CLASS_TEMPLATE,
               CK.CLASS_TEMPLATE_PARTIAL_SPECIALIZATION}
TEMPLATE_KINDS = {CK.FUNCTION_TEMPLATE, CK.CLASS_TEMPLATE, CK.CLASS_TEMPLATE_PARTIAL_SPECIALIZATION}


def in_template(cursor) -> bool:
    """Whether a declaration lies in a template (each instantiation has its own statics)."""
    c = cursor.semantic_parent
    while c is not None and c.kind != CK.TRANSLATION_UNIT:
        if c.kind in TEMPLATE_KINDS:
            return True
        c = c.semantic_parent
    return False


def qualified_name(cursor) -> str:
    """``ns::Counter::count``, for messages."""
    parts = []
    c = cursor
    while c is not None and c.kind != CK.TRANSLATION_UNIT:
        if c.kind not in (CK.LINKAGE_SPEC, CK.UNEXPOSED_DECL):
            parts.append(c.spelling or "(anonymous namespace)")
        c = c.semantic_parent
    return "::".join(reversed(parts))


def loc_file(loc) -> str | None:
    f = loc.file
    return os.path.abspath(f.name) if f is not None else None


SCALAR_KINDS = {
    TK.BOOL, TK.CHAR_U, TK.UCHAR, TK.CHAR16, TK.CHAR32, TK.USHORT, TK.UINT, TK.ULONG,
    TK.ULONGLONG, TK.UINT128, TK.CHAR_S, TK.SCHAR, TK.WCHAR, TK.SHORT, TK.INT, TK.LONG,
    TK.LONGLONG, TK.INT128, TK.FLOAT, TK.DOUBLE, TK.LONGDOUBLE, TK.POINTER, TK.ENUM,
}


def is_scalar(t) -> bool:
    return t.get_canonical().kind in SCALAR_KINDS


def strip_arrays(t):
    c = t.get_canonical()
    while c.kind in (TK.CONSTANTARRAY, TK.INCOMPLETEARRAY, TK.VARIABLEARRAY, TK.DEPENDENTSIZEDARRAY):
        c = c.element_type.get_canonical()
    return c


def is_const_object(t) -> bool:
    """Top-level const (for arrays: const elements). Element types are taken before
    canonicalization: libclang's canonical array type drops its elements' const."""
    while True:
        canonical = t.get_canonical()
        if t.is_const_qualified() or canonical.is_const_qualified():
            return True
        if canonical.kind not in (TK.CONSTANTARRAY, TK.INCOMPLETEARRAY, TK.VARIABLEARRAY,
                                  TK.DEPENDENTSIZEDARRAY):
            return False
        try:
            t = t.element_type
        except Exception:  # an array through a typedef: libclang has only the canonical one
            t = canonical.element_type


def type_key(t) -> str:
    """A name for the memory a type designates, for type-based alias checks."""
    c = t.get_canonical()
    s = c.spelling
    for q in ("const ", "volatile ", "restrict "):
        s = s.replace(q, "")
    return s.strip()


# -- helpers over cursors the comm directives and loop communication share ---------------------
# (the front end and the analyses work on the Node tree of model.py instead)

INTEGER_KINDS = {TK.CHAR_S, TK.CHAR_U, TK.SCHAR, TK.UCHAR, TK.SHORT, TK.USHORT, TK.INT, TK.UINT,
                 TK.LONG, TK.ULONG, TK.LONGLONG, TK.ULONGLONG, TK.BOOL, TK.ENUM}


def unwrap(c, kinds=(CK.UNEXPOSED_EXPR,)):
    """The expression inside implicit conversions (libclang's unexposed expressions) and,
    with more ``kinds``, inside parentheses and casts."""
    while c.kind in kinds:
        operands = [ch for ch in c.get_children() if ch.kind != CK.TYPE_REF]
        if len(operands) != 1:
            break
        c = operands[0]
    return c


def base_variable(cursor):
    """(variable, reached through a pointer) for the storage an lvalue or address names:
    ``a[i].f``, ``&a[i]``, ``s.arr`` are in their variable; ``p[i]``, ``*p``, ``s->f`` are
    behind the pointer ``p``/``s``."""
    c = cursor
    through = False
    while True:
        k = c.kind
        children = list(c.get_children())
        if k in (CK.PAREN_EXPR, CK.UNEXPOSED_EXPR, CK.CSTYLE_CAST_EXPR) and children:
            c = children[-1]
        elif k == CK.UNARY_OPERATOR and children:
            if unary_op(c) == "*":
                through = True
            elif unary_op(c) != "&":
                return None, through
            c = children[0]
        elif k in (CK.ARRAY_SUBSCRIPT_EXPR, CK.MEMBER_REF_EXPR) and children:
            base = unwrap(children[0])   # an array's decay is not a pointer's
            if base.type.get_canonical().kind == TK.POINTER:
                through = True
            c = base
        elif k == CK.DECL_REF_EXPR:
            v = c.referenced
            if v is None or v.kind not in (CK.VAR_DECL, CK.PARM_DECL):
                return None, through
            if c.type.get_canonical().kind == TK.POINTER:
                through = True
            elif v.kind == CK.PARM_DECL and v.type.get_canonical().kind != TK.RECORD and \
                    c.type.get_canonical().kind in (TK.INCOMPLETEARRAY, TK.CONSTANTARRAY):
                through = True   # an array parameter is a pointer
            return v, through
        else:
            return None, through


def statement_end(src: SourceFile, cursor) -> int:
    """Just past a statement: libclang's extent of an expression statement (or a do loop...)
    stops before its ';'."""
    end = cursor.extent.end.offset
    blank = src.blanked
    j = end
    while j < len(blank) and blank[j] in " \t\r\n":
        j += 1
    if j < len(blank) and blank[j] == ";" and src.text[end - 1:end] != "}":
        end = j + 1
    return end


def leaves(stmt_cursor) -> bool:
    """Whether a return or goto may leave the statement (break and continue leave only the
    statement's own loops or go to just after it)."""
    start, end = stmt_cursor.extent.start.offset, stmt_cursor.extent.end.offset
    for c in walk_preorder(stmt_cursor):
        if c.kind in (CK.RETURN_STMT, CK.INDIRECT_GOTO_STMT):
            return True
        if c.kind == CK.GOTO_STMT and not label_inside(c, start, end):
            return True
    return False


def label_inside(goto, start: int, end: int) -> bool:
    """Whether the label a goto jumps to stands in [start, end)."""
    label = next((c.referenced for c in goto.get_children() if c.kind == CK.LABEL_REF), None)
    return label is not None and start <= label.extent.start.offset < end
