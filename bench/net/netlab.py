"""A network with real cost on one machine: Linux network namespaces joined by veth pairs.

Layout (all of it inside namespaces this module creates; the host's own namespace is not touched):

    bamboo-lab-ctl      holds the bridge lab-br (10.77.0.1/24) and runs mpirun
    bamboo-lab-nK       "node" K: eth0 (10.77.0.(10+K)/24), the other end of a veth in the bridge

Each node's link is rate-limited in both directions with tbf (egress of the node's eth0 is what
it sends; egress of the bridge-side veth is what it receives), like a full-duplex NIC. MPI ranks
are placed on nodes in blocks (rank r of s on node r * nodes // s) by the wrapper `in-node`, which
mpirun starts in place of the program; Open MPI talks TCP only (`--mca btl tcp,self`), so ranks on
different nodes cross the rate-limited link and ranks on one node talk over that node's loopback.

netem is not in every kernel (not in these); without it the lab cannot add latency, only limit
rate, and says so (`probe`).
"""

from __future__ import annotations

import os
import re
import shutil
import statistics
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

# Namespaces are named PREFIX-ctl and PREFIX-nK; BAMBOO_LAB_NAME picks another PREFIX, so that
# a test's lab does not disturb a benchmark's. Links are named inside the namespaces only.
PREFIX = os.environ.get("BAMBOO_LAB_NAME", "bamboo-lab")
CONTROL = f"{PREFIX}-ctl"
BRIDGE = "lab-br"
SUBNET = "10.77.0.0/24"
BRIDGE_ADDRESS = "10.77.0.1"
NODE_INTERFACE = "eth0"
HERE = Path(__file__).resolve().parent
IN_NODE = HERE / "in-node"

# A rate as tc writes it: digits and a unit (e.g. 200mbit, 1gbit, 10gbit), or "none".
RATE_PATTERN = re.compile(r"^(\d+(?:\.\d+)?)(kbit|mbit|gbit)$")
UNIT_BITS = {"kbit": 1e3, "mbit": 1e6, "gbit": 1e9}


class LabError(Exception):
    """A reason the lab cannot do what it was asked, worded for the user."""


def node_namespace(node: int) -> str:
    return f"{PREFIX}-n{node}"


def node_address(node: int) -> str:
    return f"10.77.0.{10 + node}"


def bridge_port(node: int) -> str:
    return f"lab-v{node}"


def rate_bits(rate: str) -> float | None:
    """Bits per second of a rate like "200mbit"; None for "none" (no limit)."""
    if rate == "none":
        return None
    match = RATE_PATTERN.match(rate)
    if not match:
        raise LabError(f"bad rate '{rate}': expected e.g. 200mbit, 1gbit, 10gbit or none")
    return float(match.group(1)) * UNIT_BITS[match.group(2)]


def _run(args: list[str], namespace: str | None = None, check: bool = True) -> subprocess.CompletedProcess:
    if namespace:
        args = ["ip", "netns", "exec", namespace] + args
    done = subprocess.run(args, capture_output=True, text=True)
    if check and done.returncode != 0:
        raise LabError(f"`{' '.join(args)}` failed: {done.stderr.strip() or done.stdout.strip()}")
    return done


def require_privileges() -> None:
    """Refuse early and clearly where namespaces cannot be made (not root, or no iproute2)."""
    for tool in ("ip", "tc"):
        if shutil.which(tool) is None:
            raise LabError(f"'{tool}' not found: install Debian's iproute2 (scripts/setup does)")
    if os.geteuid() != 0:
        raise LabError("creating network namespaces needs root (CAP_NET_ADMIN and CAP_SYS_ADMIN); "
                       "run as root or with sudo")


@dataclass
class Capabilities:
    namespaces: bool
    rate_limit: bool   # tbf
    htb: bool
    latency: bool      # netem
    why_not: dict[str, str]

    def describe(self) -> str:
        lines = []
        for what, ok, name in (("network namespaces + veth + bridge", self.namespaces, "namespaces"),
                               ("rate limits (tbf)", self.rate_limit, "tbf"),
                               ("rate limits (htb)", self.htb, "htb"),
                               ("added latency (netem)", self.latency, "netem")):
            detail = "" if ok else f": {self.why_not.get(name, 'not available')}"
            lines.append(f"  {what:<36} {'yes' if ok else 'no'}{detail}")
        if not self.latency:
            lines.append("  -> the lab limits bandwidth only; latency is the TCP stack's own "
                         "(a few microseconds), not a WAN's or a cluster switch's")
        return "\n".join(lines)


