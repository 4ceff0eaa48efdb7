"""bench/run's bound in the lab: the least time any runtime could take (computation plus the
kernel's TCP work on each node's one core, or the busiest link direction's wire time), and
the hidden fraction it allows, beside what Bamboo hid. No lab: synthetic runs and traffic."""

from __future__ import annotations

import pytest

from bench_scripts import load

bench = load("run", "bench_run")

COST = bench.LinkCost(cpu_per_byte=4e-9, bytes_per_second=25e6)  # 4 ns per byte, 200 Mbit/s


def test_the_busiest_node_and_direction_are_taken():
    before = [(100, 200), (1000, 2000)]
    after = [(100 + 50, 200 + 70), (1000 + 90, 2000 + 10)]
    moved = bench.traffic_between(before, after)
    assert moved == bench.Traffic(node_bytes=120, direction_bytes=90)


def test_tcp_work_bounds_a_node_whose_link_is_fast():
    traffic = bench.Traffic(node_bytes=100_000_000, direction_bytes=50_000_000)
    fast = bench.LinkCost(cpu_per_byte=4e-9, bytes_per_second=125e6)
    # 50 MB at 125 MB/s is 0.4 s on the wire; the kernel's work is 0.4 s of CPU on top of 1.4.
    assert bench.least_time(1.4, traffic, fast) == pytest.approx(1.4 + 0.4)


def test_the_wire_bounds_a_slow_link():
    traffic = bench.Traffic(node_bytes=100_000_000, direction_bytes=50_000_000)
    # 2 s on the wire against 1.4 + 0.4 of CPU.
    assert bench.least_time(1.4, traffic, COST) == pytest.approx(2.0)


def configs(network: str) -> list:
    mpi = [bench.Config("jacobi3d", network, 2, v, "") for v in bench.MPI_VARIANTS]
    return mpi + [bench.Config("jacobi3d", network, 2, "bamboo", "4")]


def test_summary_gives_the_most_hideable_and_bamboos_share_of_it():
    cs = configs("200mbit")
    seconds = {"basic": 3.6, "olap": 2.8, "nocomm": 1.4, "bamboo": 3.0}
    times = {c: [seconds[c.variant]] * 3 for c in cs}
    traffic = {c: [bench.Traffic(100_000_000, 50_000_000)] * 3 for c in cs}
    rows = {r["variant"]: r for r in bench.summarize(cs, times, {}, traffic, {"200mbit": COST})}
    least = bench.least_time(1.4, bench.Traffic(100_000_000, 50_000_000), COST)
    most = (3.6 - least) / (3.6 - 1.4)
    hidden = (3.6 - 3.0) / (3.6 - 1.4)
    assert float(rows["basic"]["least_s"]) == pytest.approx(least, abs=1e-4)
    assert float(rows["bamboo vf=4"]["hidden_most"]) == pytest.approx(most, abs=0.01)
    assert float(rows["bamboo vf=4"]["of_most"]) == pytest.approx(hidden / most, abs=0.01)
    assert rows["olap"]["of_most"] == ""  # Bamboo's share only


def test_no_bound_without_the_labs_figures():
    cs = configs("shm")
    times = {c: [1.0 if c.variant == "nocomm" else 2.0] for c in cs}
    rows = bench.summarize(cs, times, {})
    assert all(r["least_s"] == "" and r["hidden_most"] == "" and r["of_most"] == "" for r in rows)
    assert [r["hidden"] for r in rows if r["variant"].startswith("bamboo")] == ["0.00"]
