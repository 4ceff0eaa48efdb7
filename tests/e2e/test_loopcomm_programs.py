"""Loop communication optimization end to end: OpenSHMEM programs whose loops read and write
remote data an element at a time (loopcomm/gather.c, scatter.c; inspect.c's indices no LMAD
describes, run through an inspector), built as written with oshcc
(the ground truth) and by bamboocc (vectorized and strip-mined, the run time choosing how),
must print the same at every PE count, at the model's plan and at forced strip counts and
transfer kinds. The report (BAMBOO_LC_REPORT) shows that the optimized loops did run through
the run time. An MPI program with loops of one-element MPI_Get and MPI_Put (loopcomm/rma.c),
built by mpicc, must print the same built by bamboocc --bamboo-comm-only at as many ranks,
and built by bamboocc as Bamboo tasks at P processes x VF."""

from __future__ import annotations

import re
import subprocess

import pytest

from harness import BAMBOOCC, REPO, build, build_plain, mpirun, run_bamboo, run_plain

OSHRUN = (str(REPO / "bin" / "bamboo-oshrun"),)
HERE = REPO / "tests" / "e2e" / "loopcomm"
PROGRAMS = ["gather", "scatter", "inspect"]
# the sites each program's optimized build reports (every optimized loop runs at least once),
# and on one PE, where the loops that access their array locally too run fine-grained
SITES = {"gather": (9, 8), "scatter": (8, 6), "inspect": (4, 4)}
LINES_PER_PE = {"gather": 8, "scatter": 5, "inspect": 8}
TIMEOUT = 60
# one OpenSHMEM job at a time (tests/e2e/test_loopcomm_runtime.py says why)
pytestmark = pytest.mark.xdist_group("openshmem")


@pytest.fixture(scope="module")
def builds(tmp_path_factory):
    out = tmp_path_factory.mktemp("loopcomm_programs")
    made = {}
    for name in PROGRAMS:
        source = HERE / f"{name}.c"
        made[name] = (build("oshcc", [source], out / f"{name}_fine"),
                      build(str(BAMBOOCC), [source], out / f"{name}_opt"))
    return made


@pytest.fixture(scope="module", autouse=True)
def no_profile(tmp_path_factory, monkeypatch_module):
    """Runs without a machine profile: the run time's defaults."""
    monkeypatch_module.setenv("XDG_CONFIG_HOME", str(tmp_path_factory.mktemp("config")))
    monkeypatch_module.delenv("BAMBOO_LOOPCOMM_PROFILE", raising=False)


@pytest.fixture(scope="module")
def monkeypatch_module():
    with pytest.MonkeyPatch.context() as mp:
        yield mp


def run(exe, npes: int, env: dict | None = None):
    done = mpirun(exe, npes, env=env, timeout=TIMEOUT, launcher=OSHRUN)
    assert done.returncode == 0, f"exit {done.returncode}:\n{done.stderr}"
    return done


@pytest.fixture(scope="module")
def truth(builds):
    """truth(name, npes): what the fine-grained build prints, run once per PE count."""
    printed = {}

    def lines(name, npes):
        if (name, npes) not in printed:
            printed[name, npes] = run(builds[name][0], npes).lines()
        return printed[name, npes]
    return lines


@pytest.mark.parametrize("npes", [1, 2, 3, 4])
@pytest.mark.parametrize("name", PROGRAMS)
def test_the_optimized_program_prints_what_the_fine_grained_one_prints(builds, truth, name, npes):
    _, opt = builds[name]
    assert len(truth(name, npes)) == LINES_PER_PE[name] * npes
    done = run(opt, npes, {"BAMBOO_LC_REPORT": "1"})
    assert done.lines() == truth(name, npes)
    sites = re.findall(r"^bamboo_lc site=\S+ executions=(\d+)", done.stderr, re.M)
    assert len(sites) == SITES[name][npes == 1] and all(int(n) > 0 for n in sites), done.stderr


# (inspect.c's outer loops run at most 50 iterations: 64 strips are its most already)
@pytest.mark.parametrize("name, strips", [(name, strips) for name in PROGRAMS
                                          for strips in ("1", "3", "64", "100000")
                                          if (name, strips) != ("inspect", "100000")])
def test_every_strip_count_gives_the_same_result(builds, truth, name, strips):
    _, opt = builds[name]
    assert run(opt, 3, {"BAMBOO_LC_STRIPS": strips}).lines() == truth(name, 3)


