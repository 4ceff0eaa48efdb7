"""bamboocc behaves like mpicc: separate compilation, linking objects from elsewhere,
compiler-style errors."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from harness import BAMBOOCC, REPO, build_plain, mpirun, run_bamboo, run_plain

PROGRAMS_DIR = Path(__file__).parent / "programs"


def bamboocc(*args, cwd=None):
    return subprocess.run([str(BAMBOOCC), *map(str, args)], capture_output=True, text=True, cwd=cwd)


def test_separate_compilation_and_untranslated_objects(tmp_path):
    multifile = PROGRAMS_DIR / "multifile"
    # One file compiled with -c (object named after the source, in the working directory)...
    done = bamboocc("-c", "-O2", multifile / "stencil.c", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert (tmp_path / "stencil.o").is_file()
    # ...one with -c -o, and a helper without MPI built by the plain C compiler.
    done = bamboocc("-c", multifile / "main.c", "-o", tmp_path / "main-bamboo.o")
    assert done.returncode == 0, done.stderr
    helper = tmp_path / "unused_helper.c"
    helper.write_text("double bamboo_test_unused_helper(double x) { return 2 * x; }\n")
    subprocess.run(["cc", "-c", str(helper), "-o", str(tmp_path / "helper.o")], check=True)
    done = bamboocc(tmp_path / "main-bamboo.o", tmp_path / "stencil.o", tmp_path / "helper.o",
                    "-o", tmp_path / "prog")
    assert done.returncode == 0, done.stderr
    plain = build_plain(sorted(multifile.glob("*.c")), tmp_path / "plain")
    assert run_bamboo(tmp_path / "prog", 2, 2).lines() == run_plain(plain, 4).lines()


def test_translation_errors_are_compiler_style(tmp_path):
    source = tmp_path / "bad.c"
    source.write_text('#include <mpi.h>\n'
                      'int main(int argc, char **argv) {\n'
                      '  MPI_Comm child;\n'
                      '  MPI_Init(&argc, &argv);\n'
                      '  MPI_Comm_spawn("w", MPI_ARGV_NULL, 1, MPI_INFO_NULL, 0, MPI_COMM_SELF, &child, NULL);\n'
                      '  MPI_Finalize(); return 0; }\n')
    done = bamboocc(source, "-o", tmp_path / "bad")
    assert done.returncode != 0
    assert f"{source}:5:3: error:" in done.stderr
    assert "MPI_Comm_spawn is not supported" in done.stderr
    assert not (tmp_path / "bad").exists()


def test_c_errors_point_at_the_users_file(tmp_path):
    source = tmp_path / "typo.c"
    source.write_text('#include <mpi.h>\n'
                      'int main(int argc, char **argv) {\n'
                      '  MPI_Init(&argc, &argv);\n'
                      '  undeclared_thing = 3;\n'
                      '  MPI_Finalize(); return 0; }\n')
    done = bamboocc(source, "-o", tmp_path / "typo")
    assert done.returncode != 0
    assert f"{source.name}:4:3" in done.stderr


@pytest.mark.parametrize("name,extra", [("ring.cpp", []), ("ring.cc", []), ("ring.c", ["-x", "c++"])])
def test_cxx_sources_are_translated(tmp_path, name, extra):
    """A C++ source (by its suffix, or after -x c++) is translated and built with mpicxx: its
    static member is per task, and C++-only code (a reference, a class) compiles."""
    source = tmp_path / name
    source.write_text('#include <mpi.h>\n#include <cstdio>\n'
                      'struct Rank { static int mine; };\nint Rank::mine = -1;\n'
                      'int main(int argc, char **argv) { MPI_Init(&argc, &argv);\n'
                      '  int &mine = Rank::mine; MPI_Comm_rank(MPI_COMM_WORLD, &mine);\n'
                      '  MPI_Barrier(MPI_COMM_WORLD); std::printf("rank %d\\n", Rank::mine);\n'
                      '  MPI_Finalize(); return 0; }\n')
    done = bamboocc(*extra, source, "-o", tmp_path / "ring")
    assert done.returncode == 0, done.stderr
    run = run_bamboo(tmp_path / "ring", 1, 3)
    assert run.returncode == 0, run.stderr
    assert run.lines() == ["rank 0", "rank 1", "rank 2"]


def test_c_and_cxx_sources_together(tmp_path):
    """The C++ compiler takes a .c file for C++: among C++ sources, a C one stays C."""
    c_source = tmp_path / "helper.c"
    c_source.write_text("int twice(int x) { int new = 2 * x; return new; }\n")  # not C++
    cxx_source = tmp_path / "main.cpp"
    cxx_source.write_text('#include <mpi.h>\n#include <cstdio>\nextern "C" int twice(int);\n'
                          'int main(int argc, char **argv) { MPI_Init(&argc, &argv); int r;\n'
                          '  MPI_Comm_rank(MPI_COMM_WORLD, &r); std::printf("%d\\n", twice(r));\n'
                          '  MPI_Finalize(); return 0; }\n')
    done = bamboocc(c_source, cxx_source, "-o", tmp_path / "mixed")
    assert done.returncode == 0, done.stderr
    assert run_bamboo(tmp_path / "mixed", 1, 2).lines() == ["0", "2"]


# What configure does with CC=bamboocc.
AUTOCONF_LINK_PROBE = """\
/* confdefs.h */
#define PACKAGE_NAME ""
/* Define MPI_Init to an innocuous variant, in case <limits.h> declares MPI_Init. */
#define MPI_Init innocuous_MPI_Init
#include <limits.h>
#undef MPI_Init
/* Override any GCC internal prototype to avoid an error. */
char MPI_Init ();
int
main (void)
{
return MPI_Init ();
  ;
  return 0;
}
"""


def test_autoconf_finds_mpi_functions(tmp_path):
    # AC_CHECK_FUNC declares the function itself, which MPI's prototype would contradict:
    # translated, the probe failed and configure left a package's MPI parts out.
    (tmp_path / "conftest.c").write_text(AUTOCONF_LINK_PROBE)
    done = bamboocc("-O2", "conftest.c", "-o", "conftest", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert (tmp_path / "conftest").is_file()


def test_preprocessing_only_takes_the_source_as_it_is(tmp_path):
    # configure's test of the C preprocessor: it must accept what the compiler would not.
    (tmp_path / "conftest.c").write_text("#include <limits.h>\n\t\t     Syntax error\n")
    done = bamboocc("-E", "conftest.c", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert "Syntax error" in done.stdout
    done = bamboocc("-M", PROGRAMS_DIR / "ring.c", cwd=tmp_path)
    assert done.returncode == 0 and f"{PROGRAMS_DIR / 'ring.c'}" in done.stdout, done.stderr


def test_dependency_files_name_the_users_source(tmp_path):
    source = PROGRAMS_DIR / "ring.c"
    for flags, written in ((["-c", "-MD", "-o", "ring.o"], "ring.d"),
                           (["-c", "-MMD", "-MP", "-MF", "deps/ring.Po", "-MT", "ring.o"], "deps/ring.Po")):
        (tmp_path / "deps").mkdir(exist_ok=True)
        done = bamboocc(*flags, source, cwd=tmp_path)
        assert done.returncode == 0, done.stderr
        text = (tmp_path / written).read_text()
        assert str(source) in text and "bamboocc-" not in text, text
