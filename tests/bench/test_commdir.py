"""bench/commdir/run's reading of a run's output, its command lines (the SHMEM launcher, the
lab's settings), its plan, tables and code-size count, on synthetic output. No MPI, no timing
assertions."""

from __future__ import annotations

import pytest

from bench_scripts import load

bench = load("commdir/run", "commdir_run")

VERIFICATION = ("verification: commdir-spin ranks=4 bytes=24 steps=400 atoms=12 work=200 "
                "checksum=9517e99623b8014c wrong=0 PASSED")


def test_a_good_run_and_one_that_crashed_after_its_results():
    run = bench.read_run(0, f"{VERIFICATION}\ntime 0.012500\n", "")
    assert (run.seconds, run.verification, run.status) == (0.0125, VERIFICATION, 0)
    crashed = bench.read_run(139, f"{VERIFICATION}\ntime 0.5\n", "Caught signal 11")
    assert crashed.status == 139 and crashed.seconds == 0.5


@pytest.mark.parametrize("status, stdout", [
    pytest.param(0, "time 1.0\n", id="no verification"),
    pytest.param(1, VERIFICATION.replace("PASSED", "FAILED") + "\ntime 1.0\n", id="failed"),
    pytest.param(0, VERIFICATION + "\n", id="no time"),
    pytest.param(0, VERIFICATION + "\ntime x\n", id="bad time"),
    pytest.param(139, "", id="crashed before its results"),
])
def test_runs_that_cannot_be_counted(status, stdout):
    with pytest.raises(bench.RunFailed):
        bench.read_run(status, stdout, "")


def config(variant="2side", network="shm", pattern="spin", size=24, ranks=4, study="table"):
    return bench.Config(study, pattern, network, ranks, variant, size)


def test_commands_shm():
    cmd = bench.command(config("orig"))
    assert cmd[0] == "mpirun" and cmd[-4:] == ["24", "400", "4", "200"]
    shmem = bench.command(config("shmem", pattern="atom", size=64))
    assert shmem[0] == str(bench.SHMEM_LAUNCH) and "mpirun" not in shmem
    assert shmem[-2:] == ["64", str(bench.ATOM_REPS)]


def test_bamboo_runs_its_ranks_as_tasks_of_one_process_per_lab_node():
    cmd = bench.command(config("bamboo", ranks=4))
    assert cmd[cmd.index("-n") + 1] == "2" and cmd[-2:] == ["--bamboo-vf", "2"]
    assert cmd[cmd.index("-n") + 2] == str(bench.APP / "build" / "spin_bamboo")
    odd = bench.command(config("bamboo", ranks=3))
    assert odd[odd.index("-n") + 1] == "1" and odd[-2:] == ["--bamboo-vf", "3"]


def test_commands_through_the_lab(monkeypatch):
    monkeypatch.setattr(bench.netlab, "node_count", lambda: 2)
    one = bench.command(config("1side", network="1gbit"))
    assert one[:3] == ["ip", "netns", "exec"] and "mpirun" in one
    assert one[one.index("osc") - 1:one.index("osc") + 2] == ["--mca", "osc", "pt2pt"]
    shmem = bench.command(config("shmem", network="1gbit"))
    assert shmem[:4] == [str(bench.SHMEM_LAUNCH), "--lab", "--lab-nodes", "2"] and "mpirun" not in shmem


def test_rounds_shrink_for_big_messages():
    assert config(size=8).rounds == bench.SPIN_STEPS
    assert config(size=1 << 20).rounds == 5
    assert 5 <= config(size=32768).rounds < bench.SPIN_STEPS
    assert config(pattern="atom", size=64).rounds == bench.ATOM_REPS


def synthetic(configs):
    times = {"orig": 4.0, "waitall": 2.0, "2side": 1.0, "1side": 8.0, "shmem": 0.5, "bamboo": 3.0}
    return {c: [bench.Run(times[c.variant] * c.rounds * (1 + c.size / 1e6), VERIFICATION,
                          139 if c.variant == "shmem" else 0)] * 3 for c in configs}


@pytest.mark.parametrize("networks, ranks, sizes", [
    (["shm"], [2, 4], list(bench.QUICK_SIZES)),
    (["shm", "1gbit"], [2, 4], list(bench.CROSSOVER_SIZES)),
    (["200mbit"], [4], [8, 1 << 20]),
])
def test_every_table_finds_its_runs(tmp_path, networks, ranks, sizes):
    configs = bench.plan(networks, ranks, sizes)
    assert len(configs) == len(set(configs))
    assert len(configs) == len(networks) * len(bench.VARIANTS) * (len(bench.PATTERNS) * len(ranks) + len(sizes))
    summaries = bench.summarize(configs, synthetic(configs))
    text = bench.tables(summaries, networks, ranks, sizes)
    bench.write_summary(summaries, tmp_path)
    bench.plot(summaries, networks, sizes, tmp_path)
    assert (tmp_path / "crossover.png").stat().st_size > 0
    assert len((tmp_path / "summary.csv").read_text().splitlines()) == len(configs) + 1
    tables = [block.splitlines() for block in text.split("\n\n") if block.startswith("|")]
    assert len(tables) == 2 * len(networks) + 1
    for table in tables:
        assert {line.count("|") for line in table} == {table[0].count("|")}
    # orig 4 s against 2side 1 s a step: the directive is 4x faster; waitall 2x.
    row = next(line for line in text.splitlines() if "| spin | 4 | directive 2-side |" in line)
    assert row.split("|")[-3].strip() == "4.00" and row.split("|")[-2].strip() == "2.00"
    assert "!" in text   # the SHMEM runs that exited non-zero are marked


def test_summary_is_per_round():
    c = config("orig")
    s = bench.summarize([c], {c: [bench.Run(c.rounds * t, VERIFICATION, 0) for t in (1.0, 3.0, 2.0)]})[c]
    assert (s.median, s.low, s.high, s.runs, s.crashed) == (pytest.approx(2.0), pytest.approx(1.0),
                                                            pytest.approx(3.0), 3, 0)


def test_comm_lines_count_code_between_the_marks(tmp_path):
    (tmp_path / "x.c").write_text("int a;\n/* comm begin */\n#pragma comm_p2p sbuf(a) \\\n    rbuf(b)\n\n"
                                  "/* a comment */\n{ }\n/* comm end */\nint b;\n")
    assert bench.comm_lines(tmp_path / "x.c") == 3


def test_code_size_of_the_real_sources():
    rows = bench.code_size_table()
    assert len(rows) == 2 + len(bench.PATTERNS)
    for pattern in bench.PATTERNS:
        counts = {v: bench.comm_lines(bench.APP / f"{pattern}_{v}.c") for v in ("orig", "waitall", "directive")}
        assert all(n > 0 for n in counts.values()), counts
