"""bench/net's lab: network namespaces joined by rate-limited veth links. The lab must
deliver the rate asked for, within what tbf allows, and Bamboo must run through it as it
does on one machine: the same output as plain MPI with P*VF ranks, its large and
non-contiguous messages crossing a slow TCP link while tasks compute.

Needs root (network namespaces); elsewhere these tests are skipped, and say why."""

from __future__ import annotations

import os
import re
import subprocess

import pytest

from harness import REPO, mpirun
from test_conformance import build_name, sources

LAB = REPO / "bench" / "net" / "lab"
# A lab of its own, so that a benchmark's lab (bamboo-lab-*) is left alone.
LAB_ENV = {**os.environ, "BAMBOO_LAB_NAME": "bamboo-labtest"}

pytestmark = [pytest.mark.skipif(os.geteuid() != 0, reason="the lab needs root to create network namespaces"),
              pytest.mark.xdist_group("netlab")]  # one worker runs them all (pytest-xdist): one lab


def lab(*args: str) -> str:
    done = subprocess.run([str(LAB), *args], capture_output=True, text=True, env=LAB_ENV, timeout=300)
    assert done.returncode == 0, f"lab {' '.join(args)} failed:\n{done.stdout}{done.stderr}"
    return done.stdout


@pytest.fixture(scope="module")
def two_nodes():
    lab("up", "--nodes", "2", "--rate", "200mbit")
    yield
    lab("down")


def bandwidth_mbit() -> float:
    match = re.search(r"bandwidth (\d+) Mbit/s", lab("measure"))
    assert match, "lab measure printed no bandwidth"
    return float(match.group(1))


def configured_rates() -> set[str]:
    """The rates tc enforces, both directions of every node, as `lab status` reads them back."""
    return set(re.findall(r"(?:sends|receives) at (\S+?),?$", lab("status"), re.M))


def test_probe_reports_rate_limits_and_whether_latency_can_be_added():
    report = lab("probe")
    assert re.search(r"rate limits \(tbf\) +yes", report), report
    assert re.search(r"added latency \(netem\) +(yes|no)", report), report


# What the lab set up is read back from the kernel; what traffic achieves is only bounded from
# above, which no load on the machine can break (a loaded machine measured 484 Mbit/s at 1gbit).
# Without a limit these links carry well over 10 Gbit/s, so the bound shows the limit is in the
# path. How close traffic gets to the rate is a benchmark's question (bench/net/lab measure).
def test_links_are_limited_at_the_rate_asked_for(two_nodes):
    assert configured_rates() == {"200mbit"}
    assert bandwidth_mbit() <= 205
    lab("rate", "1gbit")
    try:
        assert configured_rates() == {"1gbit"}
        assert bandwidth_mbit() <= 1030
    finally:
        lab("rate", "200mbit")
    assert configured_rates() == {"200mbit"}


def test_refuses_a_bad_rate_clearly():
    done = subprocess.run([str(LAB), "up", "--rate", "fast"], capture_output=True, text=True, env=LAB_ENV)
    assert done.returncode == 2
    assert "bad rate 'fast': expected e.g. 200mbit, 1gbit, 10gbit or none" in done.stderr


# Point-to-point with counts up to 4 MB and derived datatypes: messages large enough to
# travel as separate payloads, and non-contiguous ones, over a 200 Mbit/s link.
@pytest.mark.parametrize("name,processes,vf", [("coll_large", 2, 2), ("datatypes", 2, 3)])
def test_bamboo_through_the_lab_prints_what_plain_mpi_prints(two_nodes, name, processes, vf,
                                                             builds, ground_truth):
    expected = ground_truth(build_name(name), sources(name), processes * vf)
    _, bamboo = builds(build_name(name), sources(name))
    run = mpirun(bamboo, processes, ["--bamboo-vf", str(vf)], launcher=(str(LAB), "mpirun"),
                 env={"BAMBOO_LAB_NAME": LAB_ENV["BAMBOO_LAB_NAME"]})
    assert run.returncode == expected.returncode, run.stderr
    assert run.lines() == expected.lines()
