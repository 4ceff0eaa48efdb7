"""From a C file to a Program: parse with libclang, report C errors, build the Node trees
(of the file's code and of the functions the user's headers define), find the directives and
attach them (priority expressions: priority.py), and check every MPI function the file
references."""
from __future__ import annotations

import os
import re

from .. import mpi_api, toolchain
from ..diagnostics import Diagnostics
from ..source import SourceFile
from . import cx, directives as dirs
from .cx import CK
from .lvalues import base_variable_node
from .model import Function, MacroUse, MPICall, Node, Program, build_tree
from .parses import Parses
from .priority import check_priority_expressions


def load(src: SourceFile, compiler_args, diags: Diagnostics, parses: Parses) -> Program | None:
    """The program of ``src`` (its tree from ``parses``); None when libclang reports errors
    (they are in ``diags``)."""
    tu = parses.tree(src, compiler_args)
    prog = Program(src, tu, diags)
    prog.cxx = toolchain.is_cxx_source(src.path, compiler_args)
    if report_parse_errors(tu, src, diags):
        return None
    _collect(prog)
    _collect_includes(prog)
    _collect_undefined_macros(prog)
    _check_declaration_bodies(prog)
    prog.directives = dirs.scan(src, diags, cx.skipped_ranges(tu, src.path))
    _attach_directives(prog)
    check_priority_expressions(prog, compiler_args)
    _check_mpi_references(prog)
    _check_replaced_libc_definitions(prog)
    _check_replaced_libc_variable_names(prog)
    return prog


def report_parse_errors(tu, src: SourceFile, diags: Diagnostics, place=None,
                        skipped_lines=()) -> bool:
    """Reports the errors of libclang's parse of ``src``; True if there were any. ``place``
    maps an offset of the text parsed back to ``src``, when that text was made from it;
    errors on ``skipped_lines`` of ``src`` are left out (another error says what happened)."""
    failed = False
    for d in tu.diagnostics:
        if d.severity < 3:
            continue
        loc = d.location
        if loc.file is None:
            diags.error("", 0, 0, d.spelling)
        elif cx.loc_file(loc) == src.path:
            line, col = src.line_col(place(loc.offset)) if place else (loc.line, loc.column)
            if line in skipped_lines:
                continue
            diags.error(src.display, line, col, d.spelling)
        else:
            diags.error(loc.file.name, loc.line, loc.column, d.spelling)
        failed = True
    return failed


def _collect(prog: Program):
    top = list(prog.tu.cursor.get_children())
    if prog.cxx:
        _find_overloads(prog, top)
    for order, c in enumerate(top):
        k = c.kind
        if k in (CK.MACRO_INSTANTIATION, CK.MACRO_DEFINITION, CK.INCLUSION_DIRECTIVE):
            _note_preprocessing(prog, c, order)
            continue
        if c.location.file is None:
            continue
        if k == CK.FUNCTION_DECL:
            prog.declared_functions.setdefault(c.spelling, []).append(c)
        if not prog.in_main(c):
            if not c.location.is_in_system_header:
                prog.header_cursors.append(c)
                if k == CK.FUNCTION_DECL and c.is_definition():
                    _add_function(prog, c, prog.source(c.location.file.name))
            continue
        _collect_declaration(prog, c)
    prog.macro_uses.sort(key=lambda m: m.start)


def _collect_declaration(prog: Program, c):
    """A declaration of the main file, at file scope or (C++) in a namespace or class."""
    k = c.kind
    if k in cx.FUNCTION_KINDS and c.is_definition():
        _add_function(prog, c, prog.src)
    elif k == CK.VAR_DECL:
        prog.file_vars.append(build_tree(c, None, prog, prog.src))
    elif prog.cxx and k in cx.SCOPE_KINDS:
        for member in c.get_children():
            _collect_declaration(prog, member)
    elif k not in cx.FUNCTION_KINDS:
        prog.other_trees.append(build_tree(c, None, prog, prog.src))


