"""How a privatized variable registers with the runtime (bamboo_global, bamboo_register_global,
bamboo_register_object, or the constructor at the end of a C file): the text the
declarations' edits and the applied plan both write."""
from __future__ import annotations

import os

from ...frontend import cx
from ...frontend.model import Program
from .declarators import qualifier
from .variables import PrivateVar


def shown_name(prog: Program, pv: PrivateVar) -> str:
    """The variable's name in the runtime's messages."""
    base = os.path.basename(prog.src.display)
    if pv.linkage == "local":
        return f"{base}:{pv.function}:{pv.name}"
    if prog.cxx:
        return pv.qualified_name
    return pv.name if pv.linkage == "external" else f"{base}:{pv.name}"


def registration_entry(prog: Program, pv: PrivateVar) -> str:
    """The variable's bamboo_global: its name in messages, offset, template, size and
    alignment."""
    t = pv.template
    return (f'{{"{shown_name(prog, pv)}", &bamboo_offset_{pv.mangled}, &{t}, sizeof({t}), '
            f"__alignof__({t})}}")


def object_entry_start(prog: Program, pv: PrivateVar) -> str:
    t = pv.type_name
    return (f'bamboo_register_object({{"{shown_name(prog, pv)}", &bamboo_offset_{pv.mangled}, '
            f"sizeof({t}), alignof({t}), ")


def object_entry_end(pv: PrivateVar) -> str:
    return f", bamboo_destroy<{pv.type_name}>}})"


def offset_storage(pv: PrivateVar) -> str:
    """The storage class of a variable's offset: its own file's alone for a `static` one."""
    return "static " if pv.linkage == "internal" else ""


def constructor(prog: Program, defined) -> str:
    """The C file's constructor that registers the variables it defines."""
    lines = ["",
             "/* bamboo: register this file's privatized variables (each task gets its own "
             "copy, initialized from bamboo_initial_<name>) */",
             "static void __attribute__((constructor)) bamboo_register_this_file_globals(void)",
             "{",
             "    static const bamboo_global globals[] = {"]
    for pv in defined:
        lines.append(f"        {registration_entry(prog, pv)},")
    lines += ["    };",
              "    bamboo_register_globals(globals, sizeof globals / sizeof globals[0]);",
              "}", ""]
    return "\n".join(lines)


def cxx_offset_declaration(prog: Program, pv: PrivateVar, c, name_offset: int,
                           construct: list | None = None) -> list:
    """C++: the offset's declaration after one of the variable's declarations, in its scope;
    where the variable is defined, the offset's definition registers it (an object with
    ``construct``, its constructing function, in parts as the plan's offset declarations have
    them)."""
    m = pv.mangled
    in_class = c.lexical_parent is not None and c.lexical_parent.kind in cx.CLASS_KINDS
    if not c.is_definition():  # in a class: not an inline member (VariableFinder._check_cxx)
        return [f"{'static' if in_class else 'extern'} size_t bamboo_offset_{m};"]
    scope = qualifier(prog.src.blanked, name_offset)
    static = "static " if pv.linkage == "internal" and not scope else ""
    head = f"{static}size_t {''.join(scope.split())}bamboo_offset_{m} = "
    if construct is None:
        return [head + f"bamboo_register_global({registration_entry(prog, pv)});"]
    return [head + object_entry_start(prog, pv), *construct, object_entry_end(pv) + ";"]
