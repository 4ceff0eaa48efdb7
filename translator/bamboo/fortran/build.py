"""Building a Fortran program with Bamboo.

Sources are compiled as written, but for their Bamboo directives, lowered line for line
(directives.py): Fortran by gfortran against Bamboo's mpif.h and `mpi` module (a file with
directives from its translation, which a line marker names the user's file), C beside it by
the MPI C compiler with bamboo.h included first (its MPI calls go to the runtime as a
translated file's do; its globals need no translation). Linking makes a shared object of the
program, embeds it in an executable made of the runtime, its Fortran bindings and its
main(), and exports to the program the symbols it must share with the runtime
(runtime/fortran/src/program_copies.cpp says why each task loads a copy).
"""
from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from .check import check_fortran
from .sources import gfortran, is_fortran, is_free_form, is_preprocessed

# The symbols a task's copy of the program must find in the executable rather than in itself:
# the Fortran bindings, the runtime's C interface (bamboo.h, which C beside the Fortran calls),
# mpif.h's sentinels, STOP, and OPEN and CLOSE (runtime/fortran/src/units.cpp).
EXPORTED = ("mpi_*", "bamboo_*", "_gfortran_stop_*", "_gfortran_error_stop_*", "_gfortran_st_open",
            "_gfortran_st_close")
# What a translated C object defines or calls: it keeps its globals through the runtime's
# registration, made once for the executable; a copy per task would register them again.
TRANSLATED_C = re.compile(r"\b(bamboo_register_globals?|bamboo_main)\b")
FORTRAN_MAIN = re.compile(r" U _gfortran_set_args$", re.M)  # what a main program calls
FORTRAN_CODE = re.compile(r" U _gfortran_\w+$", re.M)
C_MAIN = re.compile(r" T bamboo_main$", re.M)


def fortran_include_dir(runtime_libdir: Path) -> Path:
    return runtime_libdir / "fortran" / "include"


def _symbols(path: str) -> str:
    done = subprocess.run(["nm", "-A", path], capture_output=True, text=True)
    return done.stdout if done.returncode == 0 else ""


def is_fortran_link(objects: list[str]) -> bool:
    """Whether objects and archives make a program with Fortran in it: one has a Fortran main
    program, or one has Fortran code and none a translated C main() (a C program may link a
    library written in Fortran, BLAS say)."""
    symbols = "".join(_symbols(o) for o in objects if Path(o).is_file())
    return bool(FORTRAN_MAIN.search(symbols) or (FORTRAN_CODE.search(symbols) and not C_MAIN.search(symbols)))


