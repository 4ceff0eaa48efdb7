"""Command line: ``python3 -m bamboo translate FILE.c [-o OUT.c] [--explain] [--comm-only] [flags]``
and ``python3 -m bamboo trace summary|plot|check FILE ...`` (trace/cli.py: reading what
``--bamboo-trace`` wrote).

``--comm-only`` lowers the comm directives alone: the output is a plain MPI (or SHMEM)
program for mpicc (oshcc), not a Bamboo task program.  So is the output for an OpenSHMEM
program (it includes shmem.h, not mpi.h), whose loops with fine-grained remote accesses are
also optimized, unless ``--no-loop-opt``; ``--explain`` says what happened to each such loop.
In every file, loops of one-element MPI_Get/MPI_Put become one transfer after the loop.

Compiler flags (-I, -D, -U, -std=, -include, -isystem, -iquote, -idirafter) are passed to
libclang.  Without -o the generated C goes to stdout; with --explain the explanation goes to
stdout (and the C only to -o, if given).  Diagnostics go to stderr; exit status 1 on errors.
"""
from __future__ import annotations

import sys
from pathlib import Path

from .source import ENCODING
from .fortran.sources import is_fortran
from .translate import translate_file

USAGE = ("usage: python3 -m bamboo translate FILE.c [-o OUT.c] [--explain] [--comm-only] "
         "[--no-loop-opt] "
         "[-I DIR] [-D NAME[=VAL]] [-U NAME] [-std=STD] [-include FILE] [-isystem DIR] "
         "[-iquote DIR]\n"
         "       python3 -m bamboo trace {summary,plot,check} FILE ... (bamboo trace --help)")

_WITH_ARG = ("-I", "-D", "-U", "-include", "-isystem", "-iquote", "-idirafter", "-imacros")


def parse_args(argv):
    if not argv or argv[0] in ("-h", "--help"):
        return None
    if argv[0] != "translate":
        raise SystemExit(f"bamboo: error: unknown command '{argv[0]}'\n{USAGE}")
    out = None
    explain = False
    comm_only = False
    loop_opt = True
    files = []
    flags = []
    i = 1
    while i < len(argv):
        a = argv[i]
        if a == "-o":
            if i + 1 >= len(argv):
                raise SystemExit("bamboo: error: -o needs a file name")
            out = argv[i + 1]
            i += 2
            continue
        if a == "--explain":
            explain = True
        elif a == "--comm-only":
            comm_only = True
        elif a == "--no-loop-opt":
            loop_opt = False
        elif a in _WITH_ARG:
            if i + 1 >= len(argv):
                raise SystemExit(f"bamboo: error: {a} needs an argument")
            flags += [a, argv[i + 1]]
            i += 2
            continue
        elif a.startswith(("-I", "-D", "-U", "-std=", "-isystem", "-iquote", "-include",
                           "-idirafter", "-W", "-f", "-m", "-O", "-g")):
            flags.append(a)
        elif a.startswith("-"):
            raise SystemExit(f"bamboo: error: unknown option '{a}'\n{USAGE}")
        else:
            files.append(a)
        i += 1
    if len(files) != 1:
        raise SystemExit(f"bamboo: error: expected one input file\n{USAGE}")
    return files[0], out, explain, comm_only, loop_opt, flags


FORTRAN_EXPLANATION = """\
{path}: Fortran, compiled by gfortran against Bamboo's mpif.h and mpi module
  as written, but for its directives (Bamboo's and seed 003's), lowered on their own lines.
  Its MPI calls link to the runtime's Fortran bindings; each task loads its own copy of the
  program, so module, COMMON and SAVE data are the task's (docs/fortran.md).
"""


def _fortran(path: str, out: str | None, explain: bool, flags: list[str]) -> int:
    """A Fortran file: the front end's diagnostics, and the file as it is compiled (with its
    Bamboo directives lowered)."""
    from .driver import RUNTIME_LIBDIR
    from .fortran.build import fortran_include_dir
    from .fortran.check import check_fortran
    source = Path(path)
    if not source.is_file():
        print(f"bamboo: error: {path}: no such file", file=sys.stderr)
        return 1
    includes = [str(source.resolve().parent), str(fortran_include_dir(RUNTIME_LIBDIR))]
    result = check_fortran(path, [f for f in flags if f.startswith(("-I", "-D", "-U"))],
                           includes + [f[2:] for f in flags if f.startswith("-I") and len(f) > 2])
    for diagnostic in result.diagnostics:
        print(diagnostic, file=sys.stderr)
    if not result.ok:
        return 1
    text = result.text.encode(ENCODING) if result.text is not None else source.read_bytes()
    if explain:
        sys.stdout.write(FORTRAN_EXPLANATION.format(path=path))
        sys.stdout.write("".join(f"  {line}\n" for line in result.explanation))
    elif out:
        Path(out).write_bytes(text)
    else:
        sys.stdout.flush()
        sys.stdout.buffer.write(text)
    return 0


def main(argv=None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if argv and argv[0] == "trace":
        from .trace.cli import main as trace_main
        return trace_main(argv[1:])
    parsed = parse_args(argv)
    if parsed is None:
        print(USAGE)
        return 0
    path, out, explain, comm_only, loop_opt, flags = parsed
    if is_fortran(path):
        return _fortran(path, out, explain, flags)
    try:
        res = translate_file(path, flags, display=path, explain=explain, comm_only=comm_only,
                             loop_opt=loop_opt)
    except OSError as e:
        print(f"bamboo: error: {e}", file=sys.stderr)
        return 1
    for d in res.diagnostics:
        print(d, file=sys.stderr)
    if explain and res.explanation:
        sys.stdout.write(res.explanation)
    if not res.ok:
        return 1
    if out:
        with open(out, "w", encoding=ENCODING) as f:
            f.write(res.text)
    elif not explain:
        sys.stdout.flush()
        sys.stdout.buffer.write(res.text.encode(ENCODING))
    return 0
