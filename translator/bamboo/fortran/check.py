"""The Fortran front end: fparser's parse of a source, for what gfortran cannot say about it
under Bamboo, and the lowering of its Bamboo directives (directives.py) and communication
directives (comm_directives.py). gfortran, which compiles the file, reports the language's
own errors; this reports, located `file:line:col:`, MPI routines the runtime does not bind
(they would otherwise fail only when a task loads its copy), `use mpi_f08`, and what the
directives could not do."""
from __future__ import annotations

import re
import subprocess
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

from ..diagnostics import Diagnostic
from .bindings import BINDINGS
from .comm_directives import DIRECTIVE as COMM_DIRECTIVE, lower_comm_directives
from .directives import Lowering, apply, lower_directives
from .sources import gfortran, is_free_form, is_preprocessed

BAMBOO_DIRECTIVE = re.compile(r"^\s*[!cC*]\$bamboo\b", re.IGNORECASE)
LINE_MARKER = re.compile(r'^# (\d+) "([^"]*)"')


@dataclass
class FortranCheck:
    diagnostics: list[str] = field(default_factory=list)
    ok: bool = True
    text: str | None = None  # the file with its directives lowered; None: compiled as written
    explanation: list[str] = field(default_factory=list)


def _statement_item(node):
    """The reader's item of a statement: a statement inside an IF statement has none of its own."""
    while node is not None and getattr(node, "item", None) is None:
        node = getattr(node, "parent", None)
    return node.item if node is not None else None


def _preprocessed(path: Path, flags: list[str]) -> tuple[str, list[tuple[str, int]]] | None:
    """The text gfortran compiles for a .F file (its C preprocessor run with the user's -D,
    -U and -I), with the line each output line comes from; markers become blank lines. None
    where the preprocessor fails (gfortran then reports why)."""
    done = subprocess.run([gfortran(), "-E", "-cpp", *flags, str(path)], capture_output=True, text=True)
    if done.returncode != 0:
        return None
    lines, origin = [], []
    where, line = str(path), 1
    for text in done.stdout.splitlines():
        marker = LINE_MARKER.match(text)
        if marker:
            line, where = int(marker.group(1)), marker.group(2)
            lines.append("")
            origin.append((where, 0))
            continue
        lines.append(text)
        origin.append((where, line))
        line += 1
    return "\n".join(lines) + "\n", origin


def _for_fparser(include_dir: str) -> str:
    """An include directory as fparser reads it: for Bamboo's mpif.h, the runtime build's copy
    without the interface that declares a Fortran 2018 assumed-type argument, which fparser's
    Fortran 2008 does not parse (fortran/fparser beside fortran/include)."""
    alternative = Path(include_dir).parent / "fparser"
    return str(alternative) if (alternative / "mpif.h").is_file() else include_dir


def _fixed_columns(flags: list[str]) -> int | None:
    """How many columns of a fixed-form line gfortran reads (-ffixed-line-length-N; 72
    by default); None: all of them."""
    for flag in reversed(flags):
        match = re.fullmatch(r"-ffixed-line-length-(\d+|none)", flag)
        if match:
            return None if match.group(1) in ("none", "0") else int(match.group(1))
    return 72


def _gfortran_accepts(source: Path, flags: list[str], include_dirs: list[str]) -> bool:
    with tempfile.TemporaryDirectory(prefix="bamboo-fsyntax-") as modules:
        done = subprocess.run([gfortran(), "-fsyntax-only", "-cpp" if is_preprocessed(str(source)) else "-nocpp",
                               f"-J{modules}", *flags, *(f"-I{d}" for d in include_dirs), str(source)],
                              capture_output=True, text=True)
    return done.returncode == 0


