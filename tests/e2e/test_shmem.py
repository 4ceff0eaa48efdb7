"""OpenSHMEM (Open MPI's oshcc and oshrun) through bin/bamboo-oshrun, the target of the
communication directives' SHMEM lowering (docs/shmem.md).

A ring program (programs/shmem_ring.c) puts, typed and untyped, 8 B to 1 MiB, into the symmetric
heap and into static and global arrays, gets from its neighbour, and finalizes; what each PE
prints must be what this file computes from the pattern each PE sent. Plain oshrun crashes in
shmem_finalize on Debian 12's Open MPI 4.1.4: without the wrapper's settings these tests fail.
Through the network lab (root only) the puts must also cross the lab's links, not shared memory."""

from __future__ import annotations

import os
import subprocess
import zlib

import pytest

from harness import REPO, build, mpirun

OSHRUN = REPO / "bin" / "bamboo-oshrun"
LAB = REPO / "bench" / "net" / "lab"
PROGRAM = REPO / "tests" / "e2e" / "programs" / "shmem_ring.c"
LARGEST = 1 << 20  # the largest putmem, bytes; sizes double from 8
N = 100            # elements of the typed puts (shmem_ring.c's N)
TIMEOUT = 60


def sizes() -> list[int]:
    return [8 << k for k in range((LARGEST // 8).bit_length())]


def sent(pe: int, size: int) -> bytes:
    """What PE `pe` puts as its message of `size` bytes (shmem_ring.c's pattern())."""
    period = bytes((pe * 31 + size * 3 + i * 7) & 0xFF for i in range(256))
    return (period * (size // 256 + 1))[:size]


def expected_lines(npes: int) -> list[str]:
    lines = []
    for pe in range(npes):
        left, second_left = (pe - 1) % npes, (pe - 2) % npes
        doubles = lambda owner: sum(owner * 1000.0 + i * 0.5 for i in range(N))  # noqa: E731
        ints = sum(left * 100 + i for i in range(N))
        lines.append(f"pe {pe} of {npes}: double_put heap {doubles(left):.1f} static {doubles(left):.1f}, "
                     f"int_put global {ints}, double_get {doubles(second_left):.1f}")
        lines += [f"pe {pe}: putmem {size} bytes crc32 {zlib.crc32(sent(left, size)):08x}" for size in sizes()]
        lines.append(f"pe {pe}: finalized")
    return sorted(lines)


@pytest.fixture(scope="module")
def program(tmp_path_factory):
    return build("oshcc", [PROGRAM], tmp_path_factory.mktemp("shmem") / "shmem_ring")


def test_the_expected_lines_are_what_the_pattern_implies():
    """The ground truth itself, against values worked out by hand for 2 PEs."""
    lines = expected_lines(2)
    assert "pe 0 of 2: double_put heap 102475.0 static 102475.0, int_put global 14950, double_get 2475.0" in lines
    assert len(lines) == 2 * (1 + 18 + 1)  # 18 sizes: 8 B .. 1 MiB


@pytest.mark.parametrize("npes", [2, 4])
def test_puts_gets_and_finalize_on_shared_memory(program, npes):
    run = mpirun(program, npes, [str(LARGEST)], timeout=TIMEOUT, launcher=(str(OSHRUN),))
    assert run.returncode == 0, f"exit {run.returncode}:\n{run.stderr}"
    assert run.lines() == expected_lines(npes)


# The lab's own namespaces, apart from a benchmark's (bamboo-lab-*) and test_netlab's.
LAB_ENV = {"BAMBOO_LAB_NAME": "bamboo-labshmem"}
NODES = 2


def lab(*args: str) -> str:
    done = subprocess.run([str(LAB), *args], capture_output=True, text=True,
                          env={**os.environ, **LAB_ENV}, timeout=300)
    assert done.returncode == 0, f"lab {' '.join(args)} failed:\n{done.stdout}{done.stderr}"
    return done.stdout


def bytes_sent_by_nodes() -> int:
    """Bytes the lab's nodes have sent on their links (each node's eth0), so far."""
    total = 0
    for node in range(NODES):
        namespace = f"{LAB_ENV['BAMBOO_LAB_NAME']}-n{node}"
        done = subprocess.run(["ip", "netns", "exec", namespace, "cat", "/sys/class/net/eth0/statistics/tx_bytes"],
                              capture_output=True, text=True, check=True)
        total += int(done.stdout)
    return total


@pytest.fixture(scope="module")
def two_nodes():
    lab("up", "--nodes", str(NODES), "--rate", "1gbit")
    yield
    lab("down")


@pytest.mark.skipif(os.geteuid() != 0, reason="the lab needs root to create network namespaces")
@pytest.mark.xdist_group("netlab")  # with the other lab tests, on one worker (pytest-xdist)
@pytest.mark.parametrize("npes", [2, 4])
def test_puts_cross_the_network_lab(program, two_nodes, npes):
    before = bytes_sent_by_nodes()
    run = mpirun(program, npes, [str(LARGEST)], timeout=TIMEOUT, launcher=(str(OSHRUN), "--lab"), env=LAB_ENV)
    assert run.returncode == 0, f"exit {run.returncode}:\n{run.stderr}"
    assert run.lines() == expected_lines(npes)
    # PEs sit on the nodes in blocks: two of the ring's puts go from one node to the other, each
    # all the sizes. Over shared memory (UCX's default between namespaces) the links carry only
    # the launcher's and MPI's few kilobytes.
    crossing = 2 * sum(sizes())
    assert bytes_sent_by_nodes() - before >= crossing
