"""Privatization of globals: each task (virtual rank) gets its own copy of every mutable
variable with static storage duration declared in the user's files.

Scheme (see BAMBOO_PRIVATE in runtime/include/bamboo.h):

* the definition is renamed ``bamboo_initial_<name>``: the template the runtime copies;
* ``size_t bamboo_offset_<name>`` is declared next to it (static for internal linkage and
  function-local statics, a definition where the variable is defined, ``extern`` where it
  is only declared);
* every use becomes ``BAMBOO_PRIVATE(<name>)``;
* a constructor at the end of the file registers the variables defined in it.

Internal-linkage names keep their name (their symbols are static); function-local statics
become ``<function>__<name>`` and their template moves to file scope just before the
function, on the function's first line.

A header's tentative definition (``EXTERN int x;`` where the one file that defines the
program's globals sets ``#define EXTERN`` before including it) cannot be renamed: the file
that includes it defines the offset and registers the header's own variable as the
template.

An ``extern`` declaration of a C library variable (``optarg``, ``environ``) is the
library's, not the program's. getopt's variables (``optarg``, ``optind``, ``opterr``,
``optopt``) are the task's own in the runtime: each use of the library's becomes a call,
``(*bamboo_optarg())``, and members, parameters and locals of those names stay the program's.

C++ (docs/directives.md, "C++"): variables of namespaces (named or anonymous) and static data
members are privatized the same way, their template and offset declared in the variable's own
scope (a use with a qualifier, ``ns::x``, becomes ``BAMBOO_PRIVATE_IN(ns, x)``); each
variable registers itself where its offset is defined (``bamboo_register_global``), since a
constructor at the end of the file could not name a class's private members. Tasks' copies of
a variable of a trivial type start as bytes copied from the template; a function-local static
of one must have a constant initializer (the template is initialized before main, not at the
first call). An object of a non-trivial type (a constructor, destructor or copy of its own)
is constructed by each task instead: its declaration becomes ``typedef T
bamboo_initial_<name>;`` (so ``BAMBOO_PRIVATE`` finds its type there), and where it is defined
its initializer moves into a function that constructs it in the task's slot, registered by
``bamboo_register_object``; a function-local one is constructed in place at the task's first
pass (``BAMBOO_FIRST_PASS``). What cannot be privatized this way is an error at its
declaration: statics in templates (each instantiation would need its own), variables declared
in a header, a static member used through an object (``c.count``) or named by a
using-declaration, an object whose type is deduced (``auto``).
"""
from __future__ import annotations

import os
import re
from dataclasses import dataclass, field

from ..frontend import cx
from ..frontend.cx import CK
from ..emit.edits import EditBuffer, EditOrder
from ..frontend.model import Program, ids_under
from ..mpi_api import LIBC_VARIABLES, LIBC_VARIABLES_REPLACED

# getopt's variables, as the runtime gives each task its own (bamboo.h)
TASK_LIBRARY_VARIABLES = {name: f"(*bamboo_{name}())" for name in LIBC_VARIABLES_REPLACED}
from ..source import NameRewrites
from .base import Transformation


@dataclass
class PrivateVar:
    key: str
    name: str
    mangled: str = ""
    linkage: str = "external"      # external | internal | local
    function: str | None = None    # for function-local statics
    decls: list = field(default_factory=list)         # main-file declaration cursors
    header_decls: list = field(default_factory=list)  # declarations in user headers
    defined_here: bool = False
    defined_in_header: bool = False  # a tentative definition in a user header
    uses: list = field(default_factory=list)          # Nodes (DECL_REF_EXPR) in the main
                                                      # file, VariableRefs of priority exprs
    type_spelling: str = ""
    qualified_name: str = ""       # C++: ns::Counter::count, for messages and registration
    constructed: bool = False      # C++, a non-trivial type: each task constructs its own

    @property
    def template(self):
        """The variable each task's copy starts from."""
        return self.name if self.defined_in_header else f"bamboo_initial_{self.mangled}"

    @property
    def registered_name(self):
        return self.name if self.linkage == "external" else self.mangled

    @property
    def type_name(self):
        """A constructed object's type: its declaration becomes this typedef."""
        return f"bamboo_initial_{self.mangled}"

    def describe(self) -> str:
        where = {"external": "global", "internal": "static global",
                 "local": f"static local of {self.function}()"}[self.linkage]
        return f"{self.name} ({where}, {self.type_spelling})"


@dataclass
class Declarator:
    """Where the parts of one declarator of a constructed object stand:
    ``name[bounds] initializer``, the initializer ``= value``, ``(args)``, ``{args}`` or none."""
    bounds_end: int           # past the name and its array bounds
    init: str                 # "=", "(", "{" or "" (none)
    init_start: int           # where the initializer starts ("=" included)
    value: int                # where what the object is constructed from starts
    end: int                  # past the initializer
    empty_bound: int | None   # the "]" of an array bound left to the initializer, `names[]`
    is_array: bool


STORAGE_KEYWORDS = ("static", "extern", "inline")