def _find_overloads(prog: Program, top):
    """C++: the names of the global namespace's functions that are overloaded (declared with
    more than one parameter list, also in extern "C++" blocks and headers)."""
    first = {}
    pending = list(top)
    while pending:
        c = pending.pop()
        if c.kind in (CK.LINKAGE_SPEC, CK.UNEXPOSED_DECL):
            pending.extend(c.get_children())
        elif c.kind in (CK.FUNCTION_DECL, CK.FUNCTION_TEMPLATE):
            known = first.setdefault(c.spelling, c.canonical)
            if c.kind == CK.FUNCTION_TEMPLATE or known != c.canonical:
                prog.ambiguous_names.add(c.spelling)


def _note_preprocessing(prog: Program, c, order: int):
    """An entry of the preprocessing record: a macro definition or use, an #include."""
    k = c.kind
    if k == CK.MACRO_DEFINITION:
        prog.macro_definitions.setdefault(c.spelling, []).append((order, c))
    elif k == CK.INCLUSION_DIRECTIVE and c.get_included_file() is not None:
        prog.included_at.setdefault(os.path.abspath(c.get_included_file().name), order)
    if c.location.file is None:
        return
    use = MacroUse(c.extent.start.offset, c.extent.end.offset, c.spelling, c.referenced)
    if prog.in_main(c):
        if k == CK.MACRO_INSTANTIATION:
            prog.macro_uses.append(use)
        elif k == CK.MACRO_DEFINITION:
            prog.macro_defs.append(c)
    elif not c.location.is_in_system_header:
        path = os.path.abspath(c.location.file.name)
        prog.header_records.setdefault(path, []).append((use.start, order))
        if k == CK.MACRO_INSTANTIATION:
            prog.header_macro_uses.setdefault(path, []).append(use)


def _add_function(prog: Program, c, src: SourceFile):
    node = build_tree(c, None, prog, src)
    body = next((ch for ch in node.children if ch.kind == CK.COMPOUND_STMT), None)
    if body is None:
        return
    params = [ch for ch in node.children if ch.kind == CK.PARM_DECL]
    fn = Function(c.spelling, c, node, body, params)
    prog.add_function(fn)
    (prog.header_functions if src is not prog.src else prog.function_order).append(fn)
    _collect_vars(prog, fn)


def _collect_includes(prog: Program):
    """For each header, where the main file includes it (or the header that includes it)."""
    included_from = {}   # header path -> (including file's path, offset of the #include)
    for inclusion in prog.tu.get_includes():
        if inclusion.source is None:
            continue
        included_from.setdefault(os.path.abspath(inclusion.include.name),
                                 (os.path.abspath(inclusion.source.name),
                                  inclusion.location.offset))
    for header in included_from:
        path, seen = header, set()
        while path in included_from and path not in seen:
            seen.add(path)
            path, offset = included_from[path]
            if path == prog.src.path:
                prog.include_lines[header] = offset
                break


_UNDEF = re.compile(r"^[ \t]*#[ \t]*undef[ \t]+([A-Za-z_]\w*)", re.M)


def _collect_undefined_macros(prog: Program):
    """The macros the main file and the user's headers #undef."""
    files = {prog.src.path} | {os.path.abspath(c.location.file.name)
                               for c in prog.header_cursors}
    files |= set(prog.header_records)
    for path in files:
        prog.undefined_macros.update(_UNDEF.findall(prog.source(path).blanked))


def _collect_vars(prog: Program, fn: Function):
    for n in fn.node.walk():
        if n.kind in (CK.PARM_DECL, CK.VAR_DECL):
            v = prog.var(n.cursor)
            if v is not None:
                fn.vars[v.key] = v
    if prog.cxx:
        _note_cxx_references(prog, fn)
    for n in fn.node.walk():
        if n.kind == CK.UNARY_OPERATOR and n.op == "&" and n.children:
            b = base_variable_node(n.children[0])
            v = prog.var_of_ref(b) if b is not None else None
            if v is not None:
                v.address_taken = True
        elif n.kind == CK.DECL_REF_EXPR:
            v = prog.var_of_ref(n)
            if v is None or v.cursor.type.get_canonical().kind not in (
                    cx.TK.CONSTANTARRAY, cx.TK.INCOMPLETEARRAY, cx.TK.VARIABLEARRAY):
                continue
            # an array used other than by subscript or sizeof decays to a pointer to it
            p = n.parent
            child = n
            while p is not None and p.kind in (CK.UNEXPOSED_EXPR, CK.PAREN_EXPR):
                child, p = p, p.parent
            if p is not None and p.kind == CK.ARRAY_SUBSCRIPT_EXPR and p.children[0] is child:
                continue
            if p is not None and p.kind == CK.CXX_UNARY_EXPR:
                continue
            if p is not None and p.kind == CK.MEMBER_REF_EXPR:
                continue
            v.address_taken = True


