"""The program entry: the user's ``main`` becomes ``bamboo_main`` (the runtime's own main
starts one task per virtual rank, each running bamboo_main)."""
from __future__ import annotations

from dataclasses import dataclass

from ..frontend import cx
from ..frontend.cx import CK, TK
from ..emit.edits import EditBuffer, EditOrder
from ..frontend.model import Program


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


def rename_main(prog: Program, buf: EditBuffer | None) -> MainRename | None:
    fn = prog.functions.get("main")
    if fn is None:
        return None
    nparams = len(fn.params)
    if fn.cursor.result_type.get_canonical().kind != TK.INT:
        prog.error(fn.node.start, "main must return int")
        return None
    if nparams == 2:
        new, wrapper = "bamboo_main", False
    elif nparams == 0:
        new, wrapper = "bamboo_main_noargs", True
    else:
        prog.error(fn.node.start, f"main with {nparams} parameters is not supported; use "
                                  "int main(int argc, char **argv) or int main(void)")
        return None
    body = fn.body
    last = body.children[-1] if body.children else None
    implicit = last is None or last.kind != CK.RETURN_STMT
    info = MainRename(new, wrapper, implicit)
    if buf is None:
        return info
    src = prog.src
    offsets = set()
    for c in prog.declared_functions.get("main", []):
        if prog.in_main(c):
            _, _, _, off = cx.file_location(c.location)
            offsets.add(off)
    for f in prog.function_order:
        for n in f.node.walk():
            if n.kind == CK.DECL_REF_EXPR and n.spelling == "main" and n.ref is not None \
                    and n.ref.kind == CK.FUNCTION_DECL:
                _, _, _, off = cx.file_location(n.cursor.location)
                offsets.add(off)
    for off in sorted(offsets):
        if src.identifier_at(off) == "main":
            buf.replace(off, off + 4, new)
        else:
            prog.error(off, "main is named through a macro; cannot rename it")
    if implicit:
        buf.insert(body.end - 1, "return 0; /* bamboo: main's implicit return */ ",
                   EditOrder.IMPLICIT_RETURN)
    if wrapper:
        buf.append("\n/* bamboo: the runtime calls bamboo_main(argc, argv) in each task; this "
                   "program's main takes no arguments */\n"
                   "int bamboo_main(int argc, char **argv)\n{\n    (void)argc;\n    (void)argv;\n"
                   "    return bamboo_main_noargs();\n}\n")
    return info
