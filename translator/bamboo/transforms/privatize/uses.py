"""Finding the uses of the variables to privatize, and planning their rewrites: each use in the
translated file becomes ``BAMBOO_PRIVATE(name)`` (``BAMBOO_PRIVATE_IN(scope, name)`` with a
C++ qualifier, the template under ``sizeof``), in the bodies of this file's macros too; getopt's
variables become the task's own.

The translator writes only the translated file, so a use the user's headers spell is rewritten
in a copy there: a header included inside a function or an initializer (its statements, its
values) is written out in place of its #include line, and a header's macro that names a
privatized variable is defined again, rewritten, right after the #include that brings the
header. What cannot be rewritten (a use in a header's own functions, through a system header's
macro, an initializer taking a copy's address) is an error at the use."""
from __future__ import annotations

import os
import re

from ...emit.edits import line_directive
from ...frontend import cx
from ...frontend.cx import CK
from ...frontend.model import ids_under
from ...source import NameRewrites
from .variables import TASK_LIBRARY_VARIABLES, is_library_variable

_INCLUDE = re.compile(r"^[ \t]*#[ \t]*(include|import|include_next)\b", re.M)


def includes_inside_code(prog) -> dict:
    """The headers this file includes inside a function or an initializer (their statements
    or values): header path -> offsets of those #include lines."""
    spans = [(fn.body.start, fn.body.end) for fn in prog.function_order] + \
        [(v.start, v.end) for v in prog.file_vars]
    found = {}
    for inclusion in prog.tu.get_includes():
        if inclusion.source is None or os.path.abspath(inclusion.source.name) != prog.src.path:
            continue
        off = inclusion.location.offset
        if any(a < off < b for a, b in spans):
            found.setdefault(os.path.abspath(inclusion.include.name), []).append(off)
    return found