def _note_cxx_references(prog: Program, fn: Function):
    """C++ changes a variable without '&': a reference bound to it (a call's reference
    parameter, `int &r = x;`) or a lambda that captures it. A variable named as a call's
    argument without a conversion around it (the value is read through a cast libclang shows
    as an UNEXPOSED_EXPR), as a reference's initializer, or inside a lambda counts as one
    whose address is taken."""
    for n in fn.node.walk():
        if n.kind != CK.DECL_REF_EXPR:
            continue
        v = prog.var_of_ref(n)
        if v is None:
            continue
        child, p = n, n.parent
        while p is not None and p.kind == CK.PAREN_EXPR:
            child, p = p, p.parent
        bound = p is not None and (
            (p.kind == CK.CALL_EXPR and p.children and p.children[0] is not child) or
            (p.kind == CK.VAR_DECL and p.type.kind == cx.TK.LVALUEREFERENCE))
        captured = any(a.kind == CK.LAMBDA_EXPR and not (a.start <= v.cursor.location.offset < a.end)
                       for a in n.ancestors())
        if bound or captured:
            v.address_taken = True


# -- directives -------------------------------------------------------------------------------

_BODY_INDEX = {CK.IF_STMT: (1, 2), CK.WHILE_STMT: (1,), CK.DO_STMT: (0,), CK.SWITCH_STMT: (1,)}
_KEYWORD = {CK.IF_STMT: "if", CK.WHILE_STMT: "while", CK.DO_STMT: "do", CK.SWITCH_STMT: "switch",
            CK.FOR_STMT: "for"}


def statement_slots(prog: Program):
    """Every place a statement stands in the main file's functions, outermost first."""
    slots = []
    for fn in prog.function_order:
        for n in fn.body.walk():
            p = n.parent
            if p is None or n is fn.body:
                continue
            if p.kind == CK.COMPOUND_STMT:
                slots.append(n)
            elif p.kind in _BODY_INDEX:
                idx = [i for i in _BODY_INDEX[p.kind] if i < len(p.children)]
                if any(p.children[i] is n for i in idx):
                    slots.append(n)
            elif p.kind == CK.FOR_STMT and p.children and p.children[-1] is n:
                slots.append(n)
            elif p.kind in (CK.CASE_STMT, CK.DEFAULT_STMT, CK.LABEL_STMT) and p.children[-1] is n:
                slots.append(n)
    return slots


def _check_declaration_bodies(prog: Program):
    """A declaration is not a statement: libclang lets one stand as the body of an if, a
    loop or a switch, C compilers do not."""
    for fn in prog.function_order:
        for n in fn.body.walk():
            if n.kind == CK.FOR_STMT:
                bodies = n.children[-1:]
            elif n.kind in _BODY_INDEX:
                bodies = [n.children[i] for i in _BODY_INDEX[n.kind] if i < len(n.children)]
            else:
                continue
            for i, body in enumerate(bodies):
                if body.kind == CK.DECL_STMT:
                    word = "else" if i == 1 else _KEYWORD[n.kind]
                    prog.error(body.start, f"a declaration cannot be the body of '{word}' (only "
                                           "a statement can): put it in braces")


def _only_preprocessor_between(blank: str, a: int, b: int) -> bool:
    lines = blank[a:b].split("\n")
    cont = False
    for i, line in enumerate(lines):
        s = line.strip()
        if cont:
            cont = s.endswith("\\")
            continue
        if not s:
            continue
        if s.startswith("#") and i > 0:
            cont = s.endswith("\\")
            continue
        return False
    return True


def _attach_directives(prog: Program):
    slots = statement_slots(prog)
    slots.sort(key=lambda n: n.start)  # stable: outermost first among equal starts
    import bisect
    starts = [n.start for n in slots]
    for d in prog.directives:
        if not d.kind or d.kind == dirs.DIMENSION:
            continue  # unknown directives are already reported
        i = bisect.bisect_left(starts, d.end)
        n = slots[i] if i < len(slots) else None
        if n is None or not _only_preprocessor_between(prog.src.blanked, d.end, n.start):
            prog.error(d.start, f"'#pragma bamboo {d.kind}' must be followed by a statement "
                                "in the same block (it applies to the statement after it)")
            d.valid = False
            continue
        d.stmt = n
        if d.kind in (dirs.OLAP, dirs.SEND, dirs.RECEIVE):
            d.valid = True if d.kind != dirs.OLAP else d.valid


