"""bench/heterogeneous/run's reading of a run's output (the app's time and verification lines,
--bamboo-stats' per-worker lines) and its arithmetic (ideal shares, ideal time, efficiency),
and that every table and plot finds the runs the plan schedules. No MPI: the outputs below
are written in the formats the app and the runtime print."""

from __future__ import annotations

import pytest

from bench_scripts import load

bench = load("heterogeneous/run", "heterogeneous_run")

VERIFICATION = ("verification: jacobi3d N=160 iterations=300 error=9.7e-01 (closed form 9.7e-01) "
                "update=1.8e-04 PASSED")


def stats_line(process: int, worker: int, slowdown: str, points: int, moved: int = 0, bound: int = 4) -> str:
    return (f"bamboo: stats: process {process} worker {worker}: slowdown {slowdown} evaluation-points {points} "
            f"runs {points + 7} busy 1.234567 s tasks-moved-in {moved} tasks-bound {bound}")


def config(processes: int = 1, sigma: float = 4.0, **fields) -> "bench.Config":
    return bench.Config(fields.pop("network", "shm"), processes, fields.pop("workers", 2), sigma,
                        fields.pop("seed_vf", 4), **fields)


STDOUT = f"time 1.500000\n{VERIFICATION}\n"
STDERR = "\n".join([
    "bamboo: stats: process 0 sent 10 messages (1200 bytes) within the process, 0 to others",  # not a worker's
    stats_line(0, 1, "4", 600, moved=3, bound=2),
    stats_line(0, 0, "1", 2400, moved=5, bound=6),
]) + "\n"


def test_worker_lines_parsed_and_other_stats_lines_skipped():
    workers = bench.parse_worker_stats(STDERR)
    assert [(w.process, w.worker, w.slowdown, w.evaluation_points, w.runs, w.busy, w.moved_in, w.bound)
            for w in workers] == [(0, 1, 4.0, 600, 607, 1.234567, 3, 2), (0, 0, 1.0, 2400, 2407, 1.234567, 5, 6)]


def test_a_line_that_is_not_exactly_a_worker_line_is_not_read():
    assert bench.parse_worker_stats("x " + stats_line(0, 0, "1", 5)) == []
    assert bench.parse_worker_stats(stats_line(0, 0, "1", 5).replace("tasks-bound", "bound")) == []


def test_a_good_run():
    run = bench.read_run(config(), 0, STDOUT, STDERR)
    assert run.seconds == 1.5
    assert run.verification == VERIFICATION
    assert [(w.process, w.worker) for w in run.workers] == [(0, 0), (0, 1)]
    assert bench.fast_share(run.workers) == pytest.approx(0.8)


@pytest.mark.parametrize("status, stdout, stderr, complaint", [
    pytest.param(0, "time 1.5\n", STDERR, "PASSED", id="no verification line"),
    pytest.param(0, "time 1.5\n" + VERIFICATION.replace("PASSED", "FAILED") + "\n", STDERR, "PASSED",
                 id="verification failed"),
    pytest.param(0, "time 1.5\nverification: jacobi3d ... SKIPPED\n", STDERR, "PASSED", id="skipped is no pass"),
    pytest.param(1, STDOUT, STDERR, "exit status 1", id="exit status"),
    pytest.param(0, VERIFICATION + "\n", STDERR, "time", id="no time line"),
    pytest.param(0, STDOUT, stats_line(0, 0, "1", 10), "stats line", id="a worker missing"),
    pytest.param(0, STDOUT, STDERR + stats_line(0, 1, "4", 1), "stats line", id="a worker twice"),
    pytest.param(0, STDOUT, stats_line(0, 0, "1", 10) + "\n" + stats_line(0, 1, "2", 5), "slowdown 2, not 4",
                 id="slowdown not applied"),
    pytest.param(0, STDOUT, stats_line(0, 0, "1", 0) + "\n" + stats_line(0, 1, "4", 0), "no worker ran",
                 id="no evaluation points"),
])
def test_a_run_that_cannot_be_counted(status, stdout, stderr, complaint):
    with pytest.raises(bench.RunFailed, match=complaint):
        bench.read_run(config(), status, stdout, stderr)


def test_two_processes_need_lines_of_both():
    stderr = "\n".join(stats_line(p, w, "1" if w == 0 else "4", 10) for p in (1, 0) for w in (0, 1))
    run = bench.read_run(config(processes=2), 0, STDOUT, stderr)
    assert [(w.process, w.worker) for w in run.workers] == [(0, 0), (0, 1), (1, 0), (1, 1)]
    with pytest.raises(bench.RunFailed):
        bench.read_run(config(processes=2), 0, STDOUT, STDERR)


def test_fast_share_counts_worker_0_of_every_process():
    workers = bench.parse_worker_stats("\n".join([stats_line(0, 0, "1", 30), stats_line(0, 1, "4", 10),
                                                  stats_line(1, 0, "1", 20), stats_line(1, 1, "4", 20)]))
    assert bench.fast_share(workers) == pytest.approx(50 / 80)


@pytest.mark.parametrize("slowdowns, share", [
    ((1.0, 1.0), 0.5),
    ((1.0, 4.0), 0.8),                     # sigma / (sigma + 1)
    ((1.0, 8.0), 8 / 9),
    ((1.0, 6.0, 6.0, 6.0), 1 / (1 + 3 / 6)),   # the seed's 1 host + 3 coprocessor workers: 2/3
    ((1.0, 2.0, 2.0, 2.0), 0.4),
])
def test_ideal_fast_share(slowdowns, share):
    assert bench.ideal_fast_share(slowdowns) == pytest.approx(share)


