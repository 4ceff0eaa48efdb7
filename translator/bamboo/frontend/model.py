"""The program model: a small tree over libclang's AST plus what the analyses need.

``Node`` wraps one libclang cursor (kind, offsets, children, parent) of the main file or of
a function defined in one of the user's headers; ``Program`` holds the parsed file: its
functions (and those of the user's headers), variables, macros, directives and the MPI
calls found in them.  Offsets are byte offsets into the text of the node's file,
``Node.src`` (for nodes inside macro expansions, the expansion's place).
"""
from __future__ import annotations

import os
from dataclasses import dataclass, field

from .. import mpi_api
from . import cx
from .cx import CK
from ..diagnostics import Diagnostics
from ..source import SourceFile

STMT_CONTAINERS = {CK.IF_STMT, CK.FOR_STMT, CK.WHILE_STMT, CK.DO_STMT, CK.SWITCH_STMT,
                   CK.CASE_STMT, CK.DEFAULT_STMT, CK.LABEL_STMT}
LOOPS = {CK.FOR_STMT, CK.WHILE_STMT, CK.DO_STMT}


class Node:
    """One cursor of the AST, with parent links."""

    __slots__ = ("cursor", "kind", "parent", "children", "start", "end", "_ref", "_op",
                 "_type", "_spelling", "prog", "src", "_callee", "_for")

    def __init__(self, cursor, parent, prog, src: SourceFile):
        self.cursor = cursor
        self.kind = cursor.kind
        self.parent = parent
        self.prog = prog
        self.src = src          # the file the offsets are in
        ext = cursor.extent
        self.start = ext.start.offset
        self.end = ext.end.offset
        self.children = []
        self._ref = self._op = self._type = self._spelling = self._callee = self._for = None

    # -- lazy cursor properties ----------------------------------------------------------
    @property
    def ref(self):
        """The declaration a DECL_REF_EXPR / MEMBER_REF_EXPR / CALL_EXPR refers to."""
        if self._ref is None:
            self._ref = self.cursor.referenced or False
        return self._ref or None

    @property
    def op(self) -> str:
        if self._op is None:
            if self.kind in (CK.BINARY_OPERATOR, CK.COMPOUND_ASSIGNMENT_OPERATOR):
                self._op = cx.binary_op(self.cursor)
            elif self.kind == CK.UNARY_OPERATOR:
                self._op = cx.unary_op(self.cursor)
            else:
                self._op = ""
        return self._op

    @property
    def type(self):
        if self._type is None:
            self._type = self.cursor.type
        return self._type

    @property
    def spelling(self) -> str:
        if self._spelling is None:
            self._spelling = self.cursor.spelling
        return self._spelling

    @property
    def text(self) -> str:
        return self.src.text[self.start:self.end]

    @property
    def line(self) -> int:
        return self.src.line_of(self.start)

    @property
    def is_expr(self) -> bool:
        return self.kind.is_expression()

    def walk(self):
        """This node and every node below it, in preorder.  Iterative, like every walk of
        the tree: expressions nest as deep as they have operators (``a + a + ... + a``)."""
        pending = [self]
        while pending:
            n = pending.pop()
            yield n
            pending.extend(reversed(n.children))

    def strip(self) -> "Node":
        """Skip implicit casts (UNEXPOSED_EXPR) and parentheses."""
        n = self
        while n.kind in (CK.UNEXPOSED_EXPR, CK.PAREN_EXPR) and len(n.children) == 1:
            n = n.children[0]
        return n

    def ancestors(self):
        p = self.parent
        while p is not None:
            yield p
            p = p.parent

    def __repr__(self):
        return f"<{self.kind.name} {self.start}-{self.end}>"

    # -- calls -------------------------------------------------------------------------------
    @property
    def callee_decl(self):
        """For a CALL_EXPR calling a named function: its declaration cursor, else None."""
        if self.kind != CK.CALL_EXPR or not self.children:
            return None
        if self._callee is None:
            c = self.children[0].strip()
            r = c.ref if c.kind == CK.DECL_REF_EXPR else None
            self._callee = r if (r is not None and r.kind == CK.FUNCTION_DECL
                                 and self.prog.known_by_name(r)) else False
        return self._callee or None

    @property
    def callee_name(self) -> str | None:
        d = self.callee_decl
        return d.spelling if d is not None else None

    @property
    def args(self):
        return self.children[1:] if self.kind == CK.CALL_EXPR else []

    # -- statements ------------------------------------------------------------------------
    def for_parts(self):
        """(init, cond, inc, body, header_open, header_close) of a FOR_STMT; parts may be None."""
        if self._for is None:
            header = self.src.for_header(self.start)
            init = cond = inc = None
            body = self.children[-1] if self.children else None
            if header is not None:
                i, semis, close = header
                for c in self.children[:-1]:
                    if c.start < semis[0] or (c.kind == CK.DECL_STMT and c.start < semis[0] + 1):
                        init = c
                    elif c.start < semis[1]:
                        cond = c
                    elif c.start < close:
                        inc = c
                self._for = (init, cond, inc, body, i, close)
            else:  # written by a macro: the parts cannot be told apart
                self._for = (None, None, None, body, None, None)
        return self._for

    def stmt_end(self) -> int:
        """End offset of a statement including its ';' (libclang leaves it out of
        expression statements and of statements ending in one)."""
        text = self.src.text
        end = self.end
        if end > 0 and text[end - 1] in ";}":
            return end
        blank = self.src.blanked
        j = end
        while j < len(blank) and blank[j] in " \t\r\n":
            j += 1
        if j < len(blank) and blank[j] == ";":
            return j + 1
        return end


