"""bamboocc: an mpicc-compatible compiler driver that builds MPI C, C++ and Fortran programs
with Bamboo (bamboofort is the same driver, for a program that has Fortran in it).

Every C and C++ source on the command line is translated (`bamboo translate`) into a
temporary file, then the MPI compiler wrapper (mpicxx if there is C++ among the sources)
runs with the user's own arguments, the sources replaced by their translations, the
runtime's include directory added, and, when linking, the runtime library.  Objects,
archives and libraries pass through untouched, so translated and untranslated objects can
be linked together (an object not built by bamboocc must not call MPI itself: its calls
would bypass the virtual ranks). A program with Fortran in it is built by fortran/build.py.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

from .source import ENCODING
from .toolchain import CXX_SOURCE_SUFFIXES
from .loop_comm import INCLUDE_DIR as LOOPCOMM_INCLUDE
from .translate import translate_file
from .fortran.build import FortranBuild, fortran_include_dir, is_fortran_link
from .fortran.sources import gfortran, is_fortran

REPO = Path(__file__).resolve().parents[2]
RUNTIME_INCLUDE = REPO / "runtime" / "include"
# The loop communication run time: headers, and the library of OpenSHMEM programs' optimized loops.
LOOPCOMM_LIBDIR = REPO / "build" / "loopcomm"
# The built runtime to link; BAMBOO_RUNTIME_LIBDIR picks another build (e.g. the MPICH one).
RUNTIME_LIBDIR = Path(os.environ.get("BAMBOO_RUNTIME_LIBDIR") or REPO / "build" / "runtime").resolve()
# What a plain program's lowered comm directives call (runtime/commdir): the MPI half, built
# with the runtime against its MPI, and the OpenSHMEM half. Linked into every plain program:
# an archive's members come in only where the program calls them.
COMMDIR_LIBS = [(RUNTIME_LIBDIR, "bamboo_commdir"), (REPO / "build" / "commdir", "bamboo_commdir_shmem")]
# The program's main() is the runtime's: asked for by name, so that it comes out of the
# archive also where nothing refers to it (a shared object, as SimGrid SMPI loads programs).
RUNTIME_LIBS = ["-Wl,--undefined=main", "-lbamboo", "-lboost_context", "-lstdc++", "-lpthread", "-lm"]
# Before the user's flags, which may override them. Stack probing: a frame larger than a
# page (a big local array, a VLA, alloca) touches its pages from the top down, so a task
# that overflows its stack meets the guard region below it rather than writing beyond it
# (docs/runtime.md). GCC 8 and Clang 11 on have it.
COMPILE_FLAGS = ["-fstack-clash-protection"]


def _listed_by_runtime_build(name: str) -> list[str]:
    """A list the runtime build writes beside libbamboo.a; a build older than it lists nothing."""
    listed = RUNTIME_LIBDIR / name
    return listed.read_text().split() if listed.is_file() else []


def runtime_build_flags() -> list[str]:
    """Flags a program must be compiled and linked with to use the runtime build it links
    (the sanitizers of a sanitizer build)."""
    return _listed_by_runtime_build("program-flags")


def runtime_build_libs() -> list[str]:
    """Libraries the runtime build uses beyond RUNTIME_LIBS (libotf2, when it writes OTF2
    traces)."""
    return _listed_by_runtime_build("program-libs")

C_SOURCE_SUFFIXES = (".c",)

# Options whose value is the next argument (gcc spelling); all are passed on as given.
OPTIONS_WITH_VALUE = {
    "-o", "-I", "-D", "-U", "-include", "-imacros", "-isystem", "-iquote", "-idirafter",
    "-L", "-l", "-MF", "-MT", "-MQ", "-x", "-Xlinker", "-Xpreprocessor", "-Xassembler",
    "-u", "-T", "-z", "-aux-info", "-wrapper", "-isysroot", "-B",
}
# Of those, the ones that change how the translator must parse a source.
PARSE_OPTIONS = {"-I", "-D", "-U", "-include", "-imacros", "-isystem", "-iquote", "-idirafter"}
PARSE_PREFIXES = ("-I", "-D", "-U", "-std=", "-isystem", "-iquote", "-include", "-idirafter")

BAMBOOCC_HELP = """\
usage: bamboocc [mpicc options] FILE...
       bamboofort [mpifort options] FILE...

