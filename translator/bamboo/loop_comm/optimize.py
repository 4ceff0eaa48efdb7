"""The loop communication pipeline: parse the (comm-directive-lowered) text, find the nests
whose remote accesses may be hoisted in every function (nests.py), write them (writer.py),
and say what happened to each loop with remote accesses (--explain)."""
from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from ..diagnostics import Diagnostics
from ..frontend import cx
from ..frontend.load import report_parse_errors
from ..frontend.parses import Parses
from ..source import SourceFile
from .accesses import GET
from .nests import Nest, plan, source_text
from .writer import NestWriter

CK = cx.CK
HEADER = '#include "bamboo_loopcomm.h"\n'
MPI_HEADER = '#include "bamboo_loopcomm_mpi.h"\n'
# where both are: the compiler's -I, and the parse's before a Bamboo translation
INCLUDE_DIR = Path(__file__).resolve().parents[3] / "runtime" / "loopcomm" / "include"
_MPI_INCLUDE = re.compile(r'^(\xef\xbb\xbf)?[ \t]*#[ \t]*include[ \t]*[<"]mpi\.h[>"][^\n]*', re.M)
# (a byte order mark may start the file)
_SHMEM_INCLUDE = re.compile(
    r'^(?:\xef\xbb\xbf)?[ \t]*#[ \t]*include[ \t]*[<"](?:mpp/)?shmem\.h[>"]', re.M)


def is_shmem_program(text: str) -> bool:
    """An OpenSHMEM source: it includes shmem.h."""
    return bool(_SHMEM_INCLUDE.search(text))


@dataclass
class LoopOptimization:
    text: str | None        # None after errors
    explanation: str = ""
    nests: int = 0          # OpenSHMEM nests optimized: the program needs the run-time library
    mpi_nests: int = 0      # MPI one-sided nests optimized: it needs bamboo_loopcomm_mpi.h

    @property
    def header(self) -> str:
        """What the optimized text must include first."""
        return (HEADER if self.nests else "") + (MPI_HEADER if self.mpi_nests else "")


def includes_mpi(text: str) -> bool:
    return _MPI_INCLUDE.search(text) is not None


def with_mpi_header(text: str) -> str:
    """A Bamboo translation's input: the line that includes mpi.h includes it through
    bamboo_loopcomm_mpi.h instead, so that every line stays where it was."""
    return _MPI_INCLUDE.sub(lambda m: (m.group(1) or "") + MPI_HEADER.strip(), text, count=1)


def optimize(src: SourceFile, args, diags: Diagnostics, parses: Parses,
             shmem: bool = True) -> LoopOptimization:
    """``src``'s text with its provable loop nests optimized, line for line; without
    ``shmem``, only its MPI one-sided ones (a program to become Bamboo tasks)."""
    if "shmem_" not in src.text and "MPI_Get" not in src.text and "MPI_Put" not in src.text:
        return LoopOptimization(src.text)
    tu = parses.tree(src, args)
    if report_parse_errors(tu, src, diags):
        return LoopOptimization(None)
    edits, notes, count, mpi = [], [], 0, 0
    for fn in _function_bodies(tu, src.path):
        nests, refusals = plan(src, fn, shmem)
        for nest in nests:
            edits += NestWriter(src, nest, count).edits()
            notes.append((nest.root.cursor.extent.start.offset, _optimized(src, nest)))
            count += 1
            mpi += nest.mpi
        for r in refusals:
            at = r.loop.extent.start.offset
            notes.append((at, f"{_where(src, at)}: loop over "
                              f"'{_loop_name(r.loop)}' left as written: {r.reason}\n"))
    text = src.with_replacements(sorted(edits, key=lambda e: (e[0], e[1])))
    explanation = "".join(n for _, n in sorted(notes, key=lambda x: x[0]))
    return LoopOptimization(text, explanation, count - mpi, mpi)


def _function_bodies(tu, path: str):
    pending = list(tu.cursor.get_children())
    while pending:
        c = pending.pop(0)
        if c.location.file is None or cx.loc_file(c.location) != path:
            continue
        if c.kind in cx.FUNCTION_KINDS and c.is_definition():
            body = [x for x in c.get_children() if x.kind == CK.COMPOUND_STMT]
            if body:
                yield body[0]
        elif c.kind in cx.SCOPE_KINDS:
            pending.extend(c.get_children())


def _where(src: SourceFile, offset: int) -> str:
    line, col = src.line_col(offset)
    return f"{src.display}:{line}:{col}"


def _loop_name(loop) -> str:
    for c in cx.walk_preorder(loop):
        if c.kind == CK.VAR_DECL or c.kind == CK.DECL_REF_EXPR:
            return c.spelling
    return "?"


def _optimized(src: SourceFile, nest: Nest) -> str:
    root = nest.root
    where = f"{_where(src, root.cursor.extent.start.offset)}: loop over '{root.var.spelling}'"
    if nest.mpi:
        lines = [f"{where}: its one-element MPI accesses move after it, one transfer of a derived "
                 "datatype each (they complete with their epoch)"]
    else:
        lines = [f"{where}: remote accesses hoisted and strip-mined (strips and transfer kind "
                 "chosen at run time)"]
    for r in nest.references:
        a = r.access
        loops = ", ".join(lp.var.spelling for lp in r.loops)
        pe = source_text(src, a.pe)
        if a.mpi:
            verb = "into" if a.direction == GET else "from"
            lines.append(f"  line {a.call.location.line}: {a.name} {verb} '{r.address.name}', "
                         f"rank {pe}: {len(r.loops)}-D region over {loops}")
            continue
        verb = "gets" if a.direction == GET else "puts"
        if r.inspected:
            lines.append(f"  line {a.call.location.line}: {a.name} {verb} '{r.address.name}' on PE "
                         f"{pe}: elements found by an inspector over {loops} ({r.inspected})")
            lines.append("    the inspection is kept while the variables its indices read keep their "
                         "values; every read checks its element arrived (else it is read at once)")
        else:
            lines.append(f"  line {a.call.location.line}: {a.name} {verb} '{r.address.name}' on PE "
                         f"{pe}: {len(r.loops)}-D region over {loops}")
        if r.source:
            lines.append(f"    its values are elements of '{r.source.name}': put straight from there, "
                         "with no copy, where the strides agree (checked at run time)")
        if r.local_conflict:
            lines.append(f"    {r.local_conflict}: when PE {pe} is this PE, the loop keeps its "
                         "fine-grained accesses (checked at run time)")
    return "\n".join(lines) + "\n"