class PrivatizeGlobals(Transformation):
    """``rewrites``: the rewrites of privatized names, frozen, complete once checked; the
    other transformations spell the user's code with them."""

    _mixed_declaration = ("a declaration mixing variables of a non-trivial type, which each "
                          "task constructs, with other variables cannot be privatized; split it")

    def __init__(self, prog: Program):
        self.prog = prog
        self.vars: dict[str, PrivateVar] = {}
        self._rewrites: dict = {}  # offset -> (end, replacement): uses and declaration names
        self.rewrites = NameRewrites(prog.src)  # _rewrites, frozen once complete
        self._local_moves = []     # (decl_stmt Node, Function, [PrivateVar])
        # offset after a declaration -> [declaration]; a declaration is a list of generated
        # text and (start, end) ranges of the user's text moved there (initializers)
        self._offset_declarations = {}
        self._object_edits = []    # (start, end, text): a constructed object's declaration
        self._object_declarations = {}  # declaration start -> [(VAR_DECL cursor, qualified)]
        self._declared = {}        # declaration start -> the name offsets of its variables
        self._declaration_start = {}  # a variable's name offset -> its declaration's start
        self._local_object_types = {}   # function-local object's statement start -> typedefs

    # -- discovery --------------------------------------------------------------------------
    def check(self):
        self._collect()
        self._find_uses()
        self._check_initializers()
        self._rename_declarations()
        self.rewrites = NameRewrites(self.prog.src, self._rewrites)

    def _is_candidate(self, c) -> bool:
        if c.kind != CK.VAR_DECL:
            return False
        if cx.is_const_object(c.type):
            return False
        if c.type.kind in (cx.TK.LVALUEREFERENCE, cx.TK.RVALUEREFERENCE):
            return False  # bound once: an initializer naming a privatized variable is refused
        return not self._is_library_variable(c)

    def _is_library_variable(self, c) -> bool:
        if self._defines(c):
            return False
        return c.canonical.location.is_in_system_header or c.spelling in LIBC_VARIABLES

    @staticmethod
    def _defines(c) -> bool:
        """A definition, or a file-scope tentative definition (``int x;``)."""
        if c.is_definition():
            return True
        return c.storage_class != cx.ci.StorageClass.EXTERN and (
            c.semantic_parent is None or c.semantic_parent.kind == CK.TRANSLATION_UNIT)

    def _check_tls(self, c) -> bool:
        if c.tls_kind != cx.ci.TLSKind.NONE:
            self.prog.diags.error(*self.prog.cursor_where(c),
                                  f"thread-local variable '{c.spelling}' cannot be privatized "
                                  "(tasks share worker threads); make it an ordinary global")
            return False
        return True

    def _add(self, c, linkage, function=None) -> PrivateVar:
        key = c.get_usr() or f"{c.spelling}@{c.location.offset}"
        pv = self.vars.get(key)
        if pv is None:
            pv = PrivateVar(key, c.spelling, linkage=linkage, function=function,
                            type_spelling=c.type.spelling, qualified_name=cx.qualified_name(c))
            self.vars[key] = pv
        return pv

    def _check_cxx(self, c, what: str) -> bool:
        """C++: whether the variable ``c`` can be privatized; a located error if not."""
        if not self.prog.cxx:
            return True
        why = None
        if cx.in_template(c):
            why = ("it belongs to a template, whose every instantiation has its own; "
                   "move it out of the template")
        elif c.is_definition() and c.lexical_parent is not None and \
                c.lexical_parent.kind in cx.CLASS_KINDS:
            why = ("it is defined in its class (an inline static member), where its copy's "
                   "registration cannot name it; declare it in the class and define it outside")
        elif self._constructed(c) and self._deduced_type(c):
            why = ("its type is deduced from its initializer (auto, or a class template's "
                   "arguments), and each task constructs its own object from a declaration of "
                   "the type: write the type")
        if why is None:
            return True
        self.prog.diags.error(*self.prog.cursor_where(c), f"{what} cannot be privatized: {why}")
        return False

    def _constructed(self, c) -> bool:
        """C++: whether each task constructs its own copy of the variable ``c`` by running its
        initializer: a type with a constructor, destructor or copy of its own cannot start as
        a copy of the original's bytes."""
        return self.prog.cxx and not cx.strip_arrays(c.type).is_pod()

    def _deduced_type(self, c) -> bool:
        """``auto x = ...`` or ``std::vector v = {1, 2}``: no type to declare the object by."""
        if c.type.kind == cx.TK.AUTO:
            return True
        blank = self.prog.src.blanked
        _, _, _, name = cx.file_location(c.location)
        for x in c.get_children():
            if x.kind == CK.TEMPLATE_REF and x.extent.end.offset <= name:
                after = blank[x.extent.end.offset:name].lstrip()
                if not after.startswith("<"):
                    return True
        return False

    def _constant_initializer(self, stmt) -> bool:
        """C++: whether a function-local static's initializer is constant, so that
        computing it before main, once, gives what the first call would."""
        for n in stmt.walk():
            if n.kind in (CK.CALL_EXPR, CK.CXX_THIS_EXPR, CK.CXX_NEW_EXPR, CK.LAMBDA_EXPR):
                return False
            if n.kind == CK.DECL_REF_EXPR and n.ref is not None and not (
                    n.ref.kind == CK.ENUM_CONSTANT_DECL or
                    (n.ref.kind == CK.VAR_DECL and cx.is_const_object(n.ref.type)
                     and self.prog.var(n.ref).is_static_storage)):
                return False
        return True

    def _collect(self):
        prog = self.prog
        # declarations in the user's own headers
        if prog.cxx:
            self._refuse_header_variables()
        for c in ([] if prog.cxx else prog.header_cursors):
            if c.kind == CK.FUNCTION_DECL and c.is_definition():
                for x in cx.walk_preorder(c):
                    if x.kind == CK.VAR_DECL and x.storage_class == cx.ci.StorageClass.STATIC \
                            and self._is_candidate(x):
                        prog.diags.error(*prog.cursor_where(x),
                                         f"static variable '{x.spelling}' of {c.spelling}() is "
                                         "defined in a header, which the translator does not "
                                         "rewrite; each task needs its own copy: move the "
                                         "function into a .c file")
                continue
            if not self._is_candidate(c) or not self._check_tls(c):
                continue
            # A definition in a header (`EXTERN int steps INIT(= 10);` in the one file that
            # defines EXTERN empty, or a `static` table every including file has its own of)
            # stays as it is, the template of the tasks' copies; this file defines its offset.
            internal = c.linkage == cx.ci.LinkageKind.INTERNAL
            pv = self._add(c, "internal" if internal else "external")
            pv.header_decls.append(c)
            if self._defines(c):
                pv.defined_here = pv.defined_in_header = True
        # file-scope declarations of the main file (C++: of namespaces and classes)
        for n in prog.file_vars:
            c = n.cursor
            if not self._is_candidate(c) or not self._check_tls(c):
                continue
            if not self._check_cxx(c, f"variable '{cx.qualified_name(c)}'"):
                continue
            internal = c.linkage == cx.ci.LinkageKind.INTERNAL
            pv = self._add(c, "internal" if internal else "external")
            pv.decls.append(c)
            pv.constructed = self._constructed(c)
            if self._defines(c):
                pv.defined_here = True
        # statics and extern declarations inside functions
        used_names = {}
        for fn in prog.function_order:
            for n in fn.body.walk():
                if n.kind != CK.DECL_STMT:
                    continue
                vds = [v for v in n.children if v.kind == CK.VAR_DECL]
                if not vds:
                    continue
                sc = vds[0].cursor.storage_class
                if sc == cx.ci.StorageClass.EXTERN:
                    for vd in vds:
                        c = vd.cursor
                        if self._is_candidate(c) and self._check_tls(c):
                            r = c.canonical
                            pv = self._add(r, "internal" if c.linkage == cx.ci.LinkageKind.INTERNAL
                                           else "external")
                            pv.decls.append(c)
                            pv.constructed = self._constructed(c)
                elif sc == cx.ci.StorageClass.STATIC:
                    movable = []
                    for vd in vds:
                        c = vd.cursor
                        if not self._is_candidate(c) or not self._check_tls(c):
                            continue
                        if not self._check_cxx(c, f"static variable '{c.spelling}' of "
                                                  f"{fn.name}()"):
                            continue
                        constructed = self._constructed(c)
                        if prog.cxx and not constructed and not self._constant_initializer(vd):
                            prog.diags.error(*prog.cursor_where(c), f"static variable "
                                             f"'{c.spelling}' of {fn.name}() cannot be "
                                             "privatized: its initializer is not a constant, and "
                                             "each task's copy starts from a value computed "
                                             "before main, not at the first call; initialize it "
                                             "with a constant and set it at run time")
                            continue
                        pv = self._add(c, "local", fn.name)
                        pv.constructed = constructed
                        # C++ names (~Counter, operator+) are not all identifiers
                        base = re.sub(r"\W", "_", f"{fn.name}__{c.spelling}")
                        k = used_names.get(base, 0)
                        used_names[base] = k + 1
                        pv.mangled = base if k == 0 else f"{base}_{k}"
                        pv.defined_here = True
                        movable.append(pv)
                    if movable:
                        if len(movable) != len(vds):
                            prog.error(n.start, "a declaration mixing const and mutable static "
                                                "variables cannot be privatized; split it")
                            continue
                        if len({pv.constructed for pv in movable}) > 1:
                            prog.error(n.start, self._mixed_declaration)
                            continue
                        if self._local_types_ok(n, fn):
                            self._local_moves.append((n, fn, movable))
        for pv in self.vars.values():
            if not pv.mangled:
                pv.mangled = pv.name

    def _refuse_header_variables(self):
        """C++: a header's variables would need their declarations rewritten in every file
        that includes it; the translator writes only the translated file."""
        prog = self.prog
        for top in prog.header_cursors:
            for c in cx.walk_preorder(top):
                if c.kind != CK.VAR_DECL or not self._is_candidate(c) or \
                        not prog.var(c).is_static_storage:
                    continue
                prog.diags.error(*prog.cursor_where(c),
                                 f"variable '{cx.qualified_name(c)}' is declared in a header, "
                                 "which the translator does not rewrite, and each task needs "
                                 "its own copy: in C++, declare the program's mutable globals, "
                                 "static members and statics in the translated file")

    def _local_types_ok(self, stmt, fn) -> bool:
        lo, hi = fn.node.start, fn.node.end
        for n in stmt.walk():
            if n.kind in (CK.TYPE_REF, CK.DECL_REF_EXPR) and n.ref is not None:
                r = n.ref
                if r.kind in (CK.VAR_DECL, CK.PARM_DECL) and n.kind == CK.DECL_REF_EXPR:
                    continue
                if self.prog.in_main(r) and lo <= r.location.offset < hi and \
                        not (stmt.start <= r.location.offset < stmt.end):
                    self.prog.error(n.start, f"static variable declared with '{n.spelling}', which "
                                             f"is declared inside {fn.name}(); privatization moves "
                                             "the variable to file scope: declare it there")
                    return False
        return True

    # -- uses ------------------------------------------------------------------------------------
    def _find_uses(self):
        prog = self.prog
        src = prog.src
        keys = self.vars
        trees = [fn.node for fn in prog.function_order] + prog.file_vars + prog.other_trees
        macro_names_needed = set()
        for tree in trees:
            in_sizeof = ids_under(tree, CK.CXX_UNARY_EXPR)
            for n in tree.walk():
                if n.kind in (CK.MEMBER_REF_EXPR, CK.USING_DECLARATION):
                    self._refuse_indirect_name(n)
                if n.kind != CK.DECL_REF_EXPR:
                    continue
                r = n.ref
                if r is None or r.kind != CK.VAR_DECL:
                    continue
                if r.spelling in TASK_LIBRARY_VARIABLES and self._is_library_variable(r):
                    self._rewrite_library_use(n, macro_names_needed)
                    continue
                key = r.get_usr()
                pv = keys.get(key)
                if pv is None:
                    continue
                fname, line, col, off = cx.file_location(n.cursor.location)
                if fname and os.path.abspath(fname) == src.path and src.identifier_at(off) == pv.name:
                    pv.uses.append(n)
                    # C++: `ns::x` is rewritten from its qualifier on
                    start = n.start if prog.cxx and src.path == n.src.path and n.start < off else off
                    if id(n) in in_sizeof and not pv.constructed:
                        # sizeof/_Alignof: the template has the same type, and stays constant
                        # (a constructed object's is a type, which `sizeof x` cannot take; the
                        # task's copy, unevaluated, is as constant)
                        text = f"bamboo_initial_{pv.mangled}"
                        if start < off:
                            text = src.text[start:off] + text
                    elif start < off:
                        scope = src.text[start:off].rstrip().removesuffix("::").rstrip()
                        text = f"BAMBOO_PRIVATE_IN({scope}, {pv.mangled})"
                    else:
                        text = f"BAMBOO_PRIVATE({pv.mangled})"
                    self._rewrites[start] = (off + len(pv.name), text)
                    continue
                if self._use_in_macro(n, pv.key, pv.name, macro_names_needed):
                    pv.uses.append(n)
        # variables a priority expression names: the region code writes the expression out
        # with these rewrites (apply() leaves them to it)
        for d in prog.directives:
            for ref in d.expr_refs:
                pv = keys.get(ref.usr)
                if pv is None:
                    continue
                if ref.start is None or src.identifier_at(ref.start) != ref.name:
                    prog.error(d.expr_offset, f"privatized variable '{ref.name}' is named through "
                                              "a macro in the priority expression; name it in "
                                              "the expression itself")
                    continue
                pv.uses.append(ref)
                self._rewrites[ref.start] = (ref.start + len(ref.name),
                                            f"BAMBOO_PRIVATE({pv.mangled})")
        # rewrite the bodies of this file's macros that name privatized variables
        if macro_names_needed:
            found = {}
            for d in prog.macro_defs:
                self._rewrite_macro(d, found)
            for key, off, mname in sorted(macro_names_needed, key=lambda x: x[1]):
                if key not in found:
                    name = self.vars[key].name if key in self.vars else key
                    prog.error(off, f"'{name}' is used inside macro '{mname}' through a macro "
                                    "defined in another file; a privatized variable can only be "
                                    "used through macros defined in the translated file")
        # uses from code in the user's headers cannot be rewritten; a header's static function
        # this file never calls is left alone (OSU's benchmarks' headers have unused ones)
        live = self._header_functions_called(trees)
        for c in prog.header_cursors:
            if c.kind == CK.FUNCTION_DECL and c.linkage == cx.ci.LinkageKind.INTERNAL and \
                    c.get_usr() not in live:
                continue
            for x in cx.walk_preorder(c):
                r = x.referenced if x.kind == CK.DECL_REF_EXPR else None
                if r is not None and (r.get_usr() in keys or r.spelling in TASK_LIBRARY_VARIABLES
                                      and self._is_library_variable(r)):
                    prog.diags.error(*prog.cursor_where(x),
                                     f"privatized variable '{x.spelling}' is used in a header, "
                                     "which the translator does not rewrite; move the code "
                                     "into the .c file")

    def _header_functions_called(self, trees) -> set:
        """The USRs of the functions defined in the user's headers that this file's code
        calls or names, directly or through other such functions."""
        defined = {c.get_usr(): c for c in self.prog.header_cursors
                   if c.kind == CK.FUNCTION_DECL and c.is_definition()}
        named = {n.ref.get_usr() for tree in trees for n in tree.walk()
                 if n.kind == CK.DECL_REF_EXPR and n.ref is not None and n.ref.kind == CK.FUNCTION_DECL}
        called, new = set(), named & defined.keys()
        while new:
            called |= new
            new = {x.referenced.get_usr() for usr in new for x in cx.walk_preorder(defined[usr])
                   if x.kind == CK.DECL_REF_EXPR and x.referenced is not None
                   and x.referenced.kind == CK.FUNCTION_DECL} & defined.keys() - called
        return called

    def _rewrite_library_use(self, n, macro_names_needed):
        """A use of getopt's ``optarg`` (or optind, opterr, optopt) becomes the task's own,
        where this file spells it or in the body of one of this file's macros."""
        prog, src = self.prog, self.prog.src
        name = n.ref.spelling
        fname, _, _, off = cx.file_location(n.cursor.location)
        if fname and os.path.abspath(fname) == src.path and src.identifier_at(off) == name:
            start = n.start if prog.cxx and src.path == n.src.path and n.start < off else off
            self._rewrites[start] = (off + len(name), TASK_LIBRARY_VARIABLES[name])
            return
        self._use_in_macro(n, name, name, macro_names_needed)

    def _use_in_macro(self, n, key, name: str, macro_names_needed) -> bool:
        """A use ``n`` of privatized variable ``name`` inside the body of a macro: noted in
        ``macro_names_needed`` (the macro's body is rewritten) if this file defines the macro;
        an error otherwise."""
        prog = self.prog
        m = prog.macro_at(n.start)
        d = m.definition if m is not None else None
        if d is not None and prog.in_main(d):
            macro_names_needed.add((key, n.start, m.name))
            return True
        mname = m.name if m is not None else "a macro"
        dfile = prog.cursor_where(d)[0] if d is not None else "another file"
        prog.error(n.start, f"'{name}' is used inside macro '{mname}' defined in {dfile}; a "
                            "privatized variable can only be used through macros defined in the "
                            "translated file")
        return False

    def _refuse_indirect_name(self, n):
        """C++: a static member used through an object (``c.count``, ``this->count``), or a
        using-declaration of a privatized variable, has no place for the rewrite."""
        names = [n] if n.kind == CK.MEMBER_REF_EXPR else \
            [x for x in n.children if x.kind in (CK.MEMBER_REF, CK.OVERLOADED_DECL_REF)]
        for x in names:
            r = x.ref
            pv = self.vars.get(r.get_usr()) if r is not None and r.kind == CK.VAR_DECL else None
            if pv is None:
                continue
            if n.kind == CK.MEMBER_REF_EXPR:
                self.prog.error(n.start, f"static member '{pv.qualified_name}' is used through an "
                                         "object; privatization rewrites it by name: write "
                                         f"'{pv.qualified_name}'")
            else:
                self.prog.error(n.start, f"using-declaration of privatized variable "
                                         f"'{pv.qualified_name}'; name it with its qualifier "
                                         "instead")

    def _rewrite_macro(self, d, found):
        """The names of privatized variables, and of getopt's, in the body of macro ``d``
        (not parameters, not members); ``found`` gets their keys (a library variable's key
        is its name)."""
        params, body = cx.macro_parts(d)
        by_name = {name: (name, text) for name, text in TASK_LIBRARY_VARIABLES.items()}
        for pv in self.vars.values():
            if pv.linkage != "local":
                by_name.setdefault(pv.name, (pv.key, f"BAMBOO_PRIVATE({pv.mangled})"))
        prev = None
        for t in body:
            if t.kind == cx.ci.TokenKind.IDENTIFIER and t.spelling in by_name and \
                    t.spelling not in params and (prev is None or prev.spelling not in (".", "->")):
                key, text = by_name[t.spelling]
                off = t.extent.start.offset
                self._rewrites[off] = (off + len(t.spelling), text)
                found[key] = True
            prev = t

    def _check_initializers(self):
        """A static initializer cannot take the address of a privatized variable: the pointer
        would point at the template, not at the task's copy. An object each task constructs
        runs its initializer in the task, with the task's copies."""
        prog = self.prog
        inits = [n for n in prog.file_vars]
        for fn in prog.function_order:
            for n in fn.body.walk():
                if n.kind == CK.VAR_DECL and n.cursor.storage_class == cx.ci.StorageClass.STATIC:
                    inits.append(n)
        for vd in inits:
            pv = self.vars.get(vd.cursor.get_usr())
            if pv is not None and pv.constructed:
                continue
            in_sizeof = ids_under(vd, CK.CXX_UNARY_EXPR)
            for n in vd.walk():
                if n is vd or n.kind != CK.DECL_REF_EXPR or id(n) in in_sizeof:
                    continue
                r = n.ref
                if r is None or r.get_usr() not in self.vars:
                    continue
                if prog.cxx:
                    prog.error(n.start, f"the initializer of '{vd.spelling}' uses privatized "
                                        f"variable '{r.spelling}' (each task has its own copy, "
                                        "which does not exist yet when the initializer runs); "
                                        "set it at run time instead")
                else:
                    prog.error(n.start, f"the initializer of '{vd.spelling}' takes the address "
                                        f"of privatized variable '{r.spelling}' (each task has "
                                        "its own copy); set the pointer at run time instead")
                # do not rewrite it: the error stops the translation anyway
                fname, _, _, off = cx.file_location(n.cursor.location)
                self._rewrites.pop(off, None)

    # -- edits -------------------------------------------------------------------------------------
    def _decl_end(self, c) -> int:
        """Offset just past the ';' ending the declaration that holds cursor ``c``."""
        blank = self.prog.src.blanked
        j = c.extent.end.offset
        depth = 0
        while j < len(blank):
            ch = blank[j]
            if ch in "([{":
                depth += 1
            elif ch in ")]}":
                depth -= 1
            elif ch == ";" and depth <= 0:
                return j + 1
            j += 1
        return c.extent.end.offset

    def _rename_declarations(self):
        """Each declaration's name becomes the template's, ``bamboo_initial_<name>``; the
        offset is declared after each declaration outside functions."""
        prog = self.prog
        self._find_declarations()
        for stmt, _, pvs in self._local_moves:
            if pvs[0].constructed:
                self._construct_in_place(stmt, pvs)
                continue
            for vd in stmt.children:
                if vd.kind == CK.VAR_DECL:
                    pv = self.vars[vd.cursor.get_usr()]
                    _, _, _, off = cx.file_location(vd.cursor.location)
                    self._rewrites[off] = (off + len(pv.name), f"bamboo_initial_{pv.mangled}")
        for pv in self.vars.values():
            if pv.linkage == "local":
                continue
            for c in pv.decls:
                _, _, _, off = cx.file_location(c.location)
                if prog.src.identifier_at(off) != pv.name:
                    prog.error(c.extent.start.offset, f"'{pv.name}' is declared by a macro and "
                                                      "cannot be privatized")
                    continue
                if pv.constructed:
                    self._declare_object(pv, c, off)
                    continue
                self._rewrites[off] = (off + len(pv.name), f"bamboo_initial_{pv.mangled}")
                if prog.cxx:
                    decl = self._cxx_offset_declaration(pv, c, off)
                elif pv.linkage == "internal":
                    decl = [f"static size_t bamboo_offset_{pv.mangled};"]
                elif self._defines(c):
                    decl = [f"size_t bamboo_offset_{pv.mangled};"]
                else:
                    decl = [f"extern size_t bamboo_offset_{pv.mangled};"]
                self._offset_declarations.setdefault(self._decl_end(c), []).append(decl)
        self._check_object_declarations()

    def _cxx_offset_declaration(self, pv: PrivateVar, c, name_offset: int,
                                construct: list | None = None) -> list:
        """The offset's declaration after one of the variable's declarations, in its scope;
        where the variable is defined, the offset's definition registers it (an object with
        ``construct``, its constructing function, in parts as _offset_declarations has them)."""
        m = pv.mangled
        in_class = c.lexical_parent is not None and c.lexical_parent.kind in cx.CLASS_KINDS
        if not c.is_definition():  # in a class: not an inline member (_check_cxx)
            return [f"{'static' if in_class else 'extern'} size_t bamboo_offset_{m};"]
        qualifier = self._qualifier(name_offset)
        static = "static " if pv.linkage == "internal" and not qualifier else ""
        head = f"{static}size_t {''.join(qualifier.split())}bamboo_offset_{m} = "
        if construct is None:
            return [head + f"bamboo_register_global({self._registration_entry(pv)});"]
        return [head + self._object_entry_start(pv), *construct, self._object_entry_end(pv) + ";"]

    def _qualifier(self, name_offset: int) -> str:
        """The qualifier as written before a name: `int Counter::count = 0;` defines
        `size_t Counter::bamboo_offset_count`."""
        before = self.prog.src.blanked[max(0, name_offset - 1000):name_offset]
        return re.search(r"(?:::\s*)?(?:[A-Za-z_]\w*\s*::\s*)*$", before).group(0)

    # -- objects each task constructs (C++, non-trivial types) ------------------------------------
    def _declarator(self, c, name_offset: int) -> Declarator:
        """The parts of the declarator of ``c``, whose name stands at ``name_offset``."""
        blank = self.prog.src.blanked
        end = c.extent.end.offset
        j = name_offset + len(c.spelling)
        empty_bound = None
        while True:  # array bounds (and attributes, also in brackets)
            k = self._skip_space(j)
            if k >= end or blank[k] != "[":
                break
            close = self._closing(k)
            if blank[k + 1:close].strip() == "":
                empty_bound = close
            j = close + 1
        start = self._skip_space(j)
        init = blank[start] if start < end and blank[start] in "=({" else ""
        if not init:
            start = end = j
        value = self._skip_space(start + 1) if init == "=" else start
        return Declarator(j, init, start, value, max(end, value), empty_bound,
                          c.type.get_canonical().kind in (cx.TK.CONSTANTARRAY,
                                                         cx.TK.INCOMPLETEARRAY))

    def _skip_space(self, j: int) -> int:
        blank = self.prog.src.blanked
        while j < len(blank) and blank[j] in " \t\r\n":
            j += 1
        return j

    def _closing(self, j: int) -> int:
        """The offset of the bracket closing the one at ``j``."""
        blank = self.prog.src.blanked
        depth = 0
        for k in range(j, len(blank)):
            if blank[k] in "([{":
                depth += 1
            elif blank[k] in ")]}":
                depth -= 1
                if depth == 0:
                    return k
        return len(blank) - 1

    def _construction(self, pv: PrivateVar, d: Declarator, capture: str) -> tuple:
        """The code that constructs the object at ``bamboo_at`` from the initializer as
        written, around the initializer's text: (before, after). Copy-initialization
        (``= value``) stays one: the value is returned as the type, and C++17 constructs the
        object from that directly, without a copy or a move (std::mutex has neither)."""
        t = pv.type_name
        if d.init == "=" and not d.is_array:  # an array's `= {...}` is its `{...}`
            return f"::new (bamboo_at) {t}([{capture}]() -> {t} {{ return ", "; }())"
        return f"::new (bamboo_at) {t}", ""

    def _object_entry_start(self, pv: PrivateVar) -> str:
        t = pv.type_name
        return (f'bamboo_register_object({{"{self._shown_name(pv)}", &bamboo_offset_{pv.mangled}, '
                f"sizeof({t}), alignof({t}), ")

    def _object_entry_end(self, pv: PrivateVar) -> str:
        return f", bamboo_destroy<{pv.type_name}>}})"

    def _declare_object(self, pv: PrivateVar, c, name_offset: int):
        """A declaration of an object each task constructs becomes a typedef of its type
        (``typedef std::string bamboo_initial_name;``: _check_object_declarations); where it
        is defined, its initializer moves into the function that constructs it, in the
        registration after the declaration. A definition with a qualifier
        (``std::vector<int> Log::all = ...;``) follows a declaration in its class or namespace,
        which has the typedef: it is left out."""
        d = self._declarator(c, name_offset)
        qualified = bool(self._qualifier(name_offset))
        start = self._declaration_start.get(name_offset, c.extent.start.offset)
        self._object_declarations.setdefault(start, []).append((c, qualified))
        if qualified:
            self._object_edits.append((start, d.value, ""))
        else:
            self._rewrites[name_offset] = (name_offset + len(pv.name), pv.type_name)
            if d.empty_bound is not None:  # the typedef has no initializer to count
                self._object_edits.append((d.empty_bound, d.empty_bound,
                                           str(c.type.get_canonical().element_count)))
            if d.init == "=":
                self._object_edits.append((d.init_start, d.value, ""))
        construct = None
        if c.is_definition():
            before, after = self._construction(pv, d, "")
            construct = [f"[](void *bamboo_at) {{ {before}", (d.value, d.end), f"{after}; }}"]
        self._offset_declarations.setdefault(self._decl_end(c), []).append(
            self._cxx_offset_declaration(pv, c, name_offset, construct))

    def _construct_in_place(self, stmt, pvs):
        """A function-local static object is constructed where it is declared, at the task's
        first pass: each variable of the declaration becomes ``if (BAMBOO_FIRST_PASS(f__s)) {
        ...construction...; bamboo_constructed(&bamboo_offset_f__s); }`` around its initializer,
        which stays in place. Its type's typedef and its offset go before the function, as a
        trivial static's template does (apply)."""
        blank = self.prog.src.blanked
        at, pending, types = stmt.start, "", []
        first_name = self._declared[stmt.start][0]
        specifiers = blank[stmt.start:first_name]
        for a, b in reversed(self._storage_keywords(stmt.start, first_name)):
            specifiers = specifiers[:a - stmt.start] + specifiers[b - stmt.start:]
        specifiers = " ".join(specifiers.split())
        for vd, pv in zip([v for v in stmt.children if v.kind == CK.VAR_DECL], pvs):
            c = vd.cursor
            _, _, _, name = cx.file_location(c.location)
            d = self._declarator(c, name)
            m = pv.mangled
            before, after = self._construction(pv, d, "&")
            self._object_edits.append((at, d.value, f"{pending}if (BAMBOO_FIRST_PASS({m})) {{ void "
                                                    f"*bamboo_at = BAMBOO_GLOBALS + bamboo_offset_{m}; "
                                                    f"{before}"))
            pending = f"{after}; bamboo_constructed(&bamboo_offset_{m}); }} "
            at = d.end
            bounds = blank[name + len(pv.name):d.bounds_end]
            if d.empty_bound is not None:
                k = d.empty_bound - name - len(pv.name)
                bounds = bounds[:k] + str(c.type.get_canonical().element_count) + bounds[k:]
            types.append(f"typedef {specifiers} {pv.type_name}"
                         f"{''.join(bounds.split())}; static size_t bamboo_offset_{m} = "
                         f"{self._object_entry_start(pv)}nullptr{self._object_entry_end(pv)};")
        self._object_edits.append((at, stmt.stmt_end(), pending.rstrip()))
        self._local_object_types[stmt.start] = " ".join(types)

    def _find_declarations(self):
        """Which variables each declaration of the file declares (libclang gives a function's
        second declarator of one declaration an extent of its own name only)."""
        statements = [(n.start, [n]) for n in self.prog.file_vars]
        for fn in self.prog.function_order:
            statements += [(n.start, [v for v in n.children if v.kind == CK.VAR_DECL])
                           for n in fn.body.walk() if n.kind == CK.DECL_STMT]
        for start, variables in statements:
            for v in variables:
                _, _, _, name = cx.file_location(v.cursor.location)
                self._declaration_start[name] = start
                self._declared.setdefault(start, []).append(name)

    def _check_object_declarations(self):
        """A declaration of constructed objects becomes a typedef: ``typedef`` in front, its
        storage class (static, extern, inline) out; all its variables must be objects."""
        prog = self.prog
        for start, objects in self._object_declarations.items():
            if len(objects) != len(self._declared[start]):
                prog.error(start, self._mixed_declaration)
                continue
            if any(qualified for _, qualified in objects):
                if len(objects) > 1:
                    prog.error(start, "a definition of several variables with a qualifier, of a "
                                      "non-trivial type, cannot be privatized; split it")
                continue
            c = objects[0][0]
            _, _, _, name = cx.file_location(c.location)
            keywords = self._storage_keywords(start, name)
            if c.storage_class in (cx.ci.StorageClass.STATIC, cx.ci.StorageClass.EXTERN) and \
                    not keywords:
                prog.error(start, f"the storage class of '{c.spelling}' comes from a macro, and "
                                  "privatization turns the declaration into a typedef; write it")
                continue
            self._object_edits.append((start, start, "typedef "))  # an insertion
            self._object_edits += [(a, b, "") for a, b in keywords]

    def _storage_keywords(self, start: int, end: int) -> list:
        """The ranges of the storage-class keywords (and their spaces) among the declaration's
        specifiers, outside brackets."""
        blank = self.prog.src.blanked
        found, depth = [], 0
        for m in re.finditer(r"[A-Za-z_]\w*|[()\[\]{}<>]", blank[start:end]):
            word = m.group(0)
            if word in "([{<":
                depth += 1
            elif word in ")]}>":
                depth -= 1
            elif depth == 0 and word in STORAGE_KEYWORDS:
                found.append((start + m.start(), self._skip_space(start + m.end())))
        return found

    def apply(self, buf: EditBuffer):
        prog = self.prog
        src = prog.src
        local_stmt_ranges = [(n.start, n.end) for n, _, pvs in self._local_moves
                             if not pvs[0].constructed]
        # directives are replaced as a whole (priority expressions: see _find_uses)
        directive_ranges = [(d.start, d.end) for d in prog.directives]
        for pv in self.vars.values():
            if pv.linkage == "local" or prog.cxx:  # C++: no variable of a header's
                continue
            # a use before any declaration in this file: declare the template from the header's
            # declaration
            if pv.uses:
                first = min(pv.uses, key=lambda n: n.start)
                first_decl = min((c.extent.start.offset for c in pv.decls), default=None)
                if first_decl is None or first_decl > first.start:
                    top = self._top_level_start(first.start)
                    buf.insert(src.line_start(top),
                               f"extern __typeof__({pv.name}) bamboo_initial_{pv.mangled}; "
                               f"{self._offset_storage(pv) or 'extern '}size_t bamboo_offset_{pv.mangled};  "
                               f"/* bamboo: privatized '{pv.name}', declared in a header */\n",
                               EditOrder.HEADER_VARIABLE_DECLARATION)
        for off, decls in self._offset_declarations.items():
            parts = [" "]
            for decl in decls:
                parts += [*decl, " "]
            parts.append(" /* bamboo: privatized */")
            for part in parts:
                if isinstance(part, str):
                    buf.insert(off, part, EditOrder.OFFSET_DECLARATION)
                else:  # an initializer, into the function that constructs its object
                    buf.move(*part, off, EditOrder.OFFSET_DECLARATION)
        for start, end, text in self._object_edits:
            if start == end:
                buf.insert(start, text, EditOrder.OBJECT_TYPEDEF)
            else:
                buf.replace(start, end, text + "\n" * src.text.count("\n", start, end))
        # function-local statics: the template moves before the function
        for stmt, fn, pvs in self._local_moves:
            if pvs[0].constructed:
                buf.insert(self._namespace_scope_start(fn), f"{self._local_object_types[stmt.start]} "
                           f"/* bamboo: privatized static of {fn.name}() */ ",
                           EditOrder.LOCAL_STATIC_TEMPLATE)
                continue
            text = self.rewrites.code(stmt.start, stmt.stmt_end())
            if prog.cxx:
                offs = " ".join(f"static size_t bamboo_offset_{pv.mangled} = "
                                f"bamboo_register_global({self._registration_entry(pv)});"
                                for pv in pvs)
            else:
                offs = " ".join(f"static size_t bamboo_offset_{pv.mangled};" for pv in pvs)
            names = ", ".join(pv.name for pv in pvs)
            buf.insert(self._namespace_scope_start(fn),
                       f"{text} {offs} /* bamboo: privatized static of {fn.name}() */ ",
                       EditOrder.LOCAL_STATIC_TEMPLATE)
            nl = src.text.count("\n", stmt.start, stmt.stmt_end())
            buf.replace(stmt.start, stmt.stmt_end(),
                        f"/* bamboo: static {names} privatized (template before {fn.name}()) */"
                        + "\n" * nl)
        for off, (end, text) in self.rewrites.items():
            if any(a <= off < b for a, b in local_stmt_ranges + directive_ranges):
                continue
            buf.replace(off, end, text)
        defined = [pv for pv in self.vars.values() if pv.defined_here]
        if defined and not prog.cxx:  # C++ variables register where their offset is defined
            header_offsets = "".join(f"\n{self._offset_storage(pv)}size_t bamboo_offset_{pv.mangled};  "
                                     f"/* bamboo: privatized '{pv.name}', defined in a header */"
                                     for pv in defined if pv.defined_in_header)
            buf.append(header_offsets + self.constructor(defined))

    @staticmethod
    def _offset_storage(pv: PrivateVar) -> str:
        """The storage class of a variable's offset: its own file's alone for a `static` one."""
        return "static " if pv.linkage == "internal" else ""

    @staticmethod
    def _namespace_scope_start(fn) -> int:
        """Where the function's definition starts at namespace scope: a member function
        defined in its class, before the outermost class."""
        start = fn.node.start
        c = fn.cursor.lexical_parent
        while c is not None and c.kind in cx.CLASS_KINDS:
            start = c.extent.start.offset
            c = c.lexical_parent
        return start

    def _top_level_start(self, offset: int) -> int:
        for fn in self.prog.function_order:
            if fn.node.start <= offset < fn.node.end:
                return fn.node.start
        for n in self.prog.file_vars:
            if n.start <= offset < n.end:
                return n.start
        return offset

    def _registration_entry(self, pv: PrivateVar) -> str:
        """The variable's bamboo_global: its name in messages, offset, template, size and
        alignment."""
        t = pv.template
        return (f'{{"{self._shown_name(pv)}", &bamboo_offset_{pv.mangled}, &{t}, sizeof({t}), '
                f"__alignof__({t})}}")

    def _shown_name(self, pv: PrivateVar) -> str:
        """The variable's name in the runtime's messages."""
        base = os.path.basename(self.prog.src.display)
        if pv.linkage == "local":
            return f"{base}:{pv.function}:{pv.name}"
        if self.prog.cxx:
            return pv.qualified_name
        return pv.name if pv.linkage == "external" else f"{base}:{pv.name}"

    def constructor(self, defined) -> str:
        lines = ["",
                 "/* bamboo: register this file's privatized variables (each task gets its own "
                 "copy, initialized from bamboo_initial_<name>) */",
                 "static void __attribute__((constructor)) bamboo_register_this_file_globals(void)",
                 "{",
                 "    static const bamboo_global globals[] = {"]
        for pv in defined:
            lines.append(f"        {self._registration_entry(pv)},")
        lines += ["    };",
                  "    bamboo_register_globals(globals, sizeof globals / sizeof globals[0]);",
                  "}", ""]
        return "\n".join(lines)