class FortranBuild:
    """One bamboocc (or bamboofort) command for a program with Fortran in it."""

    def __init__(self, cmd, runtime_include: Path, runtime_libdir: Path, runtime_libs: list[str],
                 build_flags: list[str], build_libs: list[str]):
        self.cmd = cmd
        self.runtime_include = runtime_include
        self.runtime_libdir = runtime_libdir
        self.runtime_libs = runtime_libs
        self.build_flags = build_flags
        self.build_libs = build_libs
        self.include = fortran_include_dir(runtime_libdir)
        self.translations: dict[int, str] = {}  # source index -> the text with directives lowered

    # The user's arguments without the sources and without the output: for compiling, what is
    # not for the linker; for linking, all of it.
    def _flags(self, compiling: bool) -> list[str]:
        out, args, i = [], self.cmd.args, 0
        sources = set(self.cmd.sources) | set(self.cmd.fortran_sources)
        while i < len(args):
            arg = args[i]
            if i in sources or arg in ("-c",):
                i += 1
                continue
            if arg == "-o":
                i += 2
                continue
            takes_value = arg in ("-I", "-D", "-U", "-L", "-l", "-Xlinker", "-J", "-include", "-isystem", "-x")
            value = [args[i + 1]] if takes_value and i + 1 < len(args) else []
            linker_only = (arg.startswith(("-l", "-L", "-Wl,", "-Xlinker")) or arg in ("-shared", "-static")
                           or (not arg.startswith("-") and Path(arg).suffix in (".o", ".a", ".so")))
            if not (compiling and linker_only):
                out += [arg, *value]
            i += 1 + len(value)
        return out

    def _object_inputs(self) -> list[str]:
        sources = set(self.cmd.sources) | set(self.cmd.fortran_sources)
        return [a for i, a in enumerate(self.cmd.args)
                if i not in sources and not a.startswith("-") and Path(a).suffix in (".o", ".a", ".so")
                and (i == 0 or self.cmd.args[i - 1] not in ("-o", "-I", "-L", "-D", "-U", "-J"))]

    def _output(self) -> str | None:
        args = self.cmd.args
        return args[args.index("-o") + 1] if "-o" in args and args.index("-o") + 1 < len(args) else None

    def check(self) -> bool:
        ok = True
        parse_flags = [a for a in self._flags(True) if a.startswith(("-D", "-U", "-I", "-ffixed-line-length-"))]
        for index in self.cmd.fortran_sources:
            path = self.cmd.args[index]
            if not Path(path).is_file():
                print(f"bamboocc: error: {path}: no such file", file=sys.stderr)
                ok = False
                continue
            result = check_fortran(path, parse_flags, [str(Path(path).resolve().parent), str(self.include)]
                                   + [a[2:] for a in parse_flags if a.startswith("-I") and len(a) > 2])
            for diagnostic in result.diagnostics:
                print(diagnostic, file=sys.stderr)
            ok &= result.ok
            if result.text is not None:
                self.translations[index] = result.text
        for index in self.cmd.sources:
            text = Path(self.cmd.args[index]).read_text(errors="replace") if Path(self.cmd.args[index]).is_file() else ""
            for number, line in enumerate(text.splitlines(), 1):
                if re.match(r"\s*#\s*pragma\s+bamboo\b", line):
                    print(f"{self.cmd.args[index]}:{number}:1: warning: Bamboo directives in the C files of a "
                          "Fortran program are not implemented yet: the code runs as written", file=sys.stderr)
        return ok

    def _translation(self, index: int, n: int, workdir: Path) -> tuple[list[str], str]:
        """The flags and file that compile a source's translation: the same name in a folder
        of its own; a line marker gives the user's file and lines to gfortran's messages and
        the debugger, includes are found beside the user's file, and the lowered directives
        may make lines longer than the source form allows."""
        source = Path(self.cmd.args[index])
        translated = workdir / f"source-{n}" / source.name
        translated.parent.mkdir(parents=True, exist_ok=True)
        translated.write_text(f'# 1 "{source.resolve()}"\n' + self.translations[index])
        flags = ["-cpp", f"-I{source.resolve().parent}",
                 "-ffree-line-length-none" if is_free_form(str(source)) else "-ffixed-line-length-none"]
        if not is_preprocessed(str(source)):
            flags.append("-undef")  # no predefined macro may change a file not written for cpp
        return flags, str(translated)

    def compile_commands(self, workdir: Path, link: bool) -> list[tuple[list[str], str | None]]:
        """One compiler command per source; when linking, each writes its object into workdir,
        otherwise where the user's -c and -o say."""
        flags = self._flags(True)
        commands = []
        for n, index in enumerate(sorted([*self.cmd.sources, *self.cmd.fortran_sources])):
            source = self.cmd.args[index]
            if is_fortran(source):
                compiler = [gfortran(), "-fPIC", f"-I{self.include}"]
                if index in self.translations:
                    extra, source = self._translation(index, n, workdir)
                    compiler += extra
            else:
                compiler = [os.environ.get("BAMBOO_MPICC", "mpicc"), "-fPIC", *self.build_flags,
                            f"-I{self.runtime_include}", "-include", "bamboo.h"]
            if link:
                obj = workdir / f"{n}-{Path(source).stem}.o"
                commands.append(([*compiler, *flags, "-c", source, "-o", str(obj)], str(obj)))
            else:
                output = self._output()
                commands.append(([*compiler, *flags, "-c", source, *(["-o", output] if output else [])], None))
        return commands

    def run(self) -> int:
        if not (self.include / "mpif.h").is_file():
            print(f"bamboocc: error: the runtime's Fortran headers are not built ({self.include}); run "
                  "`make` in the Bamboo checkout", file=sys.stderr)
            return 1
        if not self.check():
            return 1
        workdir = Path(tempfile.mkdtemp(prefix="bamboocc-fortran-"))
        try:
            return self._link(workdir) if self.cmd.links else self._compile(workdir)
        finally:
            if self.cmd.keep:
                print(f"bamboocc: translated sources, the program's shared object and image kept in {workdir}",
                      file=sys.stderr)
            else:
                shutil.rmtree(workdir, ignore_errors=True)

    def _compile(self, workdir: Path) -> int:
        for command, _ in self.compile_commands(workdir, link=False):
            status = subprocess.call(command)
            if status:
                return status
        return 0

    def _link(self, workdir: Path) -> int:
        objects = []
        for command, obj in self.compile_commands(workdir, link=True):
            status = subprocess.call(command)
            if status:
                return status
            objects.append(obj)
        for given in self._object_inputs():
            if Path(given).is_file() and TRANSLATED_C.search(_symbols(given)):
                print(f"bamboocc: error: {given} was translated for a C program (bamboocc -c); in a program "
                      "with Fortran, compile its C sources with bamboofort (docs/fortran.md)", file=sys.stderr)
                return 1
        program = workdir / "program.so"
        status = subprocess.call([gfortran(), "-shared", "-fPIC", "-o", str(program), *objects,
                                  *self._flags(False)])
        if status:
            return status
        if not self._binds_every_call(program):
            return 1
        image = workdir / "program_image.s"
        # The bytes the runtime writes out once per task (program_copies.cpp).
        image.write_text(
            "        .section .rodata\n        .balign 4096\n        .globl bamboo_program_image\n"
            f"bamboo_program_image:\n        .incbin \"{program}\"\n"
            "        .globl bamboo_program_image_end\nbamboo_program_image_end:\n"
            "        .section .note.GNU-stack,\"\",@progbits\n")
        exports = [f"-Wl,--export-dynamic-symbol={pattern}" for pattern in EXPORTED]
        output = self._output() or "a.out"
        return subprocess.call([
            os.environ.get("BAMBOO_MPICXX", "mpicxx"), *self.build_flags, "-o", output, str(image),
            "-Wl,--whole-archive", str(self.runtime_libdir / "libbamboo_fortran.a"), "-Wl,--no-whole-archive",
            f"-L{self.runtime_libdir}", *self.runtime_libs, *self.build_libs, "-ldl", *exports])

    def _binds_every_call(self, program: Path) -> bool:
        """An MPI routine the runtime does not bind would be found missing only when a task
        loads its copy: named here instead, with the objects that call it."""
        from .bindings import BINDINGS
        done = subprocess.run(["nm", "-u", "-D", str(program)], capture_output=True, text=True)
        missing = sorted({m.group(1) for m in re.finditer(r"\b(p?mpi_\w+?)_\b", done.stdout)} - BINDINGS)
        for name in missing:
            print(f"bamboocc: error: {name.upper()} is not supported in Fortran programs under Bamboo "
                  "(docs/fortran.md lists the MPI routines that are)", file=sys.stderr)
        return not missing