class UseFinder:
    """Adds each variable's uses to it and their rewrites to the draft's."""

    def __init__(self, draft):
        self.prog = draft.prog
        self.vars = draft.variables
        self.rewrites = draft.rewrites
        self.copies = draft.header_copies
        self.inner_includes = includes_inside_code(self.prog)
        self.header_rewrites = {}  # header path -> {offset: (end, text)}: its spliced copy's
        self.header_macros = {}    # macro name -> (MACRO_DEFINITION cursor, offset of a use)

    def run(self):
        trees = [fn.node for fn in self.prog.function_order] + self.prog.file_vars + \
            self.prog.other_trees
        macro_names_needed = set()
        for tree in trees:
            self._find_uses_in(tree, macro_names_needed)
        self._find_priority_uses()
        if macro_names_needed:
            self._rewrite_macros(macro_names_needed)
        self._splice_included_code()
        self._copy_header_macros()
        self._refuse_header_uses(trees)
        self._check_initializers()

    def _find_uses_in(self, tree, macro_names_needed):
        """The uses in one tree of the translated file; those inside macros' bodies are noted
        in ``macro_names_needed``."""
        prog = self.prog
        src = prog.src
        in_sizeof = ids_under(tree, CK.CXX_UNARY_EXPR)
        for n in tree.walk():
            if n.kind in (CK.MEMBER_REF_EXPR, CK.USING_DECLARATION):
                self._refuse_indirect_name(n)
            if n.kind != CK.DECL_REF_EXPR:
                continue
            r = n.ref
            if r is None or r.kind != CK.VAR_DECL:
                continue
            if r.spelling in TASK_LIBRARY_VARIABLES and is_library_variable(r):
                self._rewrite_library_use(n, macro_names_needed)
                continue
            pv = self.vars.get(r.get_usr())
            if pv is None:
                continue
            fname, line, col, off = cx.file_location(n.cursor.location)
            # sizeof/_Alignof: the template has the same type, and stays constant (a
            # constructed object's is a type, which `sizeof x` cannot take; the task's copy,
            # unevaluated, is as constant)
            unevaluated = id(n) in in_sizeof and not pv.constructed
            if fname and os.path.abspath(fname) == src.path and src.identifier_at(off) == pv.name:
                pv.uses.append(n)
                # C++: `ns::x` is rewritten from its qualifier on
                start = n.start if prog.cxx and src.path == n.src.path and n.start < off else off
                if unevaluated:
                    text = f"bamboo_initial_{pv.mangled}"
                    if start < off:
                        text = src.text[start:off] + text
                elif start < off:
                    scope = src.text[start:off].rstrip().removesuffix("::").rstrip()
                    text = f"BAMBOO_PRIVATE_IN({scope}, {pv.mangled})"
                else:
                    text = f"BAMBOO_PRIVATE({pv.mangled})"
                self.rewrites[start] = (off + len(pv.name), text)
                continue
            text = f"bamboo_initial_{pv.mangled}" if unevaluated else f"BAMBOO_PRIVATE({pv.mangled})"
            if self._use_in_included_code(fname, off, pv.name, text) or \
                    self._use_in_macro(n, pv.key, pv.name, macro_names_needed):
                pv.uses.append(n)

    def _find_priority_uses(self):
        """Variables a priority expression names: the region code writes the expression out
        with these rewrites (PrivatizeGlobals.apply() leaves them to it)."""
        prog = self.prog
        for d in prog.directives:
            for ref in d.expr_refs:
                pv = self.vars.get(ref.usr)
                if pv is None:
                    continue
                if ref.start is None or prog.src.identifier_at(ref.start) != ref.name:
                    prog.error(d.expr_offset, f"privatized variable '{ref.name}' is named through "
                                              "a macro in the priority expression; name it in "
                                              "the expression itself")
                    continue
                pv.uses.append(ref)
                self.rewrites[ref.start] = (ref.start + len(ref.name),
                                            f"BAMBOO_PRIVATE({pv.mangled})")

    def _rewrite_macros(self, macro_names_needed):
        """The bodies of this file's macros that name privatized variables."""
        found = {}
        for d in self.prog.macro_defs:
            self._rewrite_macro(d, found)
        for key, off, mname in sorted(macro_names_needed, key=lambda x: x[1]):
            if key not in found:
                name = self.vars[key].name if key in self.vars else key
                self.prog.error(off, f"'{name}' is used inside macro '{mname}' through a macro "
                                     "defined in another file; a privatized variable can only be "
                                     "used through macros defined in the translated file")

    def _refuse_header_uses(self, trees):
        """Uses from code in the user's headers cannot be rewritten; a header's static function
        this file never calls is left alone (OSU's benchmarks' headers have unused ones)."""
        prog = self.prog
        live = self._header_functions_called(trees)
        for c in prog.header_cursors:
            if c.kind == CK.FUNCTION_DECL and c.linkage == cx.ci.LinkageKind.INTERNAL and \
                    c.get_usr() not in live:
                continue
            for x in cx.walk_preorder(c):
                r = x.referenced if x.kind == CK.DECL_REF_EXPR else None
                if r is not None and (r.get_usr() in self.vars or
                                      r.spelling in TASK_LIBRARY_VARIABLES and
                                      is_library_variable(r)):
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
            self.rewrites[start] = (off + len(name), TASK_LIBRARY_VARIABLES[name])
            return
        if not self._use_in_included_code(fname, off, name, TASK_LIBRARY_VARIABLES[name]):
            self._use_in_macro(n, name, name, macro_names_needed)

    def _use_in_included_code(self, fname, off: int, name: str, text: str) -> bool:
        """A use spelled by a header that this file includes inside a function or an
        initializer: rewritten in the header's copy (_splice_included_code)."""
        path = os.path.abspath(fname) if fname else None
        if path not in self.inner_includes or self.prog.source(path).identifier_at(off) != name:
            return False
        self.header_rewrites.setdefault(path, {})[off] = (off + len(name), text)
        return True

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
        naming = self._header_macros_naming(d, name) if d is not None else []
        for definition in naming:
            self.header_macros.setdefault(definition.spelling, (definition, n.start))
        if naming:
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
        """The names of privatized variables, and of getopt's, in the body of this file's
        macro ``d``; ``found`` gets their keys (a library variable's key is its name)."""
        for key, off, end, text in self._macro_body_rewrites(d):
            self.rewrites[off] = (end, text)
            found[key] = True

    def _macro_body_rewrites(self, d) -> list:
        """(key, offset, end, text) for each name of a privatized variable, or of getopt's, in
        the body of macro ``d`` (not parameters, not members), at offsets of d's file."""
        params, body = cx.macro_parts(d)
        by_name = {name: (name, text) for name, text in TASK_LIBRARY_VARIABLES.items()}
        for pv in self.vars.values():
            if pv.linkage != "local":
                by_name.setdefault(pv.name, (pv.key, f"BAMBOO_PRIVATE({pv.mangled})"))
        found, prev = [], None
        for t in body:
            if t.kind == cx.ci.TokenKind.IDENTIFIER and t.spelling in by_name and \
                    t.spelling not in params and (prev is None or prev.spelling not in (".", "->")):
                key, text = by_name[t.spelling]
                off = t.extent.start.offset
                found.append((key, off, off + len(t.spelling), text))
            prev = t
        return found

    def _header_macros_naming(self, d, name: str) -> list:
        """The macros of the user's headers that a use of macro ``d`` expands (``d`` and the
        macros in its body, and theirs) whose bodies name ``name``."""
        prog, found, seen, todo = self.prog, [], set(), [d]
        while todo:
            m = todo.pop()
            if m.spelling in seen or m.location.file is None or \
                    m.location.is_in_system_header or prog.in_main(m):
                continue
            seen.add(m.spelling)
            text = prog.source(m.location.file.name).text
            if any(text[off:end] == name for _, off, end, _ in self._macro_body_rewrites(m)):
                found.append(m)
            _, body = cx.macro_parts(m)
            for t in body:
                if t.kind == cx.ci.TokenKind.IDENTIFIER:
                    todo += [c for _, c in prog.macro_definitions.get(t.spelling, ())]
        return found

    def _splice_included_code(self):
        """Each #include, inside a function or an initializer, of a header whose code names a
        privatized variable is replaced by the header's text with those names rewritten, under
        a #line that names the header (the compiler's messages point into it)."""
        prog = self.prog
        for path, rewrites in sorted(self.header_rewrites.items()):
            header = prog.source(path)
            if _INCLUDE.search(header.blanked):
                first = min(rewrites)
                prog.diags.error(header.display, *header.line_col(first),
                                 f"'{header.text[first:rewrites[first][0]]}' is privatized, and "
                                 f"{header.display}, included inside a function or an "
                                 "initializer, includes other files: the translator writes it "
                                 "out in place of its #include line and cannot follow those; "
                                 "include them outside the function")
                continue
            text = NameRewrites(header, rewrites).text(0, len(header.text))
            if not text.endswith("\n"):
                text += "\n"
            for off in self.inner_includes[path]:
                self.copies.append((prog.src.line_start(off), prog.src.logical_line_end(off),
                                    line_directive(1, header.display) + text))

    def _copy_header_macros(self):
        """Each macro of a header that names a privatized variable, defined again with the
        names rewritten right after the #include line that brings the header."""
        prog = self.prog
        for name, (d, use) in sorted(self.header_macros.items(), key=lambda x: x[1][0].extent.start.offset):
            header = prog.source(d.location.file.name)
            if header.path not in prog.include_lines:
                prog.error(use, f"macro '{name}' of {header.display} names a privatized variable, "
                                "and this file does not bring the header in with an #include "
                                "line, after which the translator would define the macro again "
                                "with the task's copy; include the header")
                continue
            rewrites = {off: (end, text) for _, off, end, text in self._macro_body_rewrites(d)}
            definition = NameRewrites(header, rewrites).text(d.extent.start.offset,
                                                             d.extent.end.offset)
            after = min(prog.src.logical_line_end(prog.include_lines[header.path]) + 1,
                        len(prog.src.text))
            self.copies.append((after, after, f"#undef {name}\n"
                                              f"{line_directive(d.location.line, header.display)}"
                                              f"#define {definition}\n"))

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
                self.rewrites.pop(off, None)
