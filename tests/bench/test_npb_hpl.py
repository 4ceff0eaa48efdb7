"""How bench/npb/run and bench/hpl/run read the benchmarks' own reports (no MPI)."""

from __future__ import annotations

from bench_scripts import load

npb = load("npb/run", "npb_run")
hpl = load("hpl/run", "hpl_run")


def test_npb_verification_is_read_as_npb_prints_it():
    assert npb.VERIFIED.search(" Verification    =               SUCCESSFUL\n")
    assert not npb.VERIFIED.search(" Verification    =             UNSUCCESSFUL\n")
    assert not npb.VERIFIED.search(" Verification    =            NOT PERFORMED\n")
    assert npb.TIME.search(" Mop/s total     =                 1.00\n Time in seconds =                     0.08\n").group(1) == "0.08"


def test_npb_runs_split_into_layouts_that_divide_them():
    case = npb.Case("dt", "S", 12, ("SH",), 2)
    assert case.label().split() == ["dt.S", "SH", "12", "2x6"]
    # Every run defined can be split over 2 processes, as issue 34 asks (2 x N/2).
    assert all(ranks % 2 == 0 for classes in npb.RUNS.values() for runs in classes.values() for ranks, _ in runs)


def test_hpl_result_line_gives_the_time():
    out = ("T/V                N    NB     P     Q               Time                 Gflops\n"
           "--------------------------------------------------------------------------------\n"
           "WR11C2R4        3000    64     2     4               0.34             5.2941e+01\n")
    found = hpl.RESULT.search(out)
    assert found and found.group(1) == "3000" and float(found.group(5)) == 0.34
    assert not hpl.RESULT.search("T/V                N    NB     P     Q               Time                 Gflops\n")


def test_hpl_input_names_the_problem():
    text = hpl.HPL_DAT.format(n=3000, nb=64, p=2, q=4, pmap=1)
    lines = [line.split()[0] for line in text.splitlines()[4:12]]
    assert lines == ["1", "3000", "1", "64", "1", "1", "2", "4"]