def build_tree(cursor, parent, prog, src: SourceFile) -> Node:
    root = Node(cursor, parent, prog, src)
    pending = [root]
    while pending:
        node = pending.pop()
        for ch in node.cursor.get_children():
            child = Node(ch, node, prog, src)
            node.children.append(child)
            pending.append(child)
    return root


def ids_under(tree: Node, kind) -> set:
    """ids of the nodes of ``tree`` that lie below a node of ``kind`` (e.g. inside sizeof)."""
    inside = set()
    for n in tree.walk():
        if n.kind == kind and id(n) not in inside:
            inside.update(id(x) for x in n.walk() if x is not n)
    return inside


@dataclass
class Var:
    """A variable the analyses track, keyed by its USR."""
    key: str
    name: str
    cursor: object
    is_param: bool = False
    is_static_storage: bool = False
    is_local: bool = False
    address_taken: bool = False

    @property
    def type(self):
        return self.cursor.type

    @property
    def is_scalar(self):
        return cx.is_scalar(self.cursor.type)

    @property
    def is_memory(self) -> bool:
        """Values the slice cannot track by name: globals, statics, address-taken locals."""
        return self.is_static_storage or self.address_taken or not self.is_local

    @property
    def trackable(self) -> bool:
        """A local scalar whose value only changes by assignments to it by name."""
        return (self.is_local and not self.is_static_storage and not self.address_taken
                and self.is_scalar and not self.cursor.type.is_volatile_qualified())


@dataclass
class Function:
    name: str
    cursor: object
    node: Node                 # FUNCTION_DECL node (C++: also methods, templates, ...)
    body: Node                 # COMPOUND_STMT
    params: list               # PARM_DECL nodes
    vars: dict = field(default_factory=dict)  # key -> Var (params and locals)

    @property
    def src(self) -> SourceFile:
        """The file that defines the function: the main file or one of the user's headers."""
        return self.node.src

    @property
    def in_header(self) -> bool:
        return self.src is not self.node.prog.src


@dataclass
class MPICall:
    node: Node
    spec: mpi_api.MPIFunction
    function: Function | None

    @property
    def name(self):
        return self.spec.name

    def arg(self, index):
        if index is None:
            return None
        args = self.node.args
        return args[index] if index < len(args) else None


@dataclass
class MacroUse:
    start: int
    end: int
    name: str
    definition: object   # MACRO_DEFINITION cursor or None


