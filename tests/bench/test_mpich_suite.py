"""bench/mpich-suite/run's reading of MPICH's testlists and Makefile.am rules, and its
verdict on a run's output: the parts that decide what the suite's figures count. No MPI
and no MPICH sources: the inputs below are written in the suite's formats."""

from __future__ import annotations

import pytest

from bench_scripts import load

suite = load("mpich-suite/run", "mpich_suite_run")

TESTLIST = """\
# a comment line
alpha 4
alpha 7 arg=-n arg=100
beta
  # indented comment

gamma 2 timeLimit=90 mpiversion=3.0 env=MPIR_CVAR_X=1 xfail=ticket1
delta 10 resultTest=TestStatus   # trailing comment
@largetest@huge 1 mpiversion=3.0
loose 2 strict=false
"""


def test_testlist_fields():
    entries = suite.parse_testlist(TESTLIST, "coll")
    assert [(e.name, e.nprocs) for e in entries] == [
        ("alpha", 4), ("alpha", 7), ("beta", 1), ("gamma", 2), ("delta", 10), ("loose", 2)]
    alpha7, beta, gamma, delta, loose = entries[1:]
    assert alpha7.args == ["-n", "100"]
    assert alpha7.id == "coll/alpha 7 -n 100"
    assert (gamma.time_limit, gamma.mpiversion, gamma.env, gamma.xfail) == (
        90, (3, 0), {"MPIR_CVAR_X": "1"}, "ticket1")
    assert delta.result_test == "TestStatus"
    assert not loose.strict and gamma.strict


def test_large_tests_are_substituted_as_configure_would():
    names = [e.name for e in suite.parse_testlist(TESTLIST, "coll", large_tests=True)]
    assert "huge" in names


def test_keys_not_applied_leave_the_entry_out():
    entry, = suite.parse_testlist("alpha 2 init=Setup colour=red\n", "coll")
    assert suite.skip_reason(entry, max_ranks=8) == (
        "testlist keys this runner does not apply: init, colour")


def test_build_hints_are_not_entries():
    assert suite.parse_testlist("!../util:dtypes.o\nalpha 2\n", "coll")[0].name == "alpha"


MAKEFILE_AM = """\
noinst_PROGRAMS = \\
    alpha \\
    alpha_full
alpha_full_SOURCES = alpha.c
alpha_full_CPPFLAGS = -DFULL_RUN $(AM_CPPFLAGS)
nbalpha_SOURCES   = alpha.c
nbalpha_CPPFLAGS  = -DUSE_NBC \\
    $(AM_CPPFLAGS)
sendtypes_LDADD = $(LDADD) $(LDADDDATA)
withmath_LDADD = $(LDADD) -lm
large_thing_SOURCES = large-thing.c
"""


def test_makefile_rules():
    rules = suite.parse_makefile_am(MAKEFILE_AM)
    assert rules["alpha_full"] == {"SOURCES": "alpha.c", "CPPFLAGS": "-DFULL_RUN $(AM_CPPFLAGS)"}
    assert rules["nbalpha"]["CPPFLAGS"].split() == ["-DUSE_NBC", "$(AM_CPPFLAGS)"]
    assert "noinst" not in rules


@pytest.mark.parametrize("name, sources, defines", [
    ("alpha", ["coll/alpha.c"], []),                         # automake's default
    ("alpha_full", ["coll/alpha.c"], ["-DFULL_RUN"]),        # another program's source
    ("nbalpha", ["coll/alpha.c"], ["-DUSE_NBC"]),
    ("sendtypes", ["coll/sendtypes.c", "util/dtypes.c"], []),  # an extra helper of util/
    ("withmath", ["coll/withmath.c"], []),
    ("large-thing", ["coll/large-thing.c"], []),             # automake's _ for -
])
def test_sources_resolved(name, sources, defines):
    present = {"coll/alpha.c", "coll/sendtypes.c", "coll/withmath.c", "coll/large-thing.c",
               "util/dtypes.c"}
    target = suite.resolve("coll", name, suite.parse_makefile_am(MAKEFILE_AM), present.__contains__)
    assert (target.sources, target.defines) == (sources, defines)


def test_missing_source_is_unresolved():
    assert suite.resolve("coll", "ghost", {}, lambda path: False) is None


def test_skip_reasons():
    entry = suite.parse_testlist("a 10\nb 2 mpiversion=3.0\nc 2 mpiversion=4.0\n"
                                 "d 2 strict=false\ne 2 xfail=ticket9\nf 2 mpix=true\n",
                                 "pt2pt")
    reasons = [suite.skip_reason(e, max_ranks=8) for e in entry]
    assert reasons[0].startswith("needs 10 ranks")
    assert reasons[1] is None                         # Open MPI 4 implements MPI 3.1
    assert reasons[2] == "needs MPI 4.0"
    assert "strict=false" in reasons[3]
    assert reasons[4] is None                         # strict mode runs MPICH's xfails
    assert "mpix=true" in reasons[5]


def test_decompositions():
    assert suite.decompositions(6) == {"1xN": (1, 6), "2xN/2": (2, 3)}
    assert suite.decompositions(5) == {"1xN": (1, 5), "2xN/2": None}
    assert suite.decompositions(1)["2xN/2"] is None


@pytest.mark.parametrize("result_test, status, output, passed", [
    ("", 0, " No Errors\n", True),
    ("", 0, " No Errors\nTest Passed\n", True),
    ("", 0, "", False),                               # silence is not success
    ("", 0, "Test Passed\n", False),                  # the default wants " No Errors"
    ("", 0, " Found 1 errors\n", False),
    ("", 0, " No Errors\nwarning: something\n", False),
    ("", 1, " No Errors\n", False),
    ("TestStatus", 1, "", True),
    ("TestStatus", 0, "", False),
    ("TestTimeout", 1, "Timeout reached\n\n", True),
    ("TestTimeout", 1, "Timeout reached\nabort message\n", False),
    ("TestTimeout", 0, "", False),
])
def test_verdict(result_test, status, output, passed):
    assert (suite.judge(result_test, status, output) is None) == passed