def test_ideal_time_and_efficiency():
    # Two equal workers: the ideal is the reference itself.
    assert bench.ideal_time(2.0, (1.0, 1.0)) == pytest.approx(2.0)
    # 1,4: total speed 1.25 worker's worth instead of 2, so the work takes 2 / 1.25 as long.
    assert bench.ideal_time(2.0, (1.0, 4.0)) == pytest.approx(3.2)
    assert bench.efficiency(2.0, (1.0, 4.0), 4.0) == pytest.approx(0.8)
    assert bench.efficiency(2.0, (1.0, 1.0), 2.5) == pytest.approx(0.8)
    # 1,s,s,s: 4 workers of total speed 1 + 3/s.
    assert bench.ideal_time(1.0, (1.0, 3.0, 3.0, 3.0)) == pytest.approx(2.0)


def test_seed_vf_is_per_worker_and_sigma_1_passes_no_slowdown():
    slow = bench.command(config(sigma=4.0, seed_vf=4, queue="steal", bind_after="never"), (64, 10))
    assert slow[slow.index("--bamboo-vf") + 1] == "8"
    assert slow[slow.index("--bamboo-slowdown") + 1] == "1,4"
    assert slow[slow.index("--bamboo-queue") + 1] == "steal"
    assert slow[slow.index("--bamboo-bind-after") + 1] == "never"
    four = bench.command(config(sigma=2.5, workers=4, seed_vf=2), (64, 10))
    assert four[four.index("--bamboo-vf") + 1] == "8"
    assert four[four.index("--bamboo-slowdown") + 1] == "1,2.5,2.5,2.5"
    plain = bench.command(config(sigma=1.0), (64, 10))
    assert "--bamboo-slowdown" not in plain and "--bamboo-queue" not in plain
    assert "--bamboo-stats" in plain


def test_reference_is_shm_sigma_1_seed_vf_1_same_shape():
    lab = config(network="200mbit", processes=2, sigma=8.0, seed_vf=8, queue="private")
    assert lab.reference() == bench.Config("shm", 2, 2, 1.0, 1)


def synthetic_results(configs):
    """Runs whose time and shares follow from the configuration, so that the summary's
    arithmetic can be checked against them."""
    results = {}
    for c in configs:
        seconds = 1.0 + c.sigma / 10 + c.seed_vf / 100 + (0.5 if c.network != "shm" else 0)
        stderr = "\n".join(stats_line(p, w, bench.number(c.slowdowns[w]), 300 if w == 0 else 100)
                           for p in range(c.processes) for w in range(c.workers))
        run = bench.read_run(c, 0, f"time {seconds}\n{VERIFICATION}\n", stderr)
        results[c] = [run, run]
    return results


@pytest.mark.parametrize("sigmas, vfs, vf, networks, four_workers", [
    ([1.0, 4.0], [1, 4], 4, ["shm"], False),                        # --quick
    ([1.0, 2.0, 4.0, 6.0, 8.0], [1, 2, 4, 8], 4, ["shm", "200mbit"], True),
    ([2.0], [2, 8], 3, ["1gbit"], False),                           # neither sigma 1 nor shm asked for
])
def test_every_table_and_plot_finds_its_runs(tmp_path, sigmas, vfs, vf, networks, four_workers):
    configs = bench.plan(sigmas, vfs, vf, networks, four_workers)
    assert len(configs) == len(set(configs))
    assert all(c.reference() in configs for c in configs)
    summaries = bench.summarize(configs, synthetic_results(configs))
    text = bench.tables(summaries, sigmas, vfs, vf, networks, four_workers)
    bench.plot(summaries, sigmas, vfs, vf, networks, four_workers, tmp_path)
    bench.write_summary(summaries, tmp_path)
    assert (tmp_path / "share.png").stat().st_size > 0 and (tmp_path / "efficiency.png").stat().st_size > 0
    assert len((tmp_path / "summary.csv").read_text().splitlines()) == len(configs) + 1
    assert "| σ | 2 workers (1,σ): share |" in text
    # Five tables (6a, 6b, ablation, queues, regression), each with as many cells in every row
    # as in its header.
    tables = [block.splitlines() for block in text.split("\n\n") if block.startswith("|")]
    assert len(tables) == 5
    for table in tables:
        assert {line.count("|") for line in table} == {table[0].count("|")}
        assert len(table) > 2

def test_summary_arithmetic():
    configs = bench.plan([1.0, 4.0], [1, 4], 4, ["shm"], False)
    summaries = bench.summarize(configs, synthetic_results(configs))
    slow = summaries[bench.Config("shm", 1, 2, 4.0, 4)]
    reference = 1.0 + 1 / 10 + 1 / 100          # synthetic time at sigma 1, seed-VF 1
    measured = 1.0 + 4 / 10 + 4 / 100
    assert slow.median == pytest.approx(measured)
    assert slow.efficiency == pytest.approx(reference * 2 / 1.25 / measured)
    assert slow.share == pytest.approx(0.75) and slow.ideal_share == pytest.approx(0.8)