def _display_name(path: str) -> str:
    """How diagnostics name a header: relative to here if below, else absolute."""
    relative = os.path.relpath(path)
    return path if relative.startswith("..") else relative


class Program:
    """Everything the translator knows about one parsed input file."""

    def __init__(self, src: SourceFile, tu, diags: Diagnostics):
        self.src = src
        self.tu = tu
        self.diags = diags
        self.cxx = False                  # a C++ file
        # Functions the analyses know by name (C: all), defined here or in the user's
        # headers. Of C++, only functions of the global namespace whose name no other function
        # has: member functions, templates and overloads count as code defined elsewhere.
        self.functions: dict[str, Function] = {}
        self.ambiguous_names: set = set()  # C++: names of overloaded global functions
        self.function_order: list[Function] = []  # defined here, in order
        self._function_by_node: dict = {}  # id(function's Node) -> Function
        self.header_functions: list[Function] = []  # defined in the user's headers
        self.file_vars: list = []         # file-scope VAR_DECL nodes of the main file
        self.other_trees: list = []       # other file-scope declarations (types, enums, ...)
        self.macro_uses: list[MacroUse] = []
        self.header_macro_uses: dict = {}  # header path -> [MacroUse]
        self.macro_defs: list = []        # MACRO_DEFINITION cursors of the main file
        # The preprocessing record: its entries (macro definitions and uses, #includes) are
        # numbered in the order the preprocessor met them ("order").
        self.macro_definitions: dict = {}  # name -> [(order, MACRO_DEFINITION cursor)]
        self.header_records: dict = {}    # header path -> [(offset, order)] of its entries
        self.included_at: dict = {}       # header path -> order of the #include bringing it
        self.undefined_macros: set = set()  # names '#undef'ined in the user's files
        self.include_lines: dict = {}     # header path -> offset of the main file's #include
                                          # that brings it
        self.mpi_calls: list[MPICall] = []
        self.directives: list = []
        self.header_cursors: list = []    # top-level cursors from user (non-system) headers
        self.declared_functions: dict = {}  # name -> [cursor] of all function declarations
        self._var_cache: dict = {}
        self._calls_by_node: dict = {}
        self._headers: dict = {}          # path -> SourceFile of a user header

    # -- locations -----------------------------------------------------------------------------
    def in_main(self, cursor) -> bool:
        f = cursor.location.file
        return f is not None and os.path.abspath(f.name) == self.src.path

    def where(self, offset: int):
        line, col = self.src.line_col(offset)
        return self.src.display, line, col

    def error(self, offset: int, msg: str):
        self.diags.error(*self.where(offset), msg)

    def warning(self, offset: int, msg: str):
        self.diags.warning(*self.where(offset), msg)

    def note(self, offset: int, msg: str):
        self.diags.note(*self.where(offset), msg)

    def note_at(self, node: Node, msg: str):
        """A note at a node of the main file or of a header."""
        line, col = node.src.line_col(node.start)
        self.diags.note(node.src.display, line, col, msg)

    def line_ref(self, node: Node) -> str:
        """'line N' of a node of the main file, 'line N of header.h' of a header's."""
        where = "" if node.src is self.src else f" of {node.src.display}"
        return f"line {node.line}{where}"

    def source(self, path: str) -> SourceFile:
        """The SourceFile of the main file or of one of the user's headers."""
        path = os.path.abspath(path)
        if path == self.src.path:
            return self.src
        if path not in self._headers:
            self._headers[path] = SourceFile(path, display=_display_name(path))
        return self._headers[path]

    def cursor_where(self, cursor):
        loc = cursor.location
        f = loc.file
        if f is None:
            return self.src.display, 0, 0
        name = os.path.abspath(f.name)
        disp = self.src.display if name == self.src.path else _display_name(name)
        return disp, loc.line, loc.column

    # -- variables -----------------------------------------------------------------------------
    def var(self, cursor, function: Function | None = None) -> Var | None:
        """The Var for a VAR_DECL/PARM_DECL cursor (a declaration or a reference's target)."""
        if cursor is None or cursor.kind not in (CK.VAR_DECL, CK.PARM_DECL):
            return None
        key = cursor.get_usr() or f"{cursor.spelling}@{cursor.location.offset}"
        v = self._var_cache.get(key)
        if v is None:
            is_param = cursor.kind == CK.PARM_DECL
            static = cursor.kind == CK.VAR_DECL and (
                cursor.storage_class in (cx.ci.StorageClass.STATIC, cx.ci.StorageClass.EXTERN)
                or cursor.semantic_parent is None
                or cursor.semantic_parent.kind not in cx.FUNCTION_KINDS)  # file, namespace
            local = is_param or (cursor.semantic_parent is not None
                                 and cursor.semantic_parent.kind in cx.FUNCTION_KINDS
                                 and cursor.storage_class != cx.ci.StorageClass.EXTERN)
            v = Var(key, cursor.spelling, cursor, is_param=is_param, is_static_storage=static,
                    is_local=local)
            self._var_cache[key] = v
        return v

    def var_by_key(self, key: str) -> Var | None:
        """The Var already made for the variable with this key, if any."""
        return self._var_cache.get(key)

    def var_of_ref(self, node: Node) -> Var | None:
        if node.kind != CK.DECL_REF_EXPR:
            return None
        return self.var(node.ref)

    # -- macros ----------------------------------------------------------------------------
    def macro_at(self, offset: int) -> MacroUse | None:
        for m in self.macro_uses:
            if m.start <= offset < m.end:
                return m
        return None

    def text_reproducible(self, node: Node) -> bool:
        """Whether the node's source text (its expansion range) spells exactly this node:
        false for pieces of a macro's body, and for macro arguments whose range is lost."""
        if node.start >= node.end:
            return False
        uses = self.macro_uses if node.src is self.src else \
            self.header_macro_uses.get(node.src.path, [])
        for m in uses:
            if m.end <= node.start or m.start >= node.end:
                continue
            if node.start <= m.start and m.end <= node.end:
                if (m.start, m.end) == (node.start, node.end):
                    # the node is the whole expansion, or a piece of its body
                    p = node.parent
                    while p is not None and p.kind == CK.UNEXPOSED_EXPR and \
                            (p.start, p.end) == (node.start, node.end):
                        p = p.parent
                    if p is not None and (p.start, p.end) == (node.start, node.end):
                        return False
                continue
            return False
        return True

    # -- calls -----------------------------------------------------------------------------
    def add_mpi_call(self, mc: MPICall):
        self.mpi_calls.append(mc)
        self._calls_by_node[id(mc.node)] = mc

    def mpi_call(self, node: Node) -> MPICall | None:
        return self._calls_by_node.get(id(node))

    def add_function(self, fn: Function):
        self._function_by_node[id(fn.node)] = fn
        if self.known_by_name(fn.cursor):
            self.functions[fn.name] = fn

    def known_by_name(self, cursor) -> bool:
        """Whether the function ``cursor`` declares is the only one of its name (always in
        C; in C++, a function of the global namespace that is not overloaded)."""
        if not self.cxx:
            return True
        if cursor.kind != CK.FUNCTION_DECL or cursor.spelling in self.ambiguous_names:
            return False
        parent = cursor.semantic_parent
        return parent is None or parent.kind == CK.TRANSLATION_UNIT

    def function_of(self, node: Node) -> Function | None:
        """The function whose body holds ``node`` (the innermost)."""
        for a in node.ancestors():
            fn = self._function_by_node.get(id(a))
            if fn is not None:
                return fn
        return None

    def defined_function(self, node: Node) -> Function | None:
        """The Function, defined in this file or in a user header, that a CALL_EXPR calls."""
        d = node.callee_decl
        if d is None:
            return None
        return self.functions.get(d.spelling)

    def function_is_system(self, name: str) -> bool:
        """A function of the system's headers (libc, ...), or one of the runtime's own local
        ones: it does not communicate."""
        if name in mpi_api.RUNTIME_LOCAL:
            return True
        decls = self.declared_functions.get(name, [])
        return bool(decls) and all(c.location.is_in_system_header for c in decls)
