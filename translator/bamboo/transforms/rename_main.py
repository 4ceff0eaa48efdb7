"""The program entry: the user's ``main`` becomes ``bamboo_main`` (the runtime's own main
starts one task per virtual rank, each running bamboo_main)."""
from __future__ import annotations

from dataclasses import dataclass

from ..emit.edits import EditBuffer, EditOrder
from ..frontend import cx
from ..frontend.cx import CK, TK
from ..frontend.model import Program
from .base import Transformation


@dataclass
class MainRename:
    new_name: str
    wrapper: bool
    implicit_return: bool

    def describe(self) -> str:
        s = f"main renamed to {self.new_name}"
        if self.wrapper:
            s += " (it takes no arguments; bamboo_main(argc, argv) calls it)"
        if self.implicit_return:
            s += "; 'return 0;' added for main's implicit return"
        return s


class RenameMain(Transformation):
    def __init__(self, prog: Program):
        self.prog = prog
        self.info: MainRename | None = None   # None: no main in this file
        self._offsets: list = []              # where main is named

    def check(self):
        prog = self.prog
        fn = prog.functions.get("main")
        if fn is None or fn.in_header:
            return
        nparams = len(fn.params)
        if fn.cursor.result_type.get_canonical().kind != TK.INT:
            prog.error(fn.node.start, "main must return int")
            return
        if nparams == 2:
            new, wrapper = "bamboo_main", False
        elif nparams == 0:
            new, wrapper = "bamboo_main_noargs", True
        else:
            prog.error(fn.node.start, f"main with {nparams} parameters is not supported; use "
                                      "int main(int argc, char **argv) or int main(void)")
            return
        last = fn.body.children[-1] if fn.body.children else None
        self.info = MainRename(new, wrapper, last is None or last.kind != CK.RETURN_STMT)
        offsets = set()
        for c in prog.declared_functions.get("main", []):
            if prog.in_main(c):
                offsets.add(cx.file_location(c.location)[3])
        for f in prog.function_order:
            for n in f.node.walk():
                if n.kind == CK.DECL_REF_EXPR and n.spelling == "main" and n.ref is not None \
                        and n.ref.kind == CK.FUNCTION_DECL:
                    offsets.add(cx.file_location(n.cursor.location)[3])
        for off in sorted(offsets):
            if prog.src.identifier_at(off) == "main":
                self._offsets.append(off)
            else:
                prog.error(off, "main is named through a macro; cannot rename it")

    def apply(self, buf: EditBuffer):
        if self.info is None:
            return
        for off in self._offsets:
            buf.replace(off, off + 4, self.info.new_name)
        if self.info.implicit_return:
            buf.insert(self.prog.functions["main"].body.end - 1,
                       "return 0; /* bamboo: main's implicit return */ ", EditOrder.IMPLICIT_RETURN)
        if self.info.wrapper:
            buf.append("\n/* bamboo: the runtime calls bamboo_main(argc, argv) in each task; "
                       "this program's main takes no arguments */\n"
                       "int bamboo_main(int argc, char **argv)\n{\n    (void)argc;\n"
                       "    (void)argv;\n    return bamboo_main_noargs();\n}\n")