# -- MPI references ---------------------------------------------------------------------------

def _is_direct_callee(n: Node) -> bool:
    child, p = n, n.parent
    while p is not None and p.kind == CK.UNEXPOSED_EXPR:
        child, p = p, p.parent
    return p is not None and p.kind == CK.CALL_EXPR and p.children and p.children[0] is child


def _check_mpi_references(prog: Program):
    trees = [fn.node for fn in prog.function_order] + prog.file_vars + prog.other_trees
    for tree in trees:
        _mpi_references(prog, tree, report=True)
    # code in the user's own headers (inline functions, initializers) is checked as the
    # cursors say; the calls of the functions it defines are noted for their analysis
    for c in prog.header_cursors:
        _check_header_cursor(prog, c)
    for fn in prog.header_functions:
        _mpi_references(prog, fn.node, report=False)


def _mpi_references(prog: Program, tree: Node, report: bool):
    """Note the MPI calls in ``tree``; with ``report``, errors for unsupported functions and
    functions used other than as direct calls."""
    for n in tree.walk():
        if n.kind != CK.DECL_REF_EXPR:
            continue
        r = n.ref
        if r is None or r.kind != CK.FUNCTION_DECL or not mpi_api.is_mpi_name(r.spelling):
            continue
        name = r.spelling
        spec = mpi_api.lookup(name)
        if spec is None:
            if report:
                prog.error(n.start, f"{name} is not supported by the Bamboo runtime yet")
            continue
        if not _is_direct_callee(n):
            if report:
                prog.error(n.start, f"{name} is used other than as a direct call (the Bamboo "
                                    "runtime replaces MPI calls by macros; call it directly)")
            continue
        call = n
        while call.kind != CK.CALL_EXPR:
            call = call.parent
        prog.add_mpi_call(MPICall(call, spec, prog.function_of(call)))


def _check_replaced_libc_definitions(prog: Program):
    """A user function named like one bamboo.h redirects would be renamed by the macro."""
    for name in mpi_api.LIBC_REPLACED:
        for c in prog.declared_functions.get(name, []):
            if c.is_definition() and not c.location.is_in_system_header:
                prog.diags.error(*prog.cursor_where(c), f"the program defines its own {name}(); "
                                 f"Bamboo replaces {name}() with a per-task version, so rename "
                                 "this function")


def _check_replaced_libc_variable_names(prog: Program):
    """A program's own global named like one of getopt's variables would take the library's
    place (the linker lets it), and getopt would set it; the runtime's per-task getopt
    sets the task's own copies of the library's instead."""
    for n in prog.file_vars:
        c = n.cursor
        if c.spelling in mpi_api.LIBC_VARIABLES_REPLACED and c.linkage == cx.ci.LinkageKind.EXTERNAL \
                and c.storage_class != cx.ci.StorageClass.EXTERN:
            prog.diags.error(*prog.cursor_where(c),
                             f"the program defines '{c.spelling}', the C library's getopt "
                             "variable, which Bamboo makes per task; rename this variable")


def _check_header_cursor(prog, cursor):
    stack = [(cursor, None)]
    while stack:
        c, parent = stack.pop()
        if c.kind == CK.DECL_REF_EXPR:
            r = c.referenced
            if r is not None and r.kind == CK.FUNCTION_DECL and mpi_api.is_mpi_name(r.spelling):
                where = prog.cursor_where(c)
                if mpi_api.lookup(r.spelling) is None:
                    prog.diags.error(*where, f"{r.spelling} is not supported by the Bamboo "
                                             "runtime yet")
                elif parent is None or parent.kind not in (CK.UNEXPOSED_EXPR, CK.CALL_EXPR):
                    prog.diags.error(*where, f"{r.spelling} is used other than as a direct call "
                                             "(the Bamboo runtime replaces MPI calls by macros; "
                                             "call it directly)")
        for ch in c.get_children():
            stack.append((ch, c))