Compiles and links MPI C, C++ and Fortran programs as Bamboo task programs. Accepts the
options of mpicc; every .c file, and every C++ file (.cpp, .cc, .cxx, .C, ..., or after
-x c++), is translated first (see `bamboo translate --explain FILE.c`).

Fortran sources (.f, .F, .f90, .F90, ...) are compiled as written by gfortran with the
options of mpifort, against Bamboo's mpif.h and mpi module; each task runs its own copy
of the program, so module, COMMON and SAVE data are per task (docs/fortran.md). A link
with Fortran objects in it, or any link by bamboofort, builds such a program; bamboofort
compiles C sources for one.

An OpenSHMEM program (a source that includes shmem.h and not mpi.h) is built with oshcc:
its comm directives are lowered and its loops of fine-grained remote accesses optimized
(vectorized and strip-mined; see `bamboo translate --explain FILE.c`), no Bamboo tasks.

bamboocc's own options:
  --bamboo-comm-only  lower the comm directives (#pragma comm_parameters, comm_p2p) and
                      build a plain MPI program with mpicc, or an OpenSHMEM one with
                      oshcc when a directive targets TARGET_COMM_SHMEM; no Bamboo tasks
  --no-loop-opt       leave loops with remote accesses as written
  --bamboo-keep       keep the translated sources and print where they are
  --bamboo-help       this text
Environment:
  BAMBOO_MPICC        the MPI compiler wrapper to use (default: mpicc)
  BAMBOO_MPICXX       the one for C++ sources (default: mpicxx)
  BAMBOO_OSHCC        the OpenSHMEM one, for --bamboo-comm-only (default: oshcc)
  BAMBOO_RUNTIME_LIBDIR
                      the runtime build to link, built with that MPI
                      (default: build/runtime of this checkout)
"""


@dataclass
class Command:
    """A bamboocc command line, split into what the driver needs to know."""

    args: list[str]                                    # user's arguments, in order
    sources: list[int] = field(default_factory=list)   # indices of sources in args
    cxx_sources: set[int] = field(default_factory=set)  # those in C++ (suffix or -x c++)
    parse_args: list[str] = field(default_factory=list)
    links: bool = True
    keep: bool = False
    comm_only: bool = False
    loop_opt: bool = True
    preprocess_only: bool = False  # -E, -M, -MM: the user's sources as they are
    fortran_sources: list[int] = field(default_factory=list)  # indices of Fortran sources in args
    dependency_file: str | None = None  # -MF


def parse_command(argv: list[str]) -> Command:
    cmd = Command(args=[])
    forced_language = None  # of `-x LANGUAGE`, until `-x none`
    i = 0
    while i < len(argv):
        arg = argv[i]
        if arg == "--bamboo-keep":
            cmd.keep = True
            i += 1
            continue
        if arg == "--bamboo-comm-only":
            cmd.comm_only = True
            i += 1
            continue
        if arg == "--no-loop-opt":
            cmd.loop_opt = False
            i += 1
            continue
        if arg in OPTIONS_WITH_VALUE and i + 1 < len(argv):
            value = argv[i + 1]
            cmd.args += [arg, value]
            if arg in PARSE_OPTIONS:
                cmd.parse_args += [arg, value]
            if arg == "-x":
                forced_language = None if value == "none" else value
            if arg == "-MF":
                cmd.dependency_file = value
            i += 2
            continue
        if arg in ("-c", "-S", "-E", "-M", "-MM", "-fsyntax-only"):
            cmd.links = False
        if arg in ("-E", "-M", "-MM"):
            cmd.preprocess_only = True
        if arg.startswith(PARSE_PREFIXES):
            cmd.parse_args.append(arg)
        if not arg.startswith("-"):
            if forced_language is None:
                cxx = arg.endswith(CXX_SOURCE_SUFFIXES)
                source = cxx or arg.endswith(C_SOURCE_SUFFIXES)
            else:  # another language (assembler, ...) passes through
                cxx = forced_language.startswith("c++")
                source = cxx or forced_language == "c"
            if forced_language is None and is_fortran(arg):
                cmd.fortran_sources.append(len(cmd.args))
            if source:
                cmd.sources.append(len(cmd.args))
            if cxx:
                cmd.cxx_sources.add(len(cmd.args))
        cmd.args.append(arg)
        i += 1
    return cmd


def compiler(cmd: Command, shmem: bool = False) -> str:
    if shmem:
        return os.environ.get("BAMBOO_OSHCC", "oshcc")
    if cmd.cxx_sources:
        return os.environ.get("BAMBOO_MPICXX", "mpicxx")
    return os.environ.get("BAMBOO_MPICC", "mpicc")


@dataclass
class Built:
    """What the translations need from the build."""
    shmem: bool = False          # oshcc: an OpenSHMEM program, or a SHMEM comm directive
    plain: bool = False          # no Bamboo tasks: --bamboo-comm-only or an OpenSHMEM program
    loop_runtime: bool = False   # optimized loops: runtime/loopcomm


def build_command(cmd: Command, translated: dict[int, Path],
                  built: Built | None = None) -> list[str]:
    """The MPI (or OpenSHMEM) compiler invocation: the user's arguments with translated
    sources."""
    built = built or Built(plain=cmd.comm_only)
    if built.plain:
        # the loop optimizer's headers (an MPI one-sided nest needs only its header)
        out = [compiler(cmd, built.shmem), f"-I{LOOPCOMM_INCLUDE}"]
    else:
        out = [compiler(cmd), *COMPILE_FLAGS, *runtime_build_flags(), f"-I{RUNTIME_INCLUDE}",
               f"-I{LOOPCOMM_INCLUDE}"]
    for index, arg in enumerate(cmd.args):
        if index in translated:
            # Quoted includes of the user's file are searched next to the original.
            out += ["-iquote", str(Path(arg).resolve().parent)]
            if cmd.cxx_sources and index not in cmd.cxx_sources:
                # a C source among C++ ones: the C++ compiler takes .c files for C++
                out += ["-x", "c", str(translated[index]), "-x", "none"]
            else:
                out.append(str(translated[index]))
        else:
            out.append(arg)
    if cmd.links and not built.plain:
        # `-x none` first: the build's libraries are named by path, and a `-x c++` of the
        # user's would make the compiler read them as sources.
        out += ["-x", "none", f"-L{RUNTIME_LIBDIR}", *RUNTIME_LIBS, *runtime_build_libs()]
    if cmd.links and built.plain:
        out += ["-x", "none"] + [arg for libdir, name in COMMDIR_LIBS for arg in (f"-L{libdir}", f"-l{name}")]
    if cmd.links and built.loop_runtime:
        out += [f"-L{LOOPCOMM_LIBDIR}", "-lbamboo_loopcomm"]
    return out


# autoconf's test of whether a function links (AC_CHECK_FUNC, AC_SEARCH_LIBS): the program
# declares the function itself, without a prototype, and calls it. Translated, it would get
# MPI's prototype through bamboo.h and not compile, and configure would decide that there is
# no MPI.
LINK_PROBE = re.compile(r"^char P?MPI_\w+ \((?:void)?\);$", re.M)


def is_link_probe(text: str) -> bool:
    return bool(LINK_PROBE.search(text)) and "mpi.h" not in text


def translate_sources(cmd: Command, workdir: Path,
                      built: Built | None = None) -> dict[int, Path] | None:
    """Translates every source into workdir, but autoconf's link probes, which are compiled
    as they are; None if any translation failed. ``built`` collects what the translations
    need from the build."""
    translated: dict[int, Path] = {}
    failed = False
    for n, index in enumerate(cmd.sources):
        source = Path(cmd.args[index])
        if not source.is_file():
            print(f"bamboocc: error: {source}: no such file", file=sys.stderr)
            failed = True
            continue
        if is_link_probe(source.read_text(encoding=ENCODING, errors="replace")):
            continue
        language = "c++" if index in cmd.cxx_sources else "c"
        result = translate_file(str(source), [*cmd.parse_args, "-x", language],
                                comm_only=cmd.comm_only, loop_opt=cmd.loop_opt)
        if built is not None and result.ok:
            built.shmem |= result.shmem_program or "TARGET_COMM_SHMEM" in result.targets
            built.plain |= result.shmem_program
            built.loop_runtime |= result.loop_runtime
        for diagnostic in result.diagnostics:
            print(diagnostic, file=sys.stderr)
        if not result.ok:
            failed = True
            continue
        # Same file name as the original, so that `-c` without `-o` names the object alike.
        target = workdir / str(n) / source.name
        target.parent.mkdir(parents=True)
        target.write_text(result.text, encoding=ENCODING)
        translated[index] = target
    return None if failed else translated


def fix_dependency_files(cmd: Command, translated: dict[int, Path]) -> None:
    """-MD, -MMD: the dependency file names the translation, which is gone after the build;
    make would then find a prerequisite missing and rebuild every time. It names the user's
    source instead."""
    if not {"-MD", "-MMD"} & set(cmd.args):
        return
    output = cmd.args[cmd.args.index("-o") + 1] if "-o" in cmd.args else None
    for index, path in translated.items():
        source = cmd.args[index]
        if cmd.dependency_file:
            written = Path(cmd.dependency_file)
        elif output and not cmd.links:
            written = Path(output).with_suffix(".d")
        else:
            written = Path(Path(source).name).with_suffix(".d")
        if written.is_file():
            text = written.read_text(encoding=ENCODING, errors="replace")
            written.write_text(text.replace(str(path), source), encoding=ENCODING)


def is_fortran_program(cmd: Command, fortran_driver: bool) -> bool:
    """Whether this command builds (part of) a program with Fortran in it."""
    if cmd.fortran_sources or (fortran_driver and not cmd.cxx_sources):
        return True
    objects = [arg for arg in cmd.args if arg.endswith((".o", ".a"))]
    return cmd.links and not cmd.sources and is_fortran_link(objects)


def build_fortran_program(cmd: Command) -> int:
    if cmd.cxx_sources:
        print("bamboocc: error: C++ sources in a program with Fortran are not supported "
              "(docs/fortran.md)", file=sys.stderr)
        return 1
    if cmd.comm_only:
        print("bamboocc: error: --bamboo-comm-only does not take Fortran sources (docs/fortran.md)",
              file=sys.stderr)
        return 1
    inputs = cmd.fortran_sources or cmd.sources or any(arg.endswith((".o", ".a")) for arg in cmd.args)
    if cmd.preprocess_only or not inputs:
        # -E, and what has no input: --version, -dumpversion, -v, as mpifort passes them on
        return subprocess.call([gfortran(), f"-I{fortran_include_dir(RUNTIME_LIBDIR)}", *cmd.args])
    build = FortranBuild(cmd, RUNTIME_INCLUDE, RUNTIME_LIBDIR, RUNTIME_LIBS, runtime_build_flags(),
                         runtime_build_libs())
    return build.run()


def main(argv: list[str] | None = None, fortran_driver: bool = False) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if not argv or "--bamboo-help" in argv:
        print(BAMBOOCC_HELP, end="")
        return 0 if argv else 1
    cmd = parse_command(argv)
    if is_fortran_program(cmd, fortran_driver):
        return build_fortran_program(cmd)
    if cmd.preprocess_only:
        # What the preprocessor makes of the user's own sources (configure's CPP probes, -M
        # dependencies); `--bamboo-keep` shows the translation.
        return subprocess.call([compiler(cmd), *cmd.args])
    workdir = Path(tempfile.mkdtemp(prefix="bamboocc-"))
    try:
        built = Built(plain=cmd.comm_only)
        translated = translate_sources(cmd, workdir, built)
        if translated is None:
            return 1
        needs = [(cmd.links and not built.plain, RUNTIME_LIBDIR / "libbamboo.a"),
                 (cmd.links and built.loop_runtime, LOOPCOMM_LIBDIR / "libbamboo_loopcomm.a")]
        needs += [(cmd.links and built.plain, libdir / f"lib{name}.a") for libdir, name in COMMDIR_LIBS]
        for needed, library in needs:
            if needed and not library.is_file():
                print(f"bamboocc: error: the runtime library is not built ({library}); run "
                      "`make` in the Bamboo checkout", file=sys.stderr)
                return 1
        status = subprocess.call(build_command(cmd, translated, built))
        if status == 0:
            fix_dependency_files(cmd, translated)
        if cmd.keep:
            print(f"bamboocc: translated sources kept in {workdir}", file=sys.stderr)
        return status
    finally:
        if not cmd.keep:
            shutil.rmtree(workdir, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
