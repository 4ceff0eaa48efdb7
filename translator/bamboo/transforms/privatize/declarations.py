"""The declarations' edits: each declaration of a privatized variable names the template,
``bamboo_initial_<name>``, and its offset, ``bamboo_offset_<name>``, is declared after it
(a definition where the variable is defined, ``extern`` where it is only declared, ``static``
for internal linkage; in C++ a registration where it is defined). Function-local statics move
before their function (PrivatizeGlobals.apply); C++ objects each task constructs: objects.py."""
from __future__ import annotations

from ...frontend import cx
from ...frontend.cx import CK
from .declarators import declaration_end
from .objects import ObjectDeclarations
from .registration import cxx_offset_declaration
from .variables import defines


class DeclarationRewriter:
    def __init__(self, draft):
        self.prog = draft.prog
        self.draft = draft

    def run(self):
        declared, declaration_start = self._find_declarations()
        objects = ObjectDeclarations(self.draft, declared, declaration_start)
        for stmt, _, pvs in self.draft.local_moves:
            if pvs[0].constructed:
                objects.construct_in_place(stmt, pvs)
            else:
                self._rename_statics(stmt)
        for pv in self.draft.variables.values():
            if pv.linkage == "local":
                continue
            for c in pv.decls:
                _, _, _, off = cx.file_location(c.location)
                if self.prog.src.identifier_at(off) != pv.name:
                    self.prog.error(c.extent.start.offset, f"'{pv.name}' is declared by a macro "
                                                           "and cannot be privatized")
                elif pv.constructed:
                    objects.declare(pv, c, off)
                else:
                    self._rename(pv, c, off)
        objects.check()

    def _rename_statics(self, stmt):
        """The statics of a function-local declaration that moves before the function."""
        for vd in stmt.children:
            if vd.kind == CK.VAR_DECL:
                pv = self.draft.variables[vd.cursor.get_usr()]
                _, _, _, off = cx.file_location(vd.cursor.location)
                self.draft.rewrites[off] = (off + len(pv.name), f"bamboo_initial_{pv.mangled}")

    def _rename(self, pv, c, off: int):
        """Declaration ``c`` of ``pv``, whose name stands at ``off``, names the template; the
        offset's declaration follows it."""
        self.draft.rewrites[off] = (off + len(pv.name), f"bamboo_initial_{pv.mangled}")
        if self.prog.cxx:
            decl = cxx_offset_declaration(self.prog, pv, c, off)
        elif pv.linkage == "internal":
            decl = [f"static size_t bamboo_offset_{pv.mangled};"]
        elif defines(c):
            decl = [f"size_t bamboo_offset_{pv.mangled};"]
        else:
            decl = [f"extern size_t bamboo_offset_{pv.mangled};"]
        self.draft.offset_declarations.setdefault(
            declaration_end(self.prog.src.blanked, c), []).append(decl)

    def _find_declarations(self):
        """Which variables each declaration of the file declares (libclang gives a function's
        second declarator of one declaration an extent of its own name only): declaration
        start -> name offsets, and name offset -> declaration start."""
        declared, declaration_start = {}, {}
        statements = [(n.start, [n]) for n in self.prog.file_vars]
        for fn in self.prog.function_order:
            statements += [(n.start, [v for v in n.children if v.kind == CK.VAR_DECL])
                           for n in fn.body.walk() if n.kind == CK.DECL_STMT]
        for start, variables in statements:
            for v in variables:
                _, _, _, name = cx.file_location(v.cursor.location)
                declaration_start[name] = start
                declared.setdefault(start, []).append(name)
        return declared, declaration_start
