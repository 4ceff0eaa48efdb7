"""Lowering comm directives to library calls: the file's text with every directive replaced by
the C its target needs (targets.py), line for line, so that compilers, debuggers and the
Bamboo translator after it see the user's line numbers.

parse -> find where the directives stand (structure.py) -> check their expressions in scope
and type their buffers (buffers.py) -> check the transfers (transfers.py) -> plan which
complete together (groups.py) -> write (writer.py).
"""
from __future__ import annotations

from dataclasses import dataclass, field

from ..diagnostics import Diagnostics
from ..frontend import cx
from ..frontend.load import report_parse_errors
from ..frontend.parses import Parses
from ..source import SourceFile
from . import buffers as bf
from . import clauses as cl
from .groups import announce_in_olap, plan_groups
from .structure import find_layout
from .transfers import check_libraries, type_instances
from .writer import Writer


@dataclass
class Lowered:
    text: str | None                 # None after errors
    explanation: str = ""
    targets: dict = field(default_factory=dict)   # target -> offset of the first clause naming it
    found: bool = False              # the file has comm directives at all


def has_directives(text: str) -> bool:
    return "comm_parameters" in text or "comm_p2p" in text


def lower(src: SourceFile, args, cxx: bool, diags: Diagnostics, parses: Parses,
          tasks: bool = False) -> Lowered:
    """``tasks``: the lowered file goes on to Bamboo tasks, where a region that stands
    directly in an olap region has its transfers written as a send and a receive block
    (groups.py, announce_in_olap)."""
    if not has_directives(src.text):
        return Lowered(src.text)
    tu = parses.tree(src, args)
    skipped = cx.skipped_ranges(tu, src.path)
    directives = cl.scan(src, diags, skipped, _object_macros(tu))
    # a directive's clauses continued on the next line without '\' are C errors there too:
    # the directive's error says what happened, clang's would not
    continued = {src.line_of(d.end) + 1 for d in directives if d.continued}
    if report_parse_errors(tu, src, diags, skipped_lines=continued):
        return Lowered(None, found=True)
    if not directives:
        return Lowered(src.text)
    layout = find_layout(src, tu, directives, diags)
    if diags.has_errors:
        return Lowered(None, found=True)
    cursors, probe_tu = bf.probe(src, layout, args, cxx, diags)
    if cursors is None:
        return Lowered(None, found=True)
    type_instances(src, layout, cursors, probe_tu, cxx, diags)
    check_libraries(src, layout, probe_tu, diags)
    plan_groups(src, layout, diags)
    if tasks:
        announce_in_olap(src, layout, skipped)
    if diags.has_errors:
        return Lowered(None, found=True)
    writer = Writer(src, layout, cxx)
    text = writer.write()
    targets = {}
    for inst in layout.instances:
        clause = inst.clause("target")
        targets.setdefault(inst.target, clause.items[0].offset if clause else inst.directive.start)
    return Lowered(text, writer.explain(), targets, True)


def _object_macros(tu) -> dict:
    """name -> replacement of the object-like macros defined when the file ends."""
    macros = {}
    for c in tu.cursor.get_children():
        function_like = cx.ci.conf.lib.clang_Cursor_isMacroFunctionLike
        if c.kind == cx.CK.MACRO_DEFINITION and not function_like(c):
            tokens = [t.spelling for t in c.get_tokens()]
            if len(tokens) >= 2:
                macros[c.spelling] = " ".join(tokens[1:])
    return macros
