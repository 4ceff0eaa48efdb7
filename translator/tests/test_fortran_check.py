"""The Fortran front end (bamboo/fortran/check.py): what it reports, and where."""
from __future__ import annotations

from pathlib import Path

from bamboo.cli import main as bamboo_main
from bamboo.fortran.check import check_fortran


def checked(tmp_path: Path, name: str, text: str, flags=()):
    source = tmp_path / name
    source.write_text(text)
    return source, check_fortran(str(source), list(flags), [str(tmp_path)])


def test_an_unbound_routine_is_an_error_at_its_name_in_fixed_form(tmp_path):
    source, result = checked(tmp_path, "p.f", "      program p\n      integer ierr\n"
                             "      call mpi_init(ierr)\n      call MPI_WIN_FENCE(0, 0, ierr)\n      end\n")
    assert not result.ok
    assert result.diagnostics == [f"{source}:4:12: error: MPI_WIN_FENCE is not supported in Fortran programs "
                                  "under Bamboo (docs/fortran.md lists the MPI routines that are)"]


def test_lines_of_a_preprocessed_file_are_the_users(tmp_path):
    (tmp_path / "defs.h").write_text("#define NX 4\n#define NY 5\n")
    source, result = checked(tmp_path, "p.F90", "#include \"defs.h\"\nprogram p\n  integer :: ierr, a(NX)\n"
                             "#ifdef EXTRA\n  call mpi_comm_spawn(ierr)\n#endif\n  call mpi_ibarrier(ierr)\n"
                             "end program p\n", flags=["-DEXTRA"])
    assert [d.split(": error:")[0] for d in result.diagnostics] == [f"{source}:5:8", f"{source}:7:8"]


def test_supported_calls_and_plain_comments_pass(tmp_path):
    _, result = checked(tmp_path, "p.f90", "program p\n  use mpi\n  integer :: ierr\n  ! call mpi_spawn\n"
                        "  call mpi_init(ierr)\n  call MPI_Finalize(ierr)\nend program p\n")
    assert result.ok and result.diagnostics == []


def test_mpi_f08_is_refused_where_it_is_used(tmp_path):
    source, result = checked(tmp_path, "p.f90", "program p\n  use mpi_f08\nend program p\n")
    assert not result.ok
    assert result.diagnostics[0].startswith(f"{source}:2:7: error: 'use mpi_f08' is not supported")


def test_a_file_fparser_cannot_read_but_gfortran_compiles_is_a_warning(tmp_path):
    # A DEC extension gfortran takes with -fdec: fparser has no parse for it, so the MPI calls
    # go unchecked here (the link checks them) rather than the build failing.
    source, result = checked(tmp_path, "p.f90", "program p\n  integer :: ierr\n  structure /point/\n"
                             "    integer x\n  end structure\n  record /point/ q\n  call mpi_init(ierr)\n"
                             "  q.x = 1\nend program p\n", flags=["-fdec"])
    assert result.ok
    assert len(result.diagnostics) == 1 and ": warning: fparser cannot parse this statement" in result.diagnostics[0]


def test_a_syntax_error_is_left_to_gfortran(tmp_path):
    _, result = checked(tmp_path, "p.f90", "program p\n  integer :: x\n  x = = 3\nend program p\n")
    assert result.ok and result.diagnostics == []


def test_bamboo_translate_prints_a_fortran_file_as_it_is_compiled(tmp_path, capsys):
    text = "program p\n  use mpi\n  integer :: ierr\n  call mpi_init(ierr)\nend program p\n"
    (tmp_path / "p.f90").write_text(text)
    assert bamboo_main(["translate", str(tmp_path / "p.f90"), "-o", str(tmp_path / "out.f90")]) == 0
    assert (tmp_path / "out.f90").read_text() == text
    (tmp_path / "q.f90").write_text(text.replace("mpi_init(ierr)", "mpi_comm_spawn(ierr)"))
    assert bamboo_main(["translate", str(tmp_path / "q.f90")]) == 1
    assert ":4:8: error: MPI_COMM_SPAWN is not supported" in capsys.readouterr().err