def probe() -> Capabilities:
    """What this kernel lets the lab emulate, tried in a scratch namespace of its own."""
    require_privileges()
    scratch = f"{PREFIX}-probe"
    why: dict[str, str] = {}
    _run(["ip", "netns", "del", scratch], check=False)
    made = _run(["ip", "netns", "add", scratch], check=False)
    if made.returncode != 0:
        why["namespaces"] = made.stderr.strip()
        return Capabilities(False, False, False, False, why)
    try:
        steps = [["ip", "link", "add", "name", "probe0", "type", "veth", "peer", "name", "probe1"],
                 ["ip", "link", "add", "name", "probebr", "type", "bridge"],
                 ["ip", "link", "set", "dev", "probe0", "up"],
                 ["ip", "link", "set", "dev", "probe1", "up"]]
        for step in steps:
            done = _run(step, scratch, check=False)
            if done.returncode != 0:
                why["namespaces"] = done.stderr.strip()
                return Capabilities(False, False, False, False, why)

        def qdisc(kind: str, *params: str) -> bool:
            done = _run(["tc", "qdisc", "replace", "dev", "probe0", "root", kind, *params], scratch, check=False)
            if done.returncode != 0:
                why[kind] = done.stderr.strip().splitlines()[-1] if done.stderr.strip() else "refused"
            return done.returncode == 0

        tbf = qdisc("tbf", "rate", "100mbit", "burst", "32kb", "latency", "20ms")
        htb = qdisc("htb", "default", "1")
        netem = qdisc("netem", "delay", "1ms")
        return Capabilities(True, tbf, htb, netem, why)
    finally:
        _run(["ip", "netns", "del", scratch], check=False)


def existing_namespaces() -> list[str]:
    """The lab's namespaces (exactly its own names: another lab's prefix may extend this one)."""
    own = re.compile(rf"{re.escape(PREFIX)}-(ctl|probe|n\d+)")
    listed = _run(["ip", "netns", "list"]).stdout.split("\n")
    return sorted(line.split()[0] for line in listed if line and own.fullmatch(line.split()[0]))


def node_count() -> int:
    return sum(1 for name in existing_namespaces() if re.fullmatch(rf"{re.escape(PREFIX)}-n\d+", name))


def down() -> None:
    """Removes every namespace of the lab (and with them their links and qdiscs)."""
    require_privileges()
    for name in existing_namespaces():
        _run(["ip", "netns", "del", name])


def up(nodes: int, rate: str) -> None:
    """Makes a fresh lab of `nodes` nodes whose links run at `rate` (tears down an old one first)."""
    if not 1 <= nodes <= 200:
        raise LabError(f"bad node count {nodes}: the lab makes 1 to 200 nodes")
    rate_bits(rate)  # refuse a bad rate before building anything
    capabilities = probe()
    if not capabilities.namespaces:
        raise LabError("this machine refuses network namespaces or veth pairs: "
                       + capabilities.why_not.get("namespaces", ""))
    if rate != "none" and not capabilities.rate_limit:
        raise LabError(f"this kernel has no tbf qdisc, so the lab cannot limit rate: {capabilities.why_not['tbf']}")
    down()
    try:
        _run(["ip", "netns", "add", CONTROL])
        _run(["ip", "link", "set", "dev", "lo", "up"], CONTROL)
        _run(["ip", "link", "add", "name", BRIDGE, "type", "bridge"], CONTROL)
        _run(["ip", "addr", "add", f"{BRIDGE_ADDRESS}/24", "dev", BRIDGE], CONTROL)
        _run(["ip", "link", "set", "dev", BRIDGE, "up"], CONTROL)
        for node in range(nodes):
            namespace, port = node_namespace(node), bridge_port(node)
            _run(["ip", "netns", "add", namespace])
            _run(["ip", "link", "set", "dev", "lo", "up"], namespace)
            _run(["ip", "link", "add", "name", port, "type", "veth", "peer", "name", NODE_INTERFACE,
                  "netns", namespace], CONTROL)
            _run(["ip", "link", "set", "dev", port, "master", BRIDGE], CONTROL)
            _run(["ip", "link", "set", "dev", port, "up"], CONTROL)
            _run(["ip", "addr", "add", f"{node_address(node)}/24", "dev", NODE_INTERFACE], namespace)
            _run(["ip", "link", "set", "dev", NODE_INTERFACE, "up"], namespace)
        set_rate(rate)
    except BaseException:
        down()
        raise


