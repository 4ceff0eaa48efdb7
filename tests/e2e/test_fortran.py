"""End to end: Fortran programs print the same under Bamboo (P processes x VF tasks) as
built with plain mpifort and run with P*VF ranks; their module, COMMON and SAVE data are
each task's own."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

import pytest

from harness import BAMBOOCC, REPO, WORKER_MODES, run_bamboo

FORTRAN_DIR = Path(__file__).parent / "fortran"
BAMBOOFORT = REPO / "bin" / "bamboofort"
# name -> sources: one file each, and a Fortran program with C in it.
PROGRAMS = {path.stem: [path] for path in sorted(FORTRAN_DIR.glob("*.f*"))}
PROGRAMS["mixed"] = [FORTRAN_DIR / "mixed" / "main.f90", FORTRAN_DIR / "mixed" / "ring_sum.c"]

# Within one process (VF 3 on 1) and between processes (VF 1 and 4 on 2): make test stays
# within its 15 minutes.
CONFIGS = [(1, 3), (2, 1), (2, 4)]


def test_the_corpus_is_there():
    assert len(PROGRAMS) >= 10, sorted(PROGRAMS)


@pytest.mark.parametrize("processes,vf", CONFIGS, ids=[f"P{p}xVF{v}" for p, v in CONFIGS])
@pytest.mark.parametrize("name", PROGRAMS)
def test_same_output_as_plain_mpifort(name, processes, vf, builds, ground_truth):
    sources = PROGRAMS[name]
    expected = ground_truth(name, sources, processes * vf)
    _, bamboo = builds(name, sources)
    run = run_bamboo(bamboo, processes, vf)
    assert run.returncode == expected.returncode, run.stderr
    assert run.lines() == expected.lines()


@pytest.mark.parametrize("mode", ["single-thread", "two-workers-stealing"])
@pytest.mark.parametrize("name", ["module_data", "common_blocks", "nonblocking"])
def test_worker_modes(name, mode, builds, ground_truth):
    # Tasks that move between workers keep their copy of the program.
    sources = PROGRAMS[name]
    expected = ground_truth(name, sources, 2 * 3)
    _, bamboo = builds(name, sources)
    run = run_bamboo(bamboo, 2, 3, [], WORKER_MODES[mode])
    assert run.returncode == 0, run.stderr
    assert run.lines() == expected.lines()


def bamboofort(*args: str, cwd: Path) -> subprocess.CompletedProcess:
    return subprocess.run([str(BAMBOOFORT), *args], capture_output=True, text=True, cwd=cwd)


def test_an_mpi_routine_without_a_binding_is_a_located_error(tmp_path):
    done = bamboofort("-o", "prog", str(FORTRAN_DIR / "driver" / "unsupported.f90"), cwd=tmp_path)
    assert done.returncode == 1
    assert f"{FORTRAN_DIR / 'driver' / 'unsupported.f90'}:7:8: error: MPI_WIN_SHARED_QUERY is not supported" in done.stderr
    assert not (tmp_path / "prog").exists()


COMM_DIRECTIVES = FORTRAN_DIR / "comm_directives"


@pytest.mark.parametrize("processes,vf", [(1, 4), (2, 1), (2, 3)], ids=["P1xVF4", "P2xVF1", "P2xVF3"])
def test_comm_directives_move_what_the_mpi_calls_move(processes, vf, builds, ground_truth):
    # exchange.f90's directives, lowered to MPI two-sided, against the same program written
    # with MPI calls (exchange_mpi.f90) under plain mpifort.
    expected = ground_truth("exchange_mpi", [COMM_DIRECTIVES / "exchange_mpi.f90"], processes * vf)
    _, bamboo = builds("exchange", [COMM_DIRECTIVES / "exchange.f90"])
    run = run_bamboo(bamboo, processes, vf)
    assert run.returncode == 0, run.stderr
    assert run.lines() == expected.lines()


def test_a_comm_directive_that_cannot_be_lowered_is_an_error_where_it_stands(tmp_path):
    source = FORTRAN_DIR / "driver" / "comm_directive.f90"
    done = bamboofort("-o", "prog", str(source), cwd=tmp_path)
    assert done.returncode == 1
    assert (f"{source}:7:1: error: comm_p2p: target(TARGET_COMM_MPI_1SIDE) is not lowered for Fortran yet "
            "(only TARGET_COMM_MPI_2SIDE)") in done.stderr


EVALUATION_POINTS = re.compile(r"worker 0: .* evaluation-points (\d+) ")


def test_receive_blocks_wait_at_their_firing_rules(builds, ground_truth):
    # halo_directives.f90: each task passes 6 + 1 receive blocks, rank 0 one more; every one
    # is an evaluation point where the task waits for the block's messages (a rule that was
    # not written would leave the count at 0).
    sources = PROGRAMS["halo_directives"]
    _, bamboo = builds("halo_directives", sources)
    run = run_bamboo(bamboo, 1, 4, [], ["--bamboo-single-thread", "--bamboo-stats"])
    assert run.returncode == 0, run.stderr
    assert run.lines() == ground_truth("halo_directives", sources, 4).lines()
    assert [int(n) for n in EVALUATION_POINTS.findall(run.stderr)] == [4 * 7 + 1], run.stderr


def test_a_directive_on_nothing_is_an_error_and_a_rule_it_cannot_write_a_note(tmp_path):
    source = tmp_path / "p.f90"
    source.write_text("program p\n  use mpi\n  integer :: ierr, x, y\n  call MPI_Init(ierr)\n"
                      "  !$bamboo receive\n  call MPI_Recv(x, 1, MPI_INTEGER, 0, 0, MPI_COMM_SELF, MPI_STATUS_IGNORE, ierr)\n"
                      "  !$bamboo receive\n  do x = 1, 2\n    call helper(y)\n  end do\n"
                      "  call MPI_Finalize(ierr)\n  !$bamboo send\nend program p\n")
    done = bamboofort("-c", str(source), cwd=tmp_path)
    assert done.returncode == 1
    assert f"{source}:7:3: note: the receive block's messages are not announced: it calls HELPER" in done.stderr
    assert f"{source}:12:3: error: '!$bamboo send' must be followed by a statement or construct" in done.stderr


def test_compiled_apart_and_linked_by_bamboocc(tmp_path, ground_truth):
    # Objects made by bamboofort -c, linked by bamboocc, which finds the Fortran in them.
    sources = PROGRAMS["mixed"]
    for source in sources:
        done = bamboofort("-O2", "-c", str(source), cwd=tmp_path)
        assert done.returncode == 0, done.stderr
    linked = subprocess.run([str(BAMBOOCC), "-o", "prog", "main.o", "ring_sum.o"], capture_output=True, text=True,
                            cwd=tmp_path)
    assert linked.returncode == 0, linked.stderr
    run = run_bamboo(tmp_path / "prog", 2, 2)
    assert run.returncode == 0, run.stderr
    assert run.lines() == ground_truth("mixed", sources, 4).lines()


def test_a_c_object_translated_for_a_c_program_is_refused(tmp_path):
    sources = PROGRAMS["mixed"]
    assert bamboofort("-c", str(sources[0]), cwd=tmp_path).returncode == 0
    translated = subprocess.run([str(BAMBOOCC), "-c", str(sources[1])], capture_output=True, text=True, cwd=tmp_path)
    assert translated.returncode == 0, translated.stderr
    done = bamboofort("-o", "prog", "main.o", "ring_sum.o", cwd=tmp_path)
    assert done.returncode == 1
    assert "ring_sum.o was translated for a C program" in done.stderr


def test_the_bindings_table_is_what_the_library_defines():
    from bamboo.fortran.bindings import BINDINGS
    library = REPO / "build" / "runtime" / "libbamboo_fortran.a"
    done = subprocess.run(["nm", "--defined-only", str(library)], capture_output=True, text=True, check=True)
    symbols = [line.split()[-1] for line in done.stdout.splitlines() if len(line.split()) == 3]
    defined = {symbol[:-1] for symbol in symbols if symbol.startswith("mpi_") and symbol.endswith("_")}
    assert defined == BINDINGS
    documented = (REPO / "docs" / "fortran.md").read_text()
    missing = sorted(name for name in BINDINGS if f"`{name.upper()}`" not in documented)
    assert not missing, f"docs/fortran.md does not list {missing}"


def test_a_task_that_waits_forever_in_a_rule_is_reported_at_its_line(tmp_path):
    source = tmp_path / "stuck.f90"
    source.write_text("program stuck\n  use mpi\n  integer :: ierr, x\n  call MPI_Init(ierr)\n  !$bamboo receive\n"
                      "  call MPI_Recv(x, 1, MPI_INTEGER, 0, 5, MPI_COMM_WORLD, MPI_STATUS_IGNORE, ierr)\n"
                      "  call MPI_Finalize(ierr)\nend program stuck\n")
    assert bamboofort("-o", "stuck", "stuck.f90", cwd=tmp_path).returncode == 0
    run = run_bamboo(tmp_path / "stuck", 1, 2, [], ["--bamboo-deadlock-timeout", "1"])
    assert run.returncode != 0
    assert ("task vrank 1 waits in its firing rule at stuck.f90:5 for: a message from vrank 0, tag 5, "
            "MPI_COMM_WORLD") in run.stderr


def test_bamboofort_without_inputs_answers_as_mpifort(tmp_path):
    # Build systems ask the compiler's version before they compile anything.
    done = bamboofort("--version", cwd=tmp_path)
    assert done.returncode == 0 and done.stdout.startswith("GNU Fortran"), done.stderr


def test_mpi_calls_are_checked_through_bamboos_mpif_h(tmp_path):
    # fparser reads the program with Bamboo's mpif.h included (its interface of a Fortran 2018
    # assumed-type argument left out, which fparser cannot parse): the check still runs.
    source = tmp_path / "old.f"
    source.write_text("      program old\n      include 'mpif.h'\n      integer ierr\n"
                      "      call mpi_init(ierr)\n      call mpi_win_shared_query(ierr, ierr)\n      end\n")
    done = bamboofort("-c", "old.f", cwd=tmp_path)
    assert done.returncode == 1
    assert "old.f:5:12: error: MPI_WIN_SHARED_QUERY is not supported" in done.stderr
    assert "fparser cannot parse" not in done.stderr


def test_a_task_opening_a_unit_another_task_holds_is_warned(tmp_path):
    # Each rank writes its own file on unit 20, as MPI processes may: the tasks of a process
    # share libgfortran's units, so the second OPEN is reported, with its line. A unit closed
    # before the next task opens it is not.
    # The files go to tmp_path: the program runs in the test's directory.
    source = tmp_path / "units.f90"
    source.write_text("program units\n  use mpi\n  integer :: ierr, rank\n  character(512) :: name\n"
                      "  call MPI_Init(ierr)\n  call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)\n"
                      f"  write(name, '(a,i0)') '{tmp_path}/out.', rank\n"
                      "  open(unit=20, file=name)\n  call MPI_Barrier(MPI_COMM_WORLD, ierr)\n"
                      "  close(20)\n  call MPI_Barrier(MPI_COMM_WORLD, ierr)\n"
                      f"  if (rank == 0) open(unit=21, file='{tmp_path}/shared.txt')\n  if (rank == 0) close(21)\n"
                      "  call MPI_Barrier(MPI_COMM_WORLD, ierr)\n"
                      f"  if (rank == 1) open(unit=21, file='{tmp_path}/shared.txt')\n  if (rank == 1) close(21)\n"
                      "  call MPI_Finalize(ierr)\nend program units\n")
    assert bamboofort("-o", "units", "units.f90", cwd=tmp_path).returncode == 0
    run = run_bamboo(tmp_path / "units", 1, 2, [], ["--bamboo-single-thread"])
    assert run.returncode == 0, run.stderr
    warnings = [line for line in run.stderr.splitlines() if "warning:" in line]
    assert len(warnings) == 1, run.stderr
    assert "opens Fortran unit 20 at units.f90:8, which task vrank " in warnings[0], run.stderr
