"""The MPI subset the Bamboo runtime implements: the one table the translator trusts.

Each entry says what kind of operation the function is and which arguments matter for
the translation.  Argument indexes are 0-based positions in the MPI call as the user
wrote it.  tests/test_mpi_api.py checks this table against the ``#define MPI_...`` lines
of runtime/include/bamboo.h, so the two cannot drift.
"""
from __future__ import annotations

from dataclasses import dataclass, field

# Kinds of MPI operations.
SETUP = "setup"        # MPI_Init, MPI_Finalize, MPI_Abort, window locks: may synchronize
LOCAL = "local"        # never waits (rank, size, time, counts; one-sided puts and gets,
                       # which complete in a fence or unlock), never receives
SEND = "send"          # MPI_Send, MPI_Isend
RECEIVE = "receive"    # MPI_Recv, MPI_Irecv
SENDRECV = "sendrecv"  # MPI_Sendrecv: a send, then a receive
WAIT = "wait"          # MPI_Wait*, MPI_Test*: completion of requests
PROBE = "probe"        # MPI_Probe, MPI_Iprobe
COLLECTIVE = "collective"  # every member of the communicator takes part (MPI_Bcast, MPI_Comm_split)

# Kinds after which a peer may be waiting for this task (it sent something, or joined a
# program-wide step): a receive that follows one cannot be announced before it, since the
# peer may need that first. Receives, waits and probes send nothing.
ANSWERED_BY_PEERS = frozenset({SEND, SENDRECV, SETUP, COLLECTIVE})


@dataclass(frozen=True)
class MPIFunction:
    name: str
    kind: str
    runtime: str                 # the bamboo.h function the call is redirected to
    buffer: int | None = None    # received (or sent) data
    count: int | None = None
    datatype: int | None = None  # of the buffer (given where a rule announces receives whole)
    source: int | None = None    # source rank of a receive / probe
    dest: int | None = None      # destination rank of a send
    tag: int | None = None       # receive tag (for sendrecv: the receive tag)
    send_tag: int | None = None
    comm: int | None = None
    request: int | None = None   # MPI_Request * written by a nonblocking call
    status: int | None = None    # MPI_Status * written by the call
    outputs: tuple = field(default=())  # other pointer arguments the call writes
    blocking: bool = False       # nonblocking variants (Irecv, Isend) complete in a wait
    # Collectives a firing rule can wait for: the bamboo_collective of bamboo.h, and where
    # the root and the reduction operation stand.
    collective: str | None = None
    root: int | None = None
    op: int | None = None

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


def _send(name: str, runtime: str, nonblocking: bool = False) -> MPIFunction:
    """MPI_Send's arguments, in any send mode; nonblocking: and the request."""
    return MPIFunction(name, SEND, runtime, buffer=0, count=1, dest=3, send_tag=4, comm=5,
                       request=6 if nonblocking else None, blocking=not nonblocking)


def _collective(name: str, runtime: str, collective: str, comm: int, outputs=(), root=None,
                op=None) -> MPIFunction:
    return MPIFunction(name, COLLECTIVE, runtime, comm=comm, outputs=outputs, blocking=True,
                       collective=collective, root=root, op=op)


def _nonblocking_collective(name: str, runtime: str, comm: int, request: int,
                            outputs=()) -> MPIFunction:
    return MPIFunction(name, COLLECTIVE, runtime, comm=comm, request=request, outputs=outputs)


def _local(name: str, runtime: str, *outputs: int, comm: int | None = None) -> MPIFunction:
    return MPIFunction(name, LOCAL, runtime, comm=comm, outputs=outputs)


def _file_call(name: str, *outputs: int, collective: bool = False, status: int | None = None,
               request: int | None = None) -> MPIFunction:
    """An MPI-IO call on a file handle (argument 0). Collective ones take part with every
    task of the file's communicator, which is not among their arguments."""
    runtime = "bamboo_file_" + name[len("MPI_File_"):].lower()
    return MPIFunction(name, COLLECTIVE if collective else LOCAL, runtime, outputs=outputs, status=status,
                       request=request, blocking=collective and request is None)