@pytest.mark.parametrize("kind", ["span", "strided", "pieces"])
@pytest.mark.parametrize("name", PROGRAMS)
def test_every_transfer_kind_gives_the_same_result(builds, truth, name, kind):
    _, opt = builds[name]
    env = {"BAMBOO_LC_KIND": kind, "BAMBOO_LC_STRIPS": "4"}
    assert run(opt, 2, env).lines() == truth(name, 2)


def test_changed_indices_are_caught_and_wide_ones_read_as_written(builds):
    """inspect.c's indices that change between executions miss the cached inspection (the
    check reads them at once: the values above are right) and make the site inspect again;
    indices megabytes apart are not buffered at all."""
    _, opt = builds["inspect"]
    done = run(opt, 2, {"BAMBOO_LC_REPORT": "1"})
    sites = dict(re.findall(r"^bamboo_lc site=\S+:(\d+) (.*)$", done.stderr, re.M))
    fields = {line: dict(f.split("=") for f in rest.split()) for line, rest in sites.items()}
    source = (HERE / "inspect.c").read_text().splitlines()
    def line_of(text):
        return next(n for n, line in enumerate(source, 1) if text in line)
    csr = fields[str(line_of("for (int i = 0; i < rows; i++) {"))]
    wide = fields[str(line_of("shmem_char_g(&far[spread[i]], next)") - 1)]   # its loop's line
    assert int(csr["misses"]) > 0 and int(csr["inspections"]) >= 4, csr
    assert wide["fallback"] == "indices-too-wide" and wide["bytes"] == "0", wide
    assert int(wide["misses"]) == 50 and wide["inspections"] == "1", wide


def test_without_a_profile_the_run_time_says_so_once(builds):
    _, opt = builds["gather"]
    done = run(opt, 2)
    said = [line for line in done.stderr.splitlines() if "bamboo/loopcomm/" in line]
    assert len(said) == 1 and "bench/loopcomm/train" in said[0], done.stderr


def test_no_loop_opt_builds_the_program_as_written(builds, tmp_path):
    fine, _ = builds["gather"]
    plain = build(str(BAMBOOCC), [HERE / "gather.c"], tmp_path / "plain", ["--no-loop-opt"])
    done = run(plain, 2, {"BAMBOO_LC_REPORT": "1"})
    assert done.lines() == run(fine, 2).lines()
    assert "bamboo_lc" not in done.stderr


@pytest.fixture(scope="module")
def rma(tmp_path_factory):
    out = tmp_path_factory.mktemp("loopcomm_rma")
    source = HERE / "rma.c"
    return (build_plain([source], out / "rma_plain"),
            build(str(BAMBOOCC), [source], out / "rma_comm_only", ["--bamboo-comm-only"]),
            build(str(BAMBOOCC), [source], out / "rma_bamboo"))


def test_the_mpi_loops_are_optimized(tmp_path):
    done = subprocess.run([str(REPO / "bin" / "bamboo"), "translate", "--explain",
                           str(HERE / "rma.c")], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert done.stdout.count("its one-element MPI accesses move after it") == 4, done.stdout


@pytest.mark.parametrize("ranks", [1, 2, 3, 4])
@pytest.mark.parametrize("kind", ["", "pieces"])
def test_mpi_one_sided_loops_print_what_plain_mpi_prints(rma, ranks, kind):
    plain, comm_only, _ = rma
    truth = run_plain(plain, ranks)
    assert truth.returncode == 0 and len(truth.lines()) == 4 * ranks, truth.stderr
    done = mpirun(comm_only, ranks, env={"OMPI_MCA_osc": "pt2pt", "BAMBOO_LC_KIND": kind})
    assert done.returncode == 0, done.stderr
    assert done.lines() == truth.lines()


@pytest.mark.parametrize("processes, vf", [(1, 1), (1, 4), (2, 2), (2, 3)])
def test_mpi_one_sided_loops_as_bamboo_tasks(rma, processes, vf):
    plain, _, bamboo = rma
    truth = run_plain(plain, processes * vf)
    done = run_bamboo(bamboo, processes, vf)
    assert done.returncode == 0, done.stderr
    assert done.lines() == truth.lines() and len(truth.lines()) == 4 * processes * vf
