"""Where libclang finds compiler and MPI headers, and which language a source is in.

libclang from PyPI ships without its resource headers (stddef.h, stdarg.h, ...), so we
borrow GCC's, and take the MPI include directories from the MPI compiler wrapper. (For C++,
libclang finds GCC's C++ library headers itself.)
"""
from __future__ import annotations

import functools
import os
import shlex
import shutil
import subprocess


def _run(cmd):
    try:
        out = subprocess.run(cmd, capture_output=True, text=True, timeout=30)
    except (OSError, subprocess.SubprocessError):
        return None
    if out.returncode != 0:
        return None
    return out.stdout.strip()


@functools.lru_cache(maxsize=None)
def gcc_include_dir() -> str | None:
    """GCC's own include directory (stddef.h, stdarg.h, ...), or None."""
    for cc in ("gcc", "cc"):
        if shutil.which(cc):
            path = _run([cc, "-print-file-name=include"])
            if path and path != "include":
                return path
    return None


@functools.lru_cache(maxsize=None)
def mpi_include_dirs(mpicc: str = "mpicc") -> tuple:
    """The -I directories of the MPI compiler wrapper (Open MPI or MPICH)."""
    if not shutil.which(mpicc):
        return ()
    out = _run([mpicc, "--showme:compile"])  # Open MPI
    if out is None:
        out = _run([mpicc, "-show"])  # MPICH
    if out is None:
        return ()
    dirs = []
    words = shlex.split(out)
    i = 0
    while i < len(words):
        w = words[i]
        if w == "-I" and i + 1 < len(words):
            dirs.append(words[i + 1])
            i += 1
        elif w.startswith("-I"):
            dirs.append(w[2:])
        i += 1
    return tuple(dirs)


def system_include_args() -> list:
    """Arguments that make libclang see compiler and MPI headers as system headers."""
    args = []
    gcc = gcc_include_dir()
    if gcc:
        args += ["-isystem", gcc]
    for d in mpi_include_dirs(os.environ.get("BAMBOO_MPICC", "mpicc")):  # as bamboocc compiles
        args += ["-isystem", d]
    return args


# Warnings that clang makes errors by default and gcc 12, which compiles the translated code,
# does not: old C (implicit int and declarations, int/pointer conversions, K&R code) must
# translate as it compiles. gcc reports them itself, at the user's line (#line), when it
# compiles the translation; the user's -W flags and -Werror apply there.
GCC_LENIENCY = [f"-Wno-error={warning}" for warning in (
    "implicit-function-declaration", "implicit-int", "int-conversion", "incompatible-pointer-types",
    "incompatible-function-pointer-types", "return-type")]

# gcc's C++ suffixes; any other source is C unless `-x c++` says otherwise.
CXX_SOURCE_SUFFIXES = (".cc", ".cp", ".cxx", ".cpp", ".CPP", ".c++", ".C")
# MPI's C++ bindings (removed in MPI-3) are left out of C++ programs: they would call the
# MPI library behind the virtual ranks' back. bamboo.h defines these for the compiler.
NO_MPI_CXX_BINDINGS = ["-DOMPI_SKIP_MPICXX=1", "-DMPICH_SKIP_MPICXX=1"]


def is_cxx_source(path: str, compiler_args=()) -> bool:
    """Whether ``path`` is C++: by its suffix, or by the last ``-x`` among the arguments."""
    language = None
    args = list(compiler_args)
    for i, arg in enumerate(args):
        if arg == "-x" and i + 1 < len(args):
            language = args[i + 1]
        elif arg.startswith("-x") and len(arg) > 2:
            language = arg[2:]
    if language not in (None, "none"):
        return language.startswith("c++")
    return path.endswith(CXX_SOURCE_SUFFIXES)