# The functions bamboo.h redirects, in its order: by the runtime/src/mpi file that
# implements them (test_mpi_api.py keeps the two in step).
_TABLE = [
    # ---- Start and end (mpi/init.cpp)
    MPIFunction("MPI_Init", SETUP, "bamboo_init", outputs=(0, 1)),
    MPIFunction("MPI_Init_thread", SETUP, "bamboo_init_thread", outputs=(0, 1, 3)),
    MPIFunction("MPI_Initialized", LOCAL, "bamboo_initialized", outputs=(0,)),
    MPIFunction("MPI_Finalize", SETUP, "bamboo_finalize"),
    MPIFunction("MPI_Finalized", LOCAL, "bamboo_finalized", outputs=(0,)),
    MPIFunction("MPI_Query_thread", LOCAL, "bamboo_query_thread", outputs=(0,)),
    MPIFunction("MPI_Is_thread_main", LOCAL, "bamboo_is_thread_main", outputs=(0,)),
    MPIFunction("MPI_Abort", SETUP, "bamboo_abort", comm=0),
    MPIFunction("MPI_Wtime", LOCAL, "bamboo_wtime"),
    MPIFunction("MPI_Wtick", LOCAL, "bamboo_wtick"),

    # ---- Point-to-point (mpi/point_to_point.cpp)
    MPIFunction("MPI_Send", SEND, "bamboo_send", buffer=0, count=1, dest=3, send_tag=4, comm=5,
                blocking=True),
    MPIFunction("MPI_Isend", SEND, "bamboo_isend", buffer=0, count=1, dest=3, send_tag=4, comm=5,
                request=6),
    MPIFunction("MPI_Recv", RECEIVE, "bamboo_recv", buffer=0, count=1, datatype=2, source=3, tag=4,
                comm=5, status=6, blocking=True),
    MPIFunction("MPI_Irecv", RECEIVE, "bamboo_irecv", buffer=0, count=1, datatype=2, source=3, tag=4,
                comm=5, request=6),
    # MPI_Sendrecv(sendbuf, sendcount, sendtype, dest, sendtag,
    #              recvbuf, recvcount, recvtype, source, recvtag, comm, status)
    MPIFunction("MPI_Sendrecv", SENDRECV, "bamboo_sendrecv", buffer=5, count=6, dest=3,
                send_tag=4, source=8, tag=9, comm=10, status=11, blocking=True),
    # MPI_Sendrecv_replace(buf, count, datatype, dest, sendtag, source, recvtag, comm, status)
    MPIFunction("MPI_Sendrecv_replace", SENDRECV, "bamboo_sendrecv_replace", buffer=0, count=1,
                dest=3, send_tag=4, source=5, tag=6, comm=7, status=8, blocking=True),
    _send("MPI_Ssend", "bamboo_ssend"),
    _send("MPI_Rsend", "bamboo_rsend"),
    _send("MPI_Bsend", "bamboo_bsend"),
    _send("MPI_Issend", "bamboo_issend", nonblocking=True),
    _send("MPI_Irsend", "bamboo_irsend", nonblocking=True),
    _send("MPI_Ibsend", "bamboo_ibsend", nonblocking=True),
    MPIFunction("MPI_Buffer_attach", LOCAL, "bamboo_buffer_attach"),
    MPIFunction("MPI_Buffer_detach", LOCAL, "bamboo_buffer_detach", outputs=(0, 1)),
    # Persistent requests communicate when MPI_Start starts them, which the translator
    # cannot follow: it announces none of their receives (they wait on their own).
    MPIFunction("MPI_Send_init", LOCAL, "bamboo_send_init", outputs=(6,)),
    MPIFunction("MPI_Ssend_init", LOCAL, "bamboo_ssend_init", outputs=(6,)),
    MPIFunction("MPI_Rsend_init", LOCAL, "bamboo_rsend_init", outputs=(6,)),
    MPIFunction("MPI_Bsend_init", LOCAL, "bamboo_bsend_init", outputs=(6,)),
    MPIFunction("MPI_Recv_init", LOCAL, "bamboo_recv_init", outputs=(6,)),
    MPIFunction("MPI_Start", SEND, "bamboo_start", outputs=(0,)),
    MPIFunction("MPI_Startall", SEND, "bamboo_startall", outputs=(1,)),
    MPIFunction("MPI_Request_free", LOCAL, "bamboo_request_free", outputs=(0,)),
    MPIFunction("MPI_Cancel", LOCAL, "bamboo_cancel"),
    MPIFunction("MPI_Probe", PROBE, "bamboo_probe", source=0, tag=1, comm=2, status=3,
                blocking=True),
    MPIFunction("MPI_Iprobe", PROBE, "bamboo_iprobe", source=0, tag=1, comm=2, status=4,
                outputs=(3,)),
    # Matched probes take the message out of the mailbox into a handle (output); only the
    # MPI_Mrecv or MPI_Imrecv given the handle receives it, which waits for no peer.
    MPIFunction("MPI_Mprobe", PROBE, "bamboo_mprobe", source=0, tag=1, comm=2, status=4,
                outputs=(3,), blocking=True),
    MPIFunction("MPI_Improbe", PROBE, "bamboo_improbe", source=0, tag=1, comm=2, status=5,
                outputs=(3, 4)),
    MPIFunction("MPI_Mrecv", LOCAL, "bamboo_mrecv", status=4, outputs=(0, 3)),
    MPIFunction("MPI_Imrecv", LOCAL, "bamboo_imrecv", outputs=(0, 3, 4)),
    MPIFunction("MPI_Get_count", LOCAL, "bamboo_get_count", outputs=(2,)),
    # Generalized requests: the program completes them (MPI_Grequest_complete), the waits
    # and tests of the completion family retire them.
    _local("MPI_Grequest_start", "bamboo_grequest_start", 4),
    _local("MPI_Grequest_complete", "bamboo_grequest_complete"),

    # ---- Completion: waits and tests (mpi/completion.cpp)
    MPIFunction("MPI_Wait", WAIT, "bamboo_wait", request=0, status=1, blocking=True),
    MPIFunction("MPI_Waitall", WAIT, "bamboo_waitall", count=0, request=1, status=2,
                blocking=True),
    MPIFunction("MPI_Waitany", WAIT, "bamboo_waitany", count=0, request=1, status=3,
                outputs=(2,), blocking=True),
    MPIFunction("MPI_Test", WAIT, "bamboo_test", request=0, status=2, outputs=(1,)),
    MPIFunction("MPI_Testall", WAIT, "bamboo_testall", count=0, request=1, status=3,
                outputs=(2,)),
    MPIFunction("MPI_Testany", WAIT, "bamboo_testany", count=0, request=1, status=4,
                outputs=(2, 3)),
    MPIFunction("MPI_Waitsome", WAIT, "bamboo_waitsome", count=0, request=1, status=4,
                outputs=(2, 3), blocking=True),
    MPIFunction("MPI_Testsome", WAIT, "bamboo_testsome", count=0, request=1, status=4,
                outputs=(2, 3)),
    MPIFunction("MPI_Request_get_status", WAIT, "bamboo_request_get_status", status=2,
                outputs=(1,)),

    # ---- Collectives (utility layer) (mpi/collectives.cpp)
    _collective("MPI_Barrier", "bamboo_barrier", "BAMBOO_BARRIER", comm=0),
    _collective("MPI_Bcast", "bamboo_bcast", "BAMBOO_BCAST", comm=4, outputs=(0,), root=3),
    _collective("MPI_Reduce", "bamboo_reduce", "BAMBOO_REDUCE", comm=6, outputs=(1,), root=5,
                op=4),
    _collective("MPI_Allreduce", "bamboo_allreduce", "BAMBOO_ALLREDUCE", comm=5, outputs=(1,),
                op=4),
    _collective("MPI_Gather", "bamboo_gather", "BAMBOO_GATHER", comm=7, outputs=(3,), root=6),
    _collective("MPI_Gatherv", "bamboo_gatherv", "BAMBOO_GATHER", comm=8, outputs=(3,), root=7),
    _collective("MPI_Scatter", "bamboo_scatter", "BAMBOO_SCATTER", comm=7, outputs=(3,), root=6),
    _collective("MPI_Scatterv", "bamboo_scatterv", "BAMBOO_SCATTER", comm=8, outputs=(4,),
                root=7),
    _collective("MPI_Allgather", "bamboo_allgather", "BAMBOO_ALLGATHER", comm=6, outputs=(3,)),
    _collective("MPI_Allgatherv", "bamboo_allgatherv", "BAMBOO_ALLGATHER", comm=7,
                outputs=(3,)),
    _collective("MPI_Alltoall", "bamboo_alltoall", "BAMBOO_ALLTOALL", comm=6, outputs=(3,)),
    _collective("MPI_Alltoallv", "bamboo_alltoallv", "BAMBOO_ALLTOALLV", comm=8, outputs=(4,)),
    _collective("MPI_Reduce_scatter", "bamboo_reduce_scatter", "BAMBOO_REDUCE_SCATTER", comm=5,
                outputs=(1,), op=4),
    _collective("MPI_Reduce_scatter_block", "bamboo_reduce_scatter_block",
                "BAMBOO_REDUCE_SCATTER", comm=5, outputs=(1,), op=4),
    _collective("MPI_Scan", "bamboo_scan", "BAMBOO_SCAN", comm=5, outputs=(1,), op=4),
    _collective("MPI_Exscan", "bamboo_exscan", "BAMBOO_EXSCAN", comm=5, outputs=(1,), op=4),
    _collective("MPI_Alltoallw", "bamboo_alltoallw", None, comm=8, outputs=(4,)),
    _local("MPI_Reduce_local", "bamboo_reduce_local", 1),
    _local("MPI_Op_create", "bamboo_op_create", 2),
    _local("MPI_Op_free", "bamboo_op_free", 0),
    _local("MPI_Op_commutative", "bamboo_op_commutative", 1),

    # ---- Neighbourhood collectives (mpi/neighbor_collectives.cpp)
    # Every member takes part; a firing rule does not wait for them.
    _collective("MPI_Neighbor_allgather", "bamboo_neighbor_allgather", None, comm=6, outputs=(3,)),
    _collective("MPI_Neighbor_allgatherv", "bamboo_neighbor_allgatherv", None, comm=7, outputs=(3,)),
    _collective("MPI_Neighbor_alltoall", "bamboo_neighbor_alltoall", None, comm=6, outputs=(3,)),
    _collective("MPI_Neighbor_alltoallv", "bamboo_neighbor_alltoallv", None, comm=8, outputs=(4,)),
    _collective("MPI_Neighbor_alltoallw", "bamboo_neighbor_alltoallw", None, comm=8, outputs=(4,)),

    # ---- Nonblocking collectives (mpi/nonblocking_collectives.cpp)
    # Nonblocking collectives complete in a wait; the translator announces none of their
    # messages (they wait on their own), and, since they send, nothing after them either.
    _nonblocking_collective("MPI_Ibarrier", "bamboo_ibarrier", comm=0, request=1),
    _nonblocking_collective("MPI_Ibcast", "bamboo_ibcast", comm=4, request=5, outputs=(0,)),
    _nonblocking_collective("MPI_Ireduce", "bamboo_ireduce", comm=6, request=7, outputs=(1,)),
    _nonblocking_collective("MPI_Iallreduce", "bamboo_iallreduce", comm=5, request=6, outputs=(1,)),
    _nonblocking_collective("MPI_Igather", "bamboo_igather", comm=7, request=8, outputs=(3,)),
    _nonblocking_collective("MPI_Igatherv", "bamboo_igatherv", comm=8, request=9, outputs=(3,)),
    _nonblocking_collective("MPI_Iscatter", "bamboo_iscatter", comm=7, request=8, outputs=(3,)),
    _nonblocking_collective("MPI_Iscatterv", "bamboo_iscatterv", comm=8, request=9, outputs=(4,)),
    _nonblocking_collective("MPI_Iallgather", "bamboo_iallgather", comm=6, request=7, outputs=(3,)),
    _nonblocking_collective("MPI_Iallgatherv", "bamboo_iallgatherv", comm=7, request=8, outputs=(3,)),
    _nonblocking_collective("MPI_Ialltoall", "bamboo_ialltoall", comm=6, request=7, outputs=(3,)),
    _nonblocking_collective("MPI_Ialltoallv", "bamboo_ialltoallv", comm=8, request=9, outputs=(4,)),
    _nonblocking_collective("MPI_Ialltoallw", "bamboo_ialltoallw", comm=8, request=9, outputs=(4,)),
    _nonblocking_collective("MPI_Ireduce_scatter", "bamboo_ireduce_scatter", comm=5, request=6,
                            outputs=(1,)),
    _nonblocking_collective("MPI_Ireduce_scatter_block", "bamboo_ireduce_scatter_block", comm=5,
                            request=6, outputs=(1,)),
    _nonblocking_collective("MPI_Iscan", "bamboo_iscan", comm=5, request=6, outputs=(1,)),
    _nonblocking_collective("MPI_Iexscan", "bamboo_iexscan", comm=5, request=6, outputs=(1,)),
    # Its new handle is written when it completes.
    _nonblocking_collective("MPI_Comm_idup", "bamboo_comm_idup", comm=0, request=2, outputs=(1,)),
    _nonblocking_collective("MPI_Ineighbor_allgather", "bamboo_ineighbor_allgather", comm=6, request=7,
                            outputs=(3,)),
    _nonblocking_collective("MPI_Ineighbor_allgatherv", "bamboo_ineighbor_allgatherv", comm=7, request=8,
                            outputs=(3,)),
    _nonblocking_collective("MPI_Ineighbor_alltoall", "bamboo_ineighbor_alltoall", comm=6, request=7,
                            outputs=(3,)),
    _nonblocking_collective("MPI_Ineighbor_alltoallv", "bamboo_ineighbor_alltoallv", comm=8, request=9,
                            outputs=(4,)),
    _nonblocking_collective("MPI_Ineighbor_alltoallw", "bamboo_ineighbor_alltoallw", comm=8, request=9,
                            outputs=(4,)),

    # ---- Communicators and groups (mpi/communicators.cpp)
    MPIFunction("MPI_Comm_rank", LOCAL, "bamboo_comm_rank", comm=0, outputs=(1,)),
    MPIFunction("MPI_Comm_size", LOCAL, "bamboo_comm_size", comm=0, outputs=(1,)),
    # Making communicators is collective over the parent, but not something to wait for.
    _collective("MPI_Comm_split", "bamboo_comm_split", None, comm=0, outputs=(3,)),
    _collective("MPI_Comm_dup", "bamboo_comm_dup", None, comm=0, outputs=(1,)),
    _collective("MPI_Comm_create", "bamboo_comm_create", None, comm=0, outputs=(2,)),
    _collective("MPI_Comm_create_group", "bamboo_comm_create_group", None, comm=0, outputs=(3,)),
    _local("MPI_Comm_free", "bamboo_comm_free", 0),
    _local("MPI_Comm_compare", "bamboo_comm_compare", 2),
    _local("MPI_Comm_group", "bamboo_comm_group", 1, comm=0),
    _local("MPI_Group_size", "bamboo_group_size", 1),
    _local("MPI_Group_rank", "bamboo_group_rank", 1),
    _local("MPI_Group_incl", "bamboo_group_incl", 3),
    _local("MPI_Group_excl", "bamboo_group_excl", 3),
    _local("MPI_Group_translate_ranks", "bamboo_group_translate_ranks", 4),
    _local("MPI_Group_compare", "bamboo_group_compare", 2),
    _local("MPI_Group_free", "bamboo_group_free", 0),
    _local("MPI_Group_range_incl", "bamboo_group_range_incl", 3),
    _local("MPI_Group_range_excl", "bamboo_group_range_excl", 3),
    _local("MPI_Group_union", "bamboo_group_union", 2),
    _local("MPI_Group_intersection", "bamboo_group_intersection", 2),
    _local("MPI_Group_difference", "bamboo_group_difference", 2),
    _collective("MPI_Comm_dup_with_info", "bamboo_comm_dup_with_info", None, comm=0, outputs=(2,)),
    _collective("MPI_Comm_split_type", "bamboo_comm_split_type", None, comm=0, outputs=(4,)),

    # ---- Topologies (mpi/topologies.cpp)
    _local("MPI_Dims_create", "bamboo_dims_create", 2),
    _collective("MPI_Cart_create", "bamboo_cart_create", None, comm=0, outputs=(5,)),
    _local("MPI_Cart_map", "bamboo_cart_map", 4, comm=0),
    _local("MPI_Cart_coords", "bamboo_cart_coords", 3, comm=0),
    _local("MPI_Cart_rank", "bamboo_cart_rank", 2, comm=0),
    _local("MPI_Cart_shift", "bamboo_cart_shift", 3, 4, comm=0),
    _collective("MPI_Cart_sub", "bamboo_cart_sub", None, comm=0, outputs=(2,)),
    _local("MPI_Cart_get", "bamboo_cart_get", 2, 3, 4, comm=0),
    _local("MPI_Cartdim_get", "bamboo_cartdim_get", 1, comm=0),
    _local("MPI_Topo_test", "bamboo_topo_test", 1, comm=0),
    _collective("MPI_Graph_create", "bamboo_graph_create", None, comm=0, outputs=(5,)),
    _local("MPI_Graph_map", "bamboo_graph_map", 4, comm=0),
    _local("MPI_Graphdims_get", "bamboo_graphdims_get", 1, 2, comm=0),
    _local("MPI_Graph_get", "bamboo_graph_get", 3, 4, comm=0),
    _local("MPI_Graph_neighbors_count", "bamboo_graph_neighbors_count", 2, comm=0),
    _local("MPI_Graph_neighbors", "bamboo_graph_neighbors", 3, comm=0),
    _collective("MPI_Dist_graph_create_adjacent", "bamboo_dist_graph_create_adjacent", None, comm=0,
                outputs=(9,)),
    _collective("MPI_Dist_graph_create", "bamboo_dist_graph_create", None, comm=0, outputs=(8,)),
    _local("MPI_Dist_graph_neighbors_count", "bamboo_dist_graph_neighbors_count", 1, 2, 3, comm=0),
    _local("MPI_Dist_graph_neighbors", "bamboo_dist_graph_neighbors", 2, 3, 5, 6, comm=0),

    # ---- Intercommunicators (mpi/intercommunicators.cpp)
    _collective("MPI_Intercomm_create", "bamboo_intercomm_create", None, comm=0, outputs=(5,)),
    _collective("MPI_Intercomm_merge", "bamboo_intercomm_merge", None, comm=0, outputs=(2,)),
    _local("MPI_Comm_test_inter", "bamboo_comm_test_inter", 1, comm=0),
    _local("MPI_Comm_remote_size", "bamboo_comm_remote_size", 1, comm=0),
    _local("MPI_Comm_remote_group", "bamboo_comm_remote_group", 1, comm=0),

    # ---- Derived datatypes and packing (mpi/datatypes.cpp)
    _local("MPI_Type_contiguous", "bamboo_type_contiguous", 2),
    _local("MPI_Type_vector", "bamboo_type_vector", 4),
    _local("MPI_Type_create_hvector", "bamboo_type_create_hvector", 4),
    _local("MPI_Type_indexed", "bamboo_type_indexed", 4),
    _local("MPI_Type_create_hindexed", "bamboo_type_create_hindexed", 4),
    _local("MPI_Type_create_indexed_block", "bamboo_type_create_indexed_block", 4),
    _local("MPI_Type_create_struct", "bamboo_type_create_struct", 4),
    _local("MPI_Type_create_subarray", "bamboo_type_create_subarray", 6),
    _local("MPI_Type_create_resized", "bamboo_type_create_resized", 3),
    _local("MPI_Type_dup", "bamboo_type_dup", 1),
    _local("MPI_Type_commit", "bamboo_type_commit", 0),
    _local("MPI_Type_free", "bamboo_type_free", 0),
    _local("MPI_Type_size", "bamboo_type_size", 1),
    _local("MPI_Type_get_extent", "bamboo_type_get_extent", 1, 2),
    _local("MPI_Type_get_true_extent", "bamboo_type_get_true_extent", 1, 2),
    _local("MPI_Get_address", "bamboo_get_address", 1),
    _local("MPI_Get_elements", "bamboo_get_elements", 2),
    _local("MPI_Pack", "bamboo_pack", 3, 5, comm=6),
    _local("MPI_Unpack", "bamboo_unpack", 2, 3, comm=6),
    _local("MPI_Pack_size", "bamboo_pack_size", 3, comm=2),
    _local("MPI_Type_get_envelope", "bamboo_type_get_envelope", 1, 2, 3, 4),
    _local("MPI_Type_get_contents", "bamboo_type_get_contents", 4, 5, 6),
    _local("MPI_Type_size_x", "bamboo_type_size_x", 1),
    _local("MPI_Type_get_extent_x", "bamboo_type_get_extent_x", 1, 2),
    _local("MPI_Type_get_true_extent_x", "bamboo_type_get_true_extent_x", 1, 2),
    _local("MPI_Type_get_name", "bamboo_type_get_name", 1, 2),
    _local("MPI_Type_set_name", "bamboo_type_set_name"),
    _local("MPI_Type_create_hindexed_block", "bamboo_type_create_hindexed_block", 4),
    _local("MPI_Type_match_size", "bamboo_type_match_size", 2),
    _local("MPI_Type_extent", "bamboo_type_extent", 1),
    _local("MPI_Type_lb", "bamboo_type_lb", 1),
    _local("MPI_Type_ub", "bamboo_type_ub", 1),
    _local("MPI_Type_struct", "bamboo_type_struct", 4),
    _local("MPI_Type_hvector", "bamboo_type_hvector", 4),
    _local("MPI_Type_hindexed", "bamboo_type_hindexed", 4),
    _local("MPI_Address", "bamboo_address", 1),
    _local("MPI_Type_create_darray", "bamboo_type_create_darray", 9),
    _local("MPI_Get_elements_x", "bamboo_get_elements_x", 2),

    # ---- Error handlers: each task's own, per communicator, file, window (mpi/errhandlers.cpp)
    _local("MPI_Comm_set_errhandler", "bamboo_comm_set_errhandler", comm=0),
    _local("MPI_Comm_get_errhandler", "bamboo_comm_get_errhandler", 1, comm=0),
    _local("MPI_Comm_create_errhandler", "bamboo_comm_create_errhandler", 1),
    _local("MPI_Errhandler_free", "bamboo_errhandler_free", 0),
    _local("MPI_Comm_call_errhandler", "bamboo_comm_call_errhandler", comm=0),
    _local("MPI_Errhandler_set", "bamboo_errhandler_set", comm=0),
    _local("MPI_Errhandler_get", "bamboo_errhandler_get", 1, comm=0),
    _local("MPI_Errhandler_create", "bamboo_errhandler_create", 1),
    # Error handlers of files (MPI_ERRORS_RETURN unless set).
    _file_call("MPI_File_set_errhandler"),
    _file_call("MPI_File_get_errhandler", 1),
    _local("MPI_File_create_errhandler", "bamboo_file_create_errhandler", 1),
    _file_call("MPI_File_call_errhandler"),
    _local("MPI_Win_set_errhandler", "bamboo_win_set_errhandler"),
    _local("MPI_Win_get_errhandler", "bamboo_win_get_errhandler", 1),
    _local("MPI_Win_create_errhandler", "bamboo_win_create_errhandler", 1),
    _local("MPI_Win_call_errhandler", "bamboo_win_call_errhandler"),

    # ---- Names and cached attributes: each task's own (mpi/attributes.cpp)
    _local("MPI_Comm_set_name", "bamboo_comm_set_name", comm=0),
    _local("MPI_Comm_get_name", "bamboo_comm_get_name", 1, 2, comm=0),
    _local("MPI_Comm_create_keyval", "bamboo_comm_create_keyval", 2),
    _local("MPI_Comm_free_keyval", "bamboo_comm_free_keyval", 0),
    _local("MPI_Comm_set_attr", "bamboo_comm_set_attr", comm=0),
    _local("MPI_Comm_get_attr", "bamboo_comm_get_attr", 2, 3, comm=0),
    _local("MPI_Comm_delete_attr", "bamboo_comm_delete_attr", comm=0),
    _local("MPI_Keyval_create", "bamboo_keyval_create", 2),
    _local("MPI_Keyval_free", "bamboo_keyval_free", 0),
    _local("MPI_Attr_put", "bamboo_attr_put", comm=0),
    _local("MPI_Attr_get", "bamboo_attr_get", 2, 3, comm=0),
    _local("MPI_Attr_delete", "bamboo_attr_delete", comm=0),
    _local("MPI_Comm_set_info", "bamboo_comm_set_info", comm=0),
    _local("MPI_Comm_get_info", "bamboo_comm_get_info", 1, comm=0),

    # ---- The MPI library's own objects (mpi/library.cpp)
    MPIFunction("MPI_Get_processor_name", LOCAL, "bamboo_get_processor_name", outputs=(0, 1)),
    _local("MPI_Error_string", "bamboo_error_string", 1, 2),
    _local("MPI_Error_class", "bamboo_error_class", 1),
    _local("MPI_Get_version", "bamboo_get_version", 0, 1),
    _local("MPI_Get_library_version", "bamboo_get_library_version", 0, 1),
    _local("MPI_Alloc_mem", "bamboo_alloc_mem", 2),
    _local("MPI_Free_mem", "bamboo_free_mem"),
    _local("MPI_Info_create", "bamboo_info_create", 0),
    _local("MPI_Info_set", "bamboo_info_set"),
    _local("MPI_Info_get", "bamboo_info_get", 3, 4),
    _local("MPI_Info_get_nkeys", "bamboo_info_get_nkeys", 1),
    _local("MPI_Info_get_nthkey", "bamboo_info_get_nthkey", 2),
    _local("MPI_Info_get_valuelen", "bamboo_info_get_valuelen", 2, 3),
    _local("MPI_Info_dup", "bamboo_info_dup", 1),
    _local("MPI_Info_delete", "bamboo_info_delete"),
    _local("MPI_Info_free", "bamboo_info_free", 0),
    _local("MPI_Pack_external", "bamboo_pack_external", 4, 6),
    _local("MPI_Unpack_external", "bamboo_unpack_external", 3, 4),
    _local("MPI_Pack_external_size", "bamboo_pack_external_size", 3),
    _local("MPI_Status_set_elements", "bamboo_status_set_elements", 0),
    _local("MPI_Status_set_cancelled", "bamboo_status_set_cancelled", 0),
    _local("MPI_Test_cancelled", "bamboo_test_cancelled", 1),
    _local("MPI_Status_set_elements_x", "bamboo_status_set_elements_x", 0),

    # ---- Windows (mpi/windows.cpp)
    _collective("MPI_Win_create", "bamboo_win_create", None, comm=4, outputs=(5,)),
    _collective("MPI_Win_create_dynamic", "bamboo_win_create_dynamic", None, comm=1, outputs=(2,)),
    _local("MPI_Win_attach", "bamboo_win_attach"),
    _local("MPI_Win_detach", "bamboo_win_detach"),
    MPIFunction("MPI_Win_free", COLLECTIVE, "bamboo_win_free", outputs=(0,), blocking=True),
    _local("MPI_Win_get_group", "bamboo_win_get_group", 1),
    _local("MPI_Win_set_name", "bamboo_win_set_name"),
    _local("MPI_Win_get_name", "bamboo_win_get_name", 1, 2),
    _local("MPI_Win_create_keyval", "bamboo_win_create_keyval", 2),
    _local("MPI_Win_free_keyval", "bamboo_win_free_keyval", 0),
    _local("MPI_Win_set_attr", "bamboo_win_set_attr"),
    _local("MPI_Win_get_attr", "bamboo_win_get_attr", 2, 3),
    _local("MPI_Win_delete_attr", "bamboo_win_delete_attr"),
    _collective("MPI_Win_allocate", "bamboo_win_allocate", None, comm=3, outputs=(4, 5)),
    _collective("MPI_Win_allocate_shared", "bamboo_win_allocate_shared", None, comm=3, outputs=(4, 5)),
    _local("MPI_Win_shared_query", "bamboo_win_shared_query", 2, 3, 4),

    # ---- One-sided operations (mpi/one_sided.cpp)
    # Puts, gets and accumulates never wait (a get's buffer is written by the epoch's end, so
    # it is an output).
    _local("MPI_Put", "bamboo_put"),
    _local("MPI_Get", "bamboo_get", 0),
    _local("MPI_Accumulate", "bamboo_accumulate"),
    _local("MPI_Get_accumulate", "bamboo_get_accumulate", 3),
    _local("MPI_Fetch_and_op", "bamboo_fetch_and_op", 1),
    _local("MPI_Compare_and_swap", "bamboo_compare_and_swap", 2),
    # Request-based: the request (an output) completes as MPI_Wait or a flush finds it.
    _local("MPI_Rput", "bamboo_rput", 8),
    _local("MPI_Rget", "bamboo_rget", 0, 8),
    _local("MPI_Raccumulate", "bamboo_raccumulate", 9),
    _local("MPI_Rget_accumulate", "bamboo_rget_accumulate", 3, 12),

    # ---- One-sided epochs: fences, locks, flushes (mpi/window_epochs.cpp)
    # Fences are collective over the window's members; locks, unlocks and flushes wait for
    # the target's process but never for the target task's code.
    MPIFunction("MPI_Win_fence", COLLECTIVE, "bamboo_win_fence", blocking=True),
    MPIFunction("MPI_Win_lock", SETUP, "bamboo_win_lock", blocking=True),
    MPIFunction("MPI_Win_unlock", SETUP, "bamboo_win_unlock", blocking=True),
    MPIFunction("MPI_Win_lock_all", SETUP, "bamboo_win_lock_all", blocking=True),
    MPIFunction("MPI_Win_unlock_all", SETUP, "bamboo_win_unlock_all", blocking=True),
    MPIFunction("MPI_Win_flush", SETUP, "bamboo_win_flush", blocking=True),
    MPIFunction("MPI_Win_flush_all", SETUP, "bamboo_win_flush_all", blocking=True),
    MPIFunction("MPI_Win_flush_local", SETUP, "bamboo_win_flush_local", blocking=True),
    MPIFunction("MPI_Win_flush_local_all", SETUP, "bamboo_win_flush_local_all", blocking=True),
    # General active target: a post tells origins, a start waits for the targets' posts, a
    # complete tells targets, a wait (or a test that succeeds) waits for the origins'.
    MPIFunction("MPI_Win_post", SETUP, "bamboo_win_post", blocking=True),
    MPIFunction("MPI_Win_start", SETUP, "bamboo_win_start", blocking=True),
    MPIFunction("MPI_Win_complete", SETUP, "bamboo_win_complete", blocking=True),
    MPIFunction("MPI_Win_wait", SETUP, "bamboo_win_wait", blocking=True),
    MPIFunction("MPI_Win_test", SETUP, "bamboo_win_test", outputs=(1,)),
    _local("MPI_Win_sync", "bamboo_win_sync"),

    # ---- Files (MPI-IO) (mpi/files.cpp)
    # Each task reads and writes through its own handle of the MPI library. Reads write their
    # buffer (an output); nonblocking ones complete in a wait.
    _collective("MPI_File_open", "bamboo_file_open", None, comm=0, outputs=(4,)),
    _file_call("MPI_File_close", 0, collective=True),
    _local("MPI_File_delete", "bamboo_file_delete"),
    _file_call("MPI_File_set_size", collective=True),
    _file_call("MPI_File_preallocate", collective=True),
    _file_call("MPI_File_get_size", 1),
    _file_call("MPI_File_get_group", 1),
    _file_call("MPI_File_get_amode", 1),
    _file_call("MPI_File_set_info", collective=True),
    _file_call("MPI_File_get_info", 1),
    _file_call("MPI_File_set_view", collective=True),
    _file_call("MPI_File_get_view", 1, 2, 3, 4),
    _file_call("MPI_File_get_type_extent", 2),
    _file_call("MPI_File_set_atomicity", collective=True),
    _file_call("MPI_File_get_atomicity", 1),
    _file_call("MPI_File_sync", collective=True),

    # ---- Reading and writing files (mpi/file_access.cpp)
    # Explicit offsets: (fh, offset, buf, count, type, status or request).
    _file_call("MPI_File_read_at", 2, status=5),
    _file_call("MPI_File_write_at", status=5),
    _file_call("MPI_File_read_at_all", 2, collective=True, status=5),
    _file_call("MPI_File_write_at_all", collective=True, status=5),
    _file_call("MPI_File_iread_at", 2, request=5),
    _file_call("MPI_File_iwrite_at", request=5),
    _file_call("MPI_File_iread_at_all", 2, collective=True, request=5),
    _file_call("MPI_File_iwrite_at_all", collective=True, request=5),
    _file_call("MPI_File_read_at_all_begin", 2, collective=True),
    _file_call("MPI_File_read_at_all_end", 1, collective=True, status=2),
    _file_call("MPI_File_write_at_all_begin", collective=True),
    _file_call("MPI_File_write_at_all_end", collective=True, status=2),
    # The individual file pointer: (fh, buf, count, type, status or request).
    _file_call("MPI_File_read", 1, status=4),
    _file_call("MPI_File_write", status=4),
    _file_call("MPI_File_read_all", 1, collective=True, status=4),
    _file_call("MPI_File_write_all", collective=True, status=4),
    _file_call("MPI_File_iread", 1, request=4),
    _file_call("MPI_File_iwrite", request=4),
    _file_call("MPI_File_iread_all", 1, collective=True, request=4),
    _file_call("MPI_File_iwrite_all", collective=True, request=4),
    _file_call("MPI_File_read_all_begin", 1, collective=True),
    _file_call("MPI_File_read_all_end", 1, collective=True, status=2),
    _file_call("MPI_File_write_all_begin", collective=True),
    _file_call("MPI_File_write_all_end", collective=True, status=2),
    _file_call("MPI_File_seek"),
    _file_call("MPI_File_get_position", 1),
    _file_call("MPI_File_get_byte_offset", 2),
    # The shared file pointer; the ordered calls and seek_shared are collective.
    _file_call("MPI_File_read_shared", 1, status=4),
    _file_call("MPI_File_write_shared", status=4),
    _file_call("MPI_File_iread_shared", 1, request=4),
    _file_call("MPI_File_iwrite_shared", request=4),
    _file_call("MPI_File_read_ordered", 1, collective=True, status=4),
    _file_call("MPI_File_write_ordered", collective=True, status=4),
    _file_call("MPI_File_read_ordered_begin", 1, collective=True),
    _file_call("MPI_File_read_ordered_end", 1, collective=True, status=2),
    _file_call("MPI_File_write_ordered_begin", collective=True),
    _file_call("MPI_File_write_ordered_end", collective=True, status=2),
    _file_call("MPI_File_seek_shared", collective=True),
    _file_call("MPI_File_get_position_shared", 1),
]

