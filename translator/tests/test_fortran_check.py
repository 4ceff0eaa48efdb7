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
                             "      call mpi_init(ierr)\n      call MPI_WIN_ALLOCATE(0, 0, ierr)\n      end\n")
    assert not result.ok
    assert result.diagnostics == [f"{source}:4:12: error: MPI_WIN_ALLOCATE is not supported in Fortran programs "
                                  "under Bamboo (docs/fortran.md lists the MPI routines that are)"]


def test_lines_of_a_preprocessed_file_are_the_users(tmp_path):
    (tmp_path / "defs.h").write_text("#define NX 4\n#define NY 5\n")
    source, result = checked(tmp_path, "p.F90", "#include \"defs.h\"\nprogram p\n  integer :: ierr, a(NX)\n"
                             "#ifdef EXTRA\n  call mpi_comm_spawn(ierr)\n#endif\n  call mpi_win_shared_query(ierr)\n"
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


HALO = """program p
  use mpi
  integer :: ierr, d, lo(2), req(2)
  double precision :: u(0:9), w(2)
  !$bamboo send
  do d = 1, 2
    call mpi_isend(u(d), 1, MPI_DOUBLE_PRECISION, lo(d), d, MPI_COMM_WORLD, req(d), ierr)
  end do ! the faces
  !$bamboo receive
  do d = 1, 2
    if (lo(d) >= 0) call mpi_recv(u(8 + d), 1, MPI_DOUBLE_PRECISION, lo(d), 3 - d, MPI_COMM_WORLD, &
                                  MPI_STATUS_IGNORE, ierr)
  end do
end program p
"""


def test_a_receive_block_of_receives_only_is_announced_whole_on_the_directives_line(tmp_path):
    source, result = checked(tmp_path, "p.f90", HALO)
    assert result.ok and result.diagnostics == []
    lines = result.text.splitlines()
    assert len(lines) == len(HALO.splitlines())
    assert lines[4] == "  CALL bamboo_send_block_begin()"
    assert lines[7] == "  end do; CALL bamboo_send_block_end() ! the faces"
    assert lines[8] == ("  DO d = 1, 2; IF (lo(d) >= 0) THEN; CALL bamboo_expect_receive(u(8 + d), 1, "
                        "MPI_DOUBLE_PRECISION, lo(d), 3 - d, MPI_COMM_WORLD); END IF; END DO; "
                        f"CALL bamboo_fire_at('{source}', 9)")


def test_a_block_that_unpacks_is_announced_by_source_and_tag(tmp_path):
    text = HALO.replace("  end do\nend program", "    u(d) = u(8 + d)\n  end do\nend program")
    source, result = checked(tmp_path, "p.f90", text)
    assert result.text.splitlines()[8] == ("  DO d = 1, 2; IF (lo(d) >= 0) THEN; CALL bamboo_expect(lo(d), 3 - d, "
                                           f"MPI_COMM_WORLD); END IF; END DO; CALL bamboo_fire_at('{source}', 9)")


def test_receives_into_one_buffer_in_a_loop_are_not_announced_whole(tmp_path):
    # Announced whole, both receives would be posted into w(1) at once (erroneous MPI).
    _, result = checked(tmp_path, "p.f90", HALO.replace("u(8 + d), 1", "w(1), 1"))
    assert "CALL bamboo_expect(lo(d), 3 - d, MPI_COMM_WORLD)" in result.text.splitlines()[8]


def test_a_rule_that_would_read_what_the_block_assigns_is_left_out_with_a_note(tmp_path):
    text = HALO.replace("  end do\nend program", "    lo(1) = 0\n  end do\nend program")
    source, result = checked(tmp_path, "p.f90", text)
    assert result.ok and result.text.splitlines()[8] == "  !$bamboo send".replace("send", "receive")
    assert result.diagnostics == [f"{source}:9:3: note: the receive block's messages are not announced: it assigns "
                                  "lo, which the rule reads; each of its receives waits on its own"]


def test_a_preprocessed_files_directives_are_lowered_on_its_own_lines(tmp_path):
    (tmp_path / "sizes.h").write_text("#define TWO 2\n")
    text = "#include \"sizes.h\"\n" + HALO.replace("do d = 1, 2", "do d = 1, TWO")
    source, result = checked(tmp_path, "p.F90", text)
    lines = result.text.splitlines()
    assert lines[0] == "#include \"sizes.h\"" and lines[5] == "  CALL bamboo_send_block_begin()"
    assert lines[9].startswith("  DO d = 1, 2; IF (lo(d) >= 0) THEN; CALL bamboo_expect_receive(")
    assert lines[9].endswith(f"CALL bamboo_fire_at('{source}', 10)")


def test_a_receive_into_a_pointer_or_an_assumed_shape_array_is_not_announced_whole(tmp_path):
    # gfortran may pass either as a temporary copy, gone before an announced message lands.
    for declaration in ("double precision, pointer :: u(:)", "double precision :: u(:)"):
        text = HALO.replace("end program p", "end subroutine p").replace("program p\n", "subroutine p(u)\n")
        text = text.replace("  double precision :: u(0:9), w(2)\n", f"  {declaration}\n")
        _, result = checked(tmp_path, "p.f90", text.replace("u(8 + d), 1", "u, 1").replace("3 - d, MPI_COMM", "d, MPI_COMM"))
        assert "CALL bamboo_expect(lo(d), d, MPI_COMM_WORLD)" in result.text.splitlines()[8], declaration


def test_a_whole_array_received_with_a_datatype_per_loop_is_announced_whole(tmp_path):
    text = HALO.replace("double precision :: u(0:9), w(2)", "double precision, allocatable :: u(:)\n  integer :: ghost(2)")
    _, result = checked(tmp_path, "p.f90", text.replace("u(8 + d), 1, MPI_DOUBLE_PRECISION", "u, 1, ghost(d)"))
    assert "CALL bamboo_expect_receive(u, 1, ghost(d), lo(d), 3 - d, MPI_COMM_WORLD)" in result.text.splitlines()[9]


def test_fixed_form_lines_keep_only_their_columns_the_compiler_reads(tmp_path):
    # The translation is compiled without a line length limit, for its long rules: the
    # sequence numbers old code keeps in columns 73-80 must not become code.
    text = ("      program p\n      integer ierr, x, st(6)\n      integer comm\nc$bamboo receive\n"
            + "      call mpi_recv(x, 1, 7, 0, 0, comm,".ljust(72) + "00000040\n"
            + "     &              st, ierr)".ljust(72) + "00000050\n      end\n")
    _, result = checked(tmp_path, "p.f", text)
    assert result.ok and result.diagnostics == []
    lines = result.text.splitlines()
    assert lines[3].startswith("      CALL bamboo_expect_receive(x, 1, 7, 0, 0, comm); CALL bamboo_fire_at(")
    assert lines[4] == "      call mpi_recv(x, 1, 7, 0, 0, comm,".ljust(72)
    assert lines[5] == "     &              st, ierr)".ljust(72)


def test_priority_is_set_where_it_stands_and_dimension_is_checked(tmp_path):
    text = HALO.replace("  !$bamboo send\n", "  !$bamboo dimension 2\n  !$bamboo priority 10 - lo(1)\n  !$bamboo send\n", 1)
    source, result = checked(tmp_path, "p.f90", text)
    assert result.ok and result.diagnostics == []
    lines = result.text.splitlines()
    assert lines[4] == "  !$bamboo dimension 2" and lines[5] == "  CALL bamboo_set_priority(10 - lo(1))"
    _, result = checked(tmp_path, "q.f90", text.replace("dimension 2", "dimension two"))
    assert not result.ok and result.diagnostics[0].endswith("error: '!$bamboo dimension' takes a positive integer")


RING = """program p
  integer :: prev, next, a(4), b(4), c
  !$comm_parameters sender(prev) receiver(next)
  block
    !$comm_p2p sbuf(a) rbuf(b)
    c = 1
    !$comm_p2p sbuf(b) rbuf(a) count(2)
    c = 2
  end block ! done
end program p
"""


def test_comm_directives_post_on_their_lines_and_complete_at_the_regions_end(tmp_path):
    source, result = checked(tmp_path, "p.f90", RING)
    assert result.ok and result.diagnostics == []
    lines = result.text.splitlines()
    assert len(lines) == len(RING.splitlines())
    assert lines[4] == ("    CALL bamboo_cd_transfer(a, b, min(size(a), size(b)) * (storage_size(a) / 8), prev, next, "
                        f".TRUE., .TRUE., 32000, '{source}', 5)")
    # the second names the first's buffers: what the region posted completes first
    assert lines[6] == (f"    CALL bamboo_cd_complete('{source}', 7); CALL bamboo_cd_transfer(b, a, (2) * "
                        f"(storage_size(b) / 8), prev, next, .TRUE., .TRUE., 32001, '{source}', 7)")
    assert lines[8] == f"  end block; CALL bamboo_cd_complete('{source}', 3) ! done"


def test_comm_directives_say_what_they_cannot_lower_where_they_stand(tmp_path):
    cases = {
        "sbuf(a) rbuf(b) target(TARGET_COMM_SHMEM)": "target(TARGET_COMM_SHMEM) is not lowered for Fortran yet",
        "sbuf(a, b) rbuf(b, a)": "lists of buffers are not lowered for Fortran yet",
        "sbuf(a(2)) rbuf(b)": "give count(...): the size of 'a(2)' is not known",
        "sbuf(a) rbuf(d)": "rbuf 'd' is REAL, sbuf 'a' is INTEGER: the types must agree",
        "sbuf(a) rbuf(b) sendwhen(.true.)": "sendwhen and receivewhen go together",
        "sbuf(a) rbuf(b) place_sync(END_PARAM_REGION)": "'place_sync' is a clause of comm_parameters only",
        "sbuf(a) rbuf(b) colour(red)": "unknown clause 'colour'",
    }
    for clauses, message in cases.items():
        text = RING.replace("sbuf(a) rbuf(b)", clauses, 1).replace("integer :: prev, next, a(4), b(4), c",
                                                                   "integer :: prev, next, a(4), b(4)\n  integer :: c\n  real :: d(4)")
        source, result = checked(tmp_path, "p.f90", text)
        line = text.splitlines().index(f"    !$comm_p2p {clauses}") + 1
        assert not result.ok, clauses
        assert any(f"{source}:{line}:5: error: comm_p2p: {message}" in d for d in result.diagnostics), (clauses, result)


def test_an_instance_in_a_loop_without_max_comm_iter_completes_before_it_posts_again(tmp_path):
    text = RING.replace("  block\n    !$comm_p2p sbuf(a) rbuf(b)\n    c = 1", "  do c = 1, 2\n    !$comm_p2p sbuf(a(c)) rbuf(b(c)) count(1)\n    c = c")
    text = text.replace("    !$comm_p2p sbuf(b) rbuf(a) count(2)\n    c = 2\n  end block", "  end do")
    source, result = checked(tmp_path, "p.f90", text)
    assert result.ok, result.diagnostics
    assert result.text.splitlines()[4].startswith(f"    CALL bamboo_cd_complete('{source}', 5); CALL bamboo_cd_transfer(")
    with_iterations = text.replace("receiver(next)", "receiver(next) max_comm_iter(2)")
    _, result = checked(tmp_path, "q.f90", with_iterations)
    assert result.text.splitlines()[4].startswith("    CALL bamboo_cd_transfer(")


def test_a_return_out_of_a_comm_region_is_an_error(tmp_path):
    source, result = checked(tmp_path, "p.f90", RING.replace("    c = 2\n", "    return\n"))
    assert not result.ok
    assert (f"{source}:8:5: error: a jump out of the comm_parameters region at line 3 would skip the completion "
            "of its transfers") in result.diagnostics
