"""The MPI subset the Bamboo runtime implements: the one table the translator trusts.

Each entry says what kind of operation the function is and which arguments matter for
the translation.  Argument indexes are 0-based positions in the MPI call as the user
wrote it.  tests/test_mpi_api.py checks this table against the ``#define MPI_...`` lines
of runtime/include/bamboo.h, so the two cannot drift.
"""
from __future__ import annotations

from dataclasses import dataclass, field

# Kinds of MPI operations.
SETUP = "setup"        # MPI_Init, MPI_Finalize, MPI_Abort: program-wide, may synchronize
LOCAL = "local"        # never waits, never communicates (rank, size, time, counts)
SEND = "send"          # MPI_Send, MPI_Isend
RECEIVE = "receive"    # MPI_Recv, MPI_Irecv
SENDRECV = "sendrecv"  # MPI_Sendrecv: a send, then a receive
WAIT = "wait"          # MPI_Wait*, MPI_Test*: completion of requests
PROBE = "probe"        # MPI_Probe, MPI_Iprobe

# Kinds after which a peer may be waiting for this task (it sent something, or joined a
# program-wide step): a receive that follows one cannot be announced before it, since the
# peer may need that first. Receives, waits and probes send nothing.
ANSWERED_BY_PEERS = frozenset({SEND, SENDRECV, SETUP})


@dataclass(frozen=True)
class MPIFunction:
    name: str
    kind: str
    runtime: str                 # the bamboo.h function the call is redirected to
    buffer: int | None = None    # received (or sent) data
    count: int | None = None
    source: int | None = None    # source rank of a receive / probe
    dest: int | None = None      # destination rank of a send
    tag: int | None = None       # receive tag (for sendrecv: the receive tag)
    send_tag: int | None = None
    comm: int | None = None
    request: int | None = None   # MPI_Request * written by a nonblocking call
    status: int | None = None    # MPI_Status * written by the call
    outputs: tuple = field(default=())  # other pointer arguments the call writes
    blocking: bool = False       # nonblocking variants (Irecv, Isend) complete in a wait

    @property
    def is_receive(self) -> bool:
        return self.kind in (RECEIVE, SENDRECV)

    @property
    def is_send(self) -> bool:
        return self.kind in (SEND, SENDRECV)

    @property
    def may_wait(self) -> bool:
        """True for calls that can suspend the task or need a peer (everything but LOCAL)."""
        return self.kind != LOCAL


_TABLE = [
    MPIFunction("MPI_Init", SETUP, "bamboo_init", outputs=(0, 1)),
    MPIFunction("MPI_Init_thread", SETUP, "bamboo_init_thread", outputs=(0, 1, 3)),
    MPIFunction("MPI_Initialized", LOCAL, "bamboo_initialized", outputs=(0,)),
    MPIFunction("MPI_Finalize", SETUP, "bamboo_finalize"),
    MPIFunction("MPI_Finalized", LOCAL, "bamboo_finalized", outputs=(0,)),
    MPIFunction("MPI_Abort", SETUP, "bamboo_abort", comm=0),
    MPIFunction("MPI_Wtime", LOCAL, "bamboo_wtime"),
    MPIFunction("MPI_Comm_rank", LOCAL, "bamboo_comm_rank", comm=0, outputs=(1,)),
    MPIFunction("MPI_Comm_size", LOCAL, "bamboo_comm_size", comm=0, outputs=(1,)),
    MPIFunction("MPI_Send", SEND, "bamboo_send", buffer=0, count=1, dest=3, send_tag=4, comm=5,
                blocking=True),
    MPIFunction("MPI_Isend", SEND, "bamboo_isend", buffer=0, count=1, dest=3, send_tag=4, comm=5,
                request=6),
    MPIFunction("MPI_Recv", RECEIVE, "bamboo_recv", buffer=0, count=1, source=3, tag=4, comm=5,
                status=6, blocking=True),
    MPIFunction("MPI_Irecv", RECEIVE, "bamboo_irecv", buffer=0, count=1, source=3, tag=4, comm=5,
                request=6),
    # MPI_Sendrecv(sendbuf, sendcount, sendtype, dest, sendtag,
    #              recvbuf, recvcount, recvtype, source, recvtag, comm, status)
    MPIFunction("MPI_Sendrecv", SENDRECV, "bamboo_sendrecv", buffer=5, count=6, dest=3,
                send_tag=4, source=8, tag=9, comm=10, status=11, blocking=True),
    MPIFunction("MPI_Wait", WAIT, "bamboo_wait", request=0, status=1, blocking=True),
    MPIFunction("MPI_Waitall", WAIT, "bamboo_waitall", count=0, request=1, status=2,
                blocking=True),
    MPIFunction("MPI_Waitany", WAIT, "bamboo_waitany", count=0, request=1, status=3,
                outputs=(2,), blocking=True),
    MPIFunction("MPI_Test", WAIT, "bamboo_test", request=0, status=2, outputs=(1,)),
    MPIFunction("MPI_Testall", WAIT, "bamboo_testall", count=0, request=1, status=3,
                outputs=(2,)),
    MPIFunction("MPI_Probe", PROBE, "bamboo_probe", source=0, tag=1, comm=2, status=3,
                blocking=True),
    MPIFunction("MPI_Iprobe", PROBE, "bamboo_iprobe", source=0, tag=1, comm=2, status=4,
                outputs=(3,)),
    MPIFunction("MPI_Get_count", LOCAL, "bamboo_get_count", outputs=(2,)),
]

SUPPORTED: dict[str, MPIFunction] = {f.name: f for f in _TABLE}

# C library functions bamboo.h also redirects, to per-task versions (exit ends the task,
# rand and random draw from the task's own generator). A program may not define its own.
LIBC_REPLACED = ("exit", "rand", "srand", "random", "srandom")


def lookup(name: str) -> MPIFunction | None:
    return SUPPORTED.get(name)


def is_mpi_name(name: str) -> bool:
    """Names the MPI standard reserves for its functions (and the profiling interface)."""
    return name.startswith("MPI_") or name.startswith("PMPI_")