def set_rate(rate: str) -> None:
    """Puts every node's link at `rate`, both directions, without rebuilding the lab."""
    bits = rate_bits(rate)
    nodes = node_count()
    if nodes == 0:
        raise LabError("the lab is not up (bench/net/lab up)")
    for node in range(nodes):
        for namespace, device in ((node_namespace(node), NODE_INTERFACE), (CONTROL, bridge_port(node))):
            if bits is None:
                _run(["tc", "qdisc", "del", "dev", device, "root"], namespace, check=False)
                continue
            # tbf lets `burst` bytes pass at once. A quarter millisecond of line time (measured:
            # 90-100% of the rate reached from 200mbit to 10gbit with 4 MB messages) keeps a
            # halo from slipping through unmetered; a whole millisecond overshot 10gbit by 30%.
            # Packets queue at most 5 ms, a shallow switch buffer's worth (20 ms measured the
            # same rates and message times).
            burst = max(16 * 1024, int(bits / 8 / 4000))
            _run(["tc", "qdisc", "replace", "dev", device, "root", "tbf", "rate", rate,
                  "burst", str(burst), "latency", "5ms"], namespace)


def _configured_rate(namespace: str, device: str) -> str:
    shown = _run(["tc", "qdisc", "show", "dev", device], namespace).stdout
    match = re.search(r"tbf \S+ root .*?rate (\S+)", shown)
    return match.group(1).lower() if match else "none"


def link_rates() -> dict[int, tuple[str, str]]:
    """Per node, the rate tc enforces on what it sends and on what it receives, read back from
    the kernel (so a test can check what the lab set up without timing anything)."""
    return {node: (_configured_rate(node_namespace(node), NODE_INTERFACE),
                   _configured_rate(CONTROL, bridge_port(node)))
            for node in range(node_count())}


def current_rate() -> str:
    return _configured_rate(node_namespace(0), NODE_INTERFACE)


def status() -> str:
    names = existing_namespaces()
    if not names:
        return "lab: down"
    links = [f"{node_namespace(node)}: sends at {sends}, receives at {receives}"
             for node, (sends, receives) in link_rates().items()]
    return f"lab: up, {node_count()} nodes ({CONTROL} runs mpirun)\n  " + "\n  ".join(links)


def mpirun(args: list[str], nodes: int | None = None, launcher: str = "mpirun") -> list[str]:
    """The command that runs `mpirun ARGS` with its ranks spread over the lab's nodes.

    ARGS are mpirun's own (e.g. -n 4 ./prog x); the program is wrapped by in-node. Ranks go on
    `nodes` nodes (default: all of them) in blocks. `launcher` replaces the word mpirun: oshrun,
    Open MPI's mpirun under another name, starts OpenSHMEM programs (bin/bamboo-oshrun --lab)."""
    available = node_count()
    if available == 0:
        raise LabError("the lab is not up (bench/net/lab up --nodes N --rate R)")
    nodes = available if nodes is None else nodes
    if not 1 <= nodes <= available:
        raise LabError(f"asked for {nodes} nodes; the lab has {available}")
    program = _program_index(args)
    env = ["env", "PMIX_MCA_ptl_tcp_remote_connections=1", f"PMIX_MCA_ptl_tcp_if_include={BRIDGE}",
           f"BAMBOO_LAB_NODES={nodes}", f"BAMBOO_LAB_PREFIX={PREFIX}"]
    mca = ["--mca", "btl", "tcp,self", "--mca", "btl_tcp_if_include", SUBNET,
           "--mca", "oob_tcp_if_include", BRIDGE]
    if launcher == "mpirun":
        # One-sided MPI over these TCP-only BTLs: osc rdma cannot make a window (MPI_Win_create
        # fails with MPI_ERR_WIN); osc pt2pt runs it over point-to-point messages.
        mca += ["--mca", "osc", "pt2pt"]
    return (["ip", "netns", "exec", CONTROL] + env + [launcher] + mca + args[:program] +
            [str(IN_NODE)] + args[program:])


# mpirun options that take a value, so the program is the first word after them that is not one.
_VALUED = {"-n", "-np", "--np", "-c", "--map-by", "--bind-to", "--rank-by", "-x", "--mca", "-mca",
           "--output-filename", "--host", "-H", "--hostfile", "--timeout", "--wdir", "--rankfile"}


def _program_index(args: list[str]) -> int:
    i = 0
    while i < len(args):
        if args[i] in ("--mca", "-mca"):
            i += 3
        elif args[i] in _VALUED:
            i += 2
        elif args[i].startswith("-"):
            i += 1
        else:
            return i
    raise LabError(f"no program in mpirun arguments: {' '.join(args)}")


def pingpong_binary() -> Path:
    """bench/micro/pingpong.c built against plain MPI, for measuring the lab's links."""
    out = HERE.parents[1] / "build" / "bench" / "net"
    out.mkdir(parents=True, exist_ok=True)
    binary = out / "pingpong_mpi"
    source = HERE.parent / "micro" / "pingpong.c"
    if not binary.exists() or binary.stat().st_mtime < source.stat().st_mtime:
        subprocess.run(["mpicc", "-O2", str(source), "-o", str(binary)], check=True)
    return binary