SUPPORTED: dict[str, MPIFunction] = {f.name: f for f in _TABLE}

# C library functions bamboo.h also redirects, to per-task versions (exit ends the task,
# rand, random and drand48 draw from the task's own generator, strtok and getopt keep the
# task's own place, sleeps suspend the task only). A program may not define its own.
LIBC_REPLACED = ("exit", "rand", "srand", "random", "srandom",
                 "drand48", "lrand48", "mrand48", "erand48", "nrand48", "jrand48", "srand48",
                 "seed48", "lcong48", "strtok", "getopt", "getopt_long", "getopt_long_only",
                 "sleep", "usleep", "nanosleep")
# Runtime functions that lowered comm directives call (comm_directives/targets.py): local,
# like a function of the system's headers (they neither send nor receive nor touch the
# program's memory), so a receive after one can still be announced.
RUNTIME_LOCAL = ("bamboo_comm_world",)
# C library variables the runtime makes the task's own: the translator rewrites each use of
# the library's (transforms/privatize.py).
LIBC_VARIABLES_REPLACED = ("optarg", "optind", "opterr", "optopt")
# Variables the C library defines. A program's `extern` declaration of one (POSIX has
# programs declare `extern char **environ;` themselves) is not a global of the program.
LIBC_VARIABLES = LIBC_VARIABLES_REPLACED + (
    "environ", "__environ", "timezone", "daylight", "tzname", "signgam",
    "program_invocation_name", "program_invocation_short_name")


def lookup(name: str) -> MPIFunction | None:
    return SUPPORTED.get(name)


def is_mpi_name(name: str) -> bool:
    """Names the MPI standard reserves for its functions (and the profiling interface)."""
    return name.startswith("MPI_") or name.startswith("PMPI_")
