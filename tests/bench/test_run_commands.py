"""bench/run's command lines: LU's Bamboo runs name the grid by its process columns, so that
every process holds whole process columns at a fixed VF and under --bamboo-vf auto alike."""

from __future__ import annotations

from bench_scripts import load

bench = load("run", "bench_run")


def program_args(config, out) -> list[str]:
    cmd = bench.command(config, out)
    binary = next(i for i, word in enumerate(cmd) if word.endswith(f"/build/{config.variant}"))
    return cmd[binary + 1:]


def test_lu_bamboo_runs_get_the_mpi_grids_columns_at_any_vf(tmp_path):
    for vf in ("1", "4", "auto"):
        args = program_args(bench.Config("lu", "shm", 2, "bamboo", vf), tmp_path)
        assert args[:4] == ["4000", "128", "-2", "column"], vf
    four = program_args(bench.Config("lu", "shm", 4, "bamboo", "auto"), tmp_path)
    assert four[:4] == ["4000", "128", "-2", "column"]  # MPI's 2 x 2 grid: 2 columns


def test_mpi_runs_keep_the_programs_own_grid(tmp_path):
    assert program_args(bench.Config("lu", "shm", 2, "basic", ""), tmp_path) == ["4000", "128"]