def measure() -> dict[str, float]:
    """One-way latency (8 B) and bandwidth (4 MB) between nodes 0 and 1, through MPI over TCP."""
    if node_count() < 2:
        raise LabError("measuring needs a lab of at least 2 nodes")
    env = {**os.environ, "OMPI_ALLOW_RUN_AS_ROOT": "1", "OMPI_ALLOW_RUN_AS_ROOT_CONFIRM": "1"}
    binary = pingpong_binary()
    results = {}
    for key, size, iterations in (("latency_us", 8, 2000), ("bandwidth_mbit", 4_000_000, 10)):
        command = mpirun(["--oversubscribe", "-n", "2", str(binary), str(size), str(iterations)], nodes=2)
        done = subprocess.run(command, capture_output=True, text=True, env=env, timeout=300)
        if done.returncode != 0:
            raise LabError(f"ping-pong through the lab failed:\n{done.stdout}{done.stderr}")
        values = dict(line.split()[1:3] for line in done.stdout.splitlines() if line.startswith("RESULT"))
        results[key] = (float(values["oneway_us"]) if key == "latency_us"
                        else float(values["bandwidth_GBps"]) * 8e3)
    return results


def busy_kernel_seconds() -> float:
    """CPU seconds all cores have spent in the kernel (system, irq, softirq) since boot."""
    fields = open("/proc/stat").readline().split()
    ticks = os.sysconf("SC_CLK_TCK")
    return sum(int(fields[i]) for i in (3, 6, 7)) / ticks


# A blocking TCP transfer between the lab's nodes: a receiver in node 1, a sender in node 0.
RECEIVER = """
import socket, sys
server = socket.create_server((sys.argv[1], 5201))
print("ready", flush=True)
peer, _ = server.accept()
buffer, total = bytearray(1 << 20), 0
while (got := peer.recv_into(buffer)):
    total += got
print(total, flush=True)
"""
SENDER = """
import socket, sys
peer = socket.create_connection((sys.argv[1], 5201))
chunk, left = bytes(1 << 20), int(sys.argv[2])
while left > 0:
    left -= peer.send(chunk[:min(left, len(chunk))])
peer.close()
"""


def tcp_byte_cost(rate: str, transfers: int = 1) -> float:
    """Seconds of CPU per byte at each end that the lab's TCP path costs (the kernel's: copies,
    checksums, packets through veth, bridge and tbf), which runs on the cores the programs
    compute on. Measured as the kernel time of all cores during 2 s of a blocking transfer
    between the nodes, less the kernel time of 2 s idle, per byte and end; the median over
    `transfers` of them (one varied by 2x from one sitting to the next). Not with MPI:
    Open MPI's TCP transport polls the sockets with system calls while it waits, which
    would count as kernel time."""
    bits = rate_bits(rate)
    if bits is None:
        raise LabError("the TCP cost is measured at a rate (2 s of transfer at it), not without a limit")
    volume = int(2 * bits / 8)
    address = node_address(1)

    def in_node(node: int, script: str, *argv: str) -> list[str]:
        return ["ip", "netns", "exec", node_namespace(node), sys.executable, "-c", script, *argv]

    def transfer() -> float:
        with subprocess.Popen(in_node(1, RECEIVER, address), stdout=subprocess.PIPE, text=True) as receiver:
            receiver.stdout.readline()
            before = busy_kernel_seconds()
            subprocess.run(in_node(0, SENDER, address, str(volume)), check=True, timeout=60)
            received = int(receiver.stdout.readline())
            spent = busy_kernel_seconds() - before
        if received != volume:
            raise LabError(f"the TCP transfer through the lab delivered {received} of {volume} bytes")
        return max(spent - idle, 0) / (2 * volume)

    idle = busy_kernel_seconds()
    subprocess.run(["sleep", "2"], check=True)
    idle = busy_kernel_seconds() - idle
    return statistics.median(transfer() for _ in range(transfers))


def traffic() -> list[tuple[int, int]]:
    """Bytes each node's link has sent and received so far (its eth0 counters: payload with the
    TCP/IP headers, and the acknowledgements)."""
    counts = []
    for node in range(node_count()):
        def counter(name: str) -> int:
            done = _run(["cat", f"/sys/class/net/{NODE_INTERFACE}/statistics/{name}"], node_namespace(node))
            return int(done.stdout)
        counts.append((counter("tx_bytes"), counter("rx_bytes")))
    return counts
