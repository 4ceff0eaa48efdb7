"""Finding the variables to privatize: the user's mutable variables of static storage duration
(file scope, namespaces and static members in C++, function-local statics, extern declarations
inside functions, tentative definitions in the user's headers), each checked for what keeps it
from being privatized."""
from __future__ import annotations

import re
from dataclasses import dataclass, field

from ...frontend import cx
from ...frontend.cx import CK
from ...mpi_api import LIBC_VARIABLES, LIBC_VARIABLES_REPLACED

# getopt's variables, as the runtime gives each task its own (bamboo.h)
TASK_LIBRARY_VARIABLES = {name: f"(*bamboo_{name}())" for name in LIBC_VARIABLES_REPLACED}

MIXED_DECLARATION = ("a declaration mixing variables of a non-trivial type, which each task "
                     "constructs, with other variables cannot be privatized; split it")


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
    def type_name(self):
        """A constructed object's type: its declaration becomes this typedef."""
        return f"bamboo_initial_{self.mangled}"

    def describe(self) -> str:
        where = {"external": "global", "internal": "static global",
                 "local": f"static local of {self.function}()"}[self.linkage]
        return f"{self.name} ({where}, {self.type_spelling})"


def is_candidate(c) -> bool:
    """Whether cursor ``c`` declares a variable each task needs its own copy of."""
    if c.kind != CK.VAR_DECL:
        return False
    if cx.is_const_object(c.type):
        return False
    if c.type.kind in (cx.TK.LVALUEREFERENCE, cx.TK.RVALUEREFERENCE):
        return False  # bound once: an initializer naming a privatized variable is refused
    return not is_library_variable(c)


def is_library_variable(c) -> bool:
    """A declaration of the C library's variable (``optarg``, ``environ``), not the program's."""
    if defines(c):
        return False
    return c.canonical.location.is_in_system_header or c.spelling in LIBC_VARIABLES


def defines(c) -> bool:
    """A definition, or a file-scope tentative definition (``int x;``)."""
    if c.is_definition():
        return True
    return c.storage_class != cx.ci.StorageClass.EXTERN and (
        c.semantic_parent is None or c.semantic_parent.kind == CK.TRANSLATION_UNIT)


class VariableFinder:
    """Fills in the draft's variables, and the function-local statics that move to file scope
    (``local_moves``)."""

    def __init__(self, draft):
        self.prog = draft.prog
        self.vars = draft.variables
        self.local_moves = draft.local_moves

    def run(self):
        # declarations in the user's own headers
        if self.prog.cxx:
            self._refuse_header_variables()
        else:
            self._collect_header_variables()
        self._collect_file_variables()
        self._collect_function_variables()
        for pv in self.vars.values():
            if not pv.mangled:
                pv.mangled = pv.name

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

    def _collect_header_variables(self):
        prog = self.prog
        for c in prog.header_cursors:
            if c.kind == CK.FUNCTION_DECL and c.is_definition():
                for x in cx.walk_preorder(c):
                    if x.kind == CK.VAR_DECL and x.storage_class == cx.ci.StorageClass.STATIC \
                            and is_candidate(x):
                        prog.diags.error(*prog.cursor_where(x),
                                         f"static variable '{x.spelling}' of {c.spelling}() is "
                                         "defined in a header, which the translator does not "
                                         "rewrite; each task needs its own copy: move the "
                                         "function into a .c file")
                continue
            if not is_candidate(c) or not self._check_tls(c):
                continue
            # A definition in a header (`EXTERN int steps INIT(= 10);` in the one file that
            # defines EXTERN empty, or a `static` table every including file has its own of)
            # stays as it is, the template of the tasks' copies; this file defines its offset.
            internal = c.linkage == cx.ci.LinkageKind.INTERNAL
            pv = self._add(c, "internal" if internal else "external")
            pv.header_decls.append(c)
            if defines(c):
                pv.defined_here = pv.defined_in_header = True

    def _collect_file_variables(self):
        """File-scope declarations of the main file (C++: of namespaces and classes)."""
        for n in self.prog.file_vars:
            c = n.cursor
            if not is_candidate(c) or not self._check_tls(c):
                continue
            if not self._check_cxx(c, f"variable '{cx.qualified_name(c)}'"):
                continue
            internal = c.linkage == cx.ci.LinkageKind.INTERNAL
            pv = self._add(c, "internal" if internal else "external")
            pv.decls.append(c)
            pv.constructed = self._constructed(c)
            if defines(c):
                pv.defined_here = True

    def _collect_function_variables(self):
        """Statics and extern declarations inside functions."""
        used_names = {}
        for fn in self.prog.function_order:
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
                        if is_candidate(c) and self._check_tls(c):
                            r = c.canonical
                            pv = self._add(r, "internal" if c.linkage == cx.ci.LinkageKind.INTERNAL
                                           else "external")
                            pv.decls.append(c)
                            pv.constructed = self._constructed(c)
                elif sc == cx.ci.StorageClass.STATIC:
                    self._collect_statics(n, vds, fn, used_names)

    def _collect_statics(self, n, vds, fn, used_names):
        """The static variables of declaration ``n`` in function ``fn``: they move to file scope
        together, named ``<function>__<name>`` (``used_names`` keeps them apart)."""
        prog = self.prog
        movable = []
        for vd in vds:
            c = vd.cursor
            if not is_candidate(c) or not self._check_tls(c):
                continue
            if not self._check_cxx(c, f"static variable '{c.spelling}' of {fn.name}()"):
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
        if not movable:
            return
        if len(movable) != len(vds):
            prog.error(n.start, "a declaration mixing const and mutable static "
                                "variables cannot be privatized; split it")
            return
        if len({pv.constructed for pv in movable}) > 1:
            prog.error(n.start, MIXED_DECLARATION)
            return
        if self._local_types_ok(n, fn):
            self.local_moves.append((n, fn, movable))

    def _refuse_header_variables(self):
        """C++: a header's variables would need their declarations rewritten in every file
        that includes it; the translator writes only the translated file."""
        prog = self.prog
        for top in prog.header_cursors:
            for c in cx.walk_preorder(top):
                if c.kind != CK.VAR_DECL or not is_candidate(c) or \
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