def check_fortran(path: str, flags: list[str], include_dirs: list[str], display: str | None = None) -> FortranCheck:
    # fparser is imported here: a C program's build never needs it.
    from fparser.common.readfortran import FortranStringReader
    from fparser.common.sourceinfo import FortranFormat
    from fparser.two import Fortran2003
    from fparser.two.parser import ParserFactory
    from fparser.two.utils import FortranSyntaxError, walk

    source = Path(path)
    display = display or path
    check = FortranCheck()
    preprocessed = _preprocessed(source, flags) if is_preprocessed(path) else None
    if preprocessed:
        text, origin = preprocessed
    else:
        text = source.read_text(errors="replace")
        origin = [(str(source), n + 1) for n in range(text.count("\n") + 2)]
    columns = None if is_free_form(path) else _fixed_columns(flags)
    if columns is not None:
        # what gfortran reads of a fixed-form line (fparser would read on)
        text = "".join(line[:columns] + "\n" for line in text.splitlines())
    lines = text.splitlines()

    def report(severity: str, line: int, word: str | None, message: str, column: int = 0) -> None:
        where, original = origin[line - 1] if 0 < line <= len(origin) else (display, line)
        if not column and 0 < line <= len(lines):
            found = lines[line - 1].lower().find(word.lower()) if word else -1
            column = found + 1 if found >= 0 else len(lines[line - 1]) - len(lines[line - 1].lstrip()) + 1
        column = column or 1
        check.diagnostics.append(str(Diagnostic(where if where != str(source) else display, original, column,
                                                severity, message)))
        if severity == "error":
            check.ok = False

    def own_line(number: int) -> bool:
        return 0 < number <= len(origin) and origin[number - 1][0] == str(source)

    def indent(number: int) -> int:
        return len(lines[number - 1]) - len(lines[number - 1].lstrip()) + 1

    reader = FortranStringReader(text, ignore_comments=True, include_dirs=[_for_fparser(d) for d in include_dirs])
    reader.set_format(FortranFormat(is_free_form(path), False))
    try:
        tree = ParserFactory().create(std="f2008")(reader)
    except FortranSyntaxError as error:
        if not _gfortran_accepts(source, flags, include_dirs):
            return check  # gfortran reports the error where it compiles the file
        at = re.search(r"at line (\d+)", str(error))
        for number, line_text in enumerate(lines, 1):
            if COMM_DIRECTIVE.match(line_text):  # left a comment, it would leave its data untransferred
                report("error", number, None, "this comm directive cannot be lowered: fparser cannot parse "
                       f"line {at.group(1) if at else '?'} of this file", indent(number))
        directives = " and its Bamboo directives are left as comments" if any(map(BAMBOO_DIRECTIVE.match, lines)) else ""
        report("warning", int(at.group(1)) if at else 1, None,
               f"fparser cannot parse this statement, so this file's MPI calls are not checked here (the "
               f"link still finds routines Bamboo lacks){directives}")
        return check
    for use in walk(tree, Fortran2003.Use_Stmt):
        if str(use.items[2]).lower() == "mpi_f08" and use.item.reader is reader:
            report("error", use.item.span[0], "mpi_f08", "'use mpi_f08' is not supported under Bamboo yet; "
                   "use the mpi module or mpif.h (docs/fortran.md)")
    for call in walk(tree, Fortran2003.Call_Stmt):
        name = str(call.items[0]).lower()
        item = _statement_item(call)
        if not name.startswith(("mpi_", "pmpi_")) or name in BINDINGS or item is None or item.reader is not reader:
            continue
        report("error", item.span[0], name, f"{name.upper()} is not supported in Fortran programs "
               "under Bamboo (docs/fortran.md lists the MPI routines that are)")
    lowering = Lowering()
    site = lambda number: (display, origin[number - 1][1])  # noqa: E731 - where a generated call reports
    lower_directives(tree, lines, own_line, site, not is_free_form(path), lowering)
    lower_comm_directives(tree, lines, own_line, site, not is_free_form(path), lowering)
    for number, message in lowering.errors:
        report("error", number, None, message, indent(number))
    for number, message in lowering.notes:
        report("note", number, None, message, indent(number))
    check.explanation = lowering.explanation
    if check.ok and (lowering.lines or lowering.appended):
        # The edits are to the lines of the user's file (after a preprocessor, the same lines).
        original = source.read_text(errors="replace").splitlines()
        check.text = apply(original, lowering.remap(lambda number: origin[number - 1][1]), columns)
    return check
