// The neighbourhood collectives (MPI_Neighbor_*): each task trades blocks with the neighbours
// its communicator's topology gives it (communicators/topology.hpp), straight, in the order MPI
// numbers them. The nonblocking ones run these as background work
// (mpi/nonblocking_collectives.cpp).
#include <mpi.h>

#include <vector>

#include "bamboo.h"
#include "collectives/algorithms.hpp"
#include "communicators/topology.hpp"
#include "mpi/api.hpp"
#include "mpi/collective_call.hpp"

namespace bamboo {
namespace {

// A neighbourhood collective's call: its neighbours, and the buffers it may not share.
struct NeighborCall : CollectiveCall {
    NeighborCall(const char* called, bamboo_site at, MPI_Comm comm, const void* sendbuf)
        : CollectiveCall(called, at, comm) {
        const Topology* topology = view.comm->topology();
        if (!topology)
            call_error(MPI_ERR_TOPOLOGY, self.vrank(), name, at, "%s has no topology (Cartesian, graph or distributed graph)",
                       view.comm->name().c_str());
        neighbours = neighbours_of(*topology, rank());
        no_in_place(*this, sendbuf, "a neighbourhood collective");
    }

    int indegree() const { return static_cast<int>(neighbours.sources.size()); }
    int outdegree() const { return static_cast<int>(neighbours.destinations.size()); }
    // The neighbours' counts and displacements: `n` of each.
    std::vector<int> displacements(const int* values, const char* what, int n) const {
        check_not_null(self, values, what, name, at);
        return std::vector<int>(values, values + n);
    }
    void exchange(const Blocks& send, const Blocks& recv) {
        collectives::neighbor_exchange(channel, neighbours, send, recv);
    }
    // Only the blocks that came: those of MPI_PROC_NULL neighbours stay as they were.
    template <class Out>
    void unpack_received(const Out& out) const {
        for (int i = 0; i < indegree(); ++i)
            if (neighbours.sources[static_cast<std::size_t>(i)] >= 0) out.unpack_out(i);
    }

    Neighbours neighbours;
};

// One packed block, sent to every destination.
Blocks same_block_to_all(const PackedData& mine, int n) {
    Blocks blocks;
    blocks.base = mine.data();
    blocks.offset.assign(static_cast<std::size_t>(n), 0);
    blocks.size.assign(static_cast<std::size_t>(n), mine.bytes());
    return blocks;
}

int allgather_common(NeighborCall& c, const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf,
                     const std::vector<int>& counts, const std::vector<int>& displs, MPI_Datatype recvtype) {
    PackedData mine(c.buffer(sendbuf, sendcount, sendtype));
    mine.pack_in();
    UserBlocks out(c.buffer(recvbuf, 0, recvtype), counts, displs);
    c.exchange(same_block_to_all(mine, c.outdegree()), out.blocks());
    c.unpack_received(out);
    return MPI_SUCCESS;
}

int alltoall_common(NeighborCall& c, const void* sendbuf, const std::vector<int>& send_counts,
                    const std::vector<int>& sdispls, MPI_Datatype sendtype, void* recvbuf,
                    const std::vector<int>& recv_counts, const std::vector<int>& rdispls, MPI_Datatype recvtype) {
    UserBlocks in(c.buffer(sendbuf, 0, sendtype), send_counts, sdispls);
    in.pack_in();
    UserBlocks out(c.buffer(recvbuf, 0, recvtype), recv_counts, rdispls);
    c.exchange(in.blocks(), out.blocks());
    c.unpack_received(out);
    return MPI_SUCCESS;
}

}  // namespace
}  // namespace bamboo

using namespace bamboo;

extern "C" {

int bamboo_neighbor_allgather(bamboo_site at, const void* sendbuf, int sendcount, MPI_Datatype sendtype,
                              void* recvbuf, int recvcount, MPI_Datatype recvtype, MPI_Comm comm) {
    return checked_call(comm, [&]() -> int {
        NeighborCall c("MPI_Neighbor_allgather", at, comm, sendbuf);
        check_count(c.self, recvcount, "the receive count", c.name, at);
        std::vector<int> counts = uniform(c.indegree(), recvcount);
        return allgather_common(c, sendbuf, sendcount, sendtype, recvbuf, counts, back_to_back(counts), recvtype);
    });
}

int bamboo_neighbor_allgatherv(bamboo_site at, const void* sendbuf, int sendcount, MPI_Datatype sendtype,
                               void* recvbuf, const int recvcounts[], const int displs[], MPI_Datatype recvtype,
                               MPI_Comm comm) {
    return checked_call(comm, [&]() -> int {
        NeighborCall c("MPI_Neighbor_allgatherv", at, comm, sendbuf);
        std::vector<int> counts = c.counts(recvcounts, "recvcounts", c.indegree());
        return allgather_common(c, sendbuf, sendcount, sendtype, recvbuf, counts,
                                c.displacements(displs, "displs", c.indegree()), recvtype);
    });
}

int bamboo_neighbor_alltoall(bamboo_site at, const void* sendbuf, int sendcount, MPI_Datatype sendtype,
                             void* recvbuf, int recvcount, MPI_Datatype recvtype, MPI_Comm comm) {
    return checked_call(comm, [&]() -> int {
        NeighborCall c("MPI_Neighbor_alltoall", at, comm, sendbuf);
        check_count(c.self, sendcount, "the send count", c.name, at);
        check_count(c.self, recvcount, "the receive count", c.name, at);
        std::vector<int> send_counts = uniform(c.outdegree(), sendcount), recv_counts = uniform(c.indegree(), recvcount);
        return alltoall_common(c, sendbuf, send_counts, back_to_back(send_counts), sendtype, recvbuf, recv_counts,
                               back_to_back(recv_counts), recvtype);
    });
}

int bamboo_neighbor_alltoallv(bamboo_site at, const void* sendbuf, const int sendcounts[], const int sdispls[],
                              MPI_Datatype sendtype, void* recvbuf, const int recvcounts[], const int rdispls[],
                              MPI_Datatype recvtype, MPI_Comm comm) {
    return checked_call(comm, [&]() -> int {
        NeighborCall c("MPI_Neighbor_alltoallv", at, comm, sendbuf);
        return alltoall_common(c, sendbuf, c.counts(sendcounts, "sendcounts", c.outdegree()),
                               c.displacements(sdispls, "sdispls", c.outdegree()), sendtype, recvbuf,
                               c.counts(recvcounts, "recvcounts", c.indegree()),
                               c.displacements(rdispls, "rdispls", c.indegree()), recvtype);
    });
}

int bamboo_neighbor_alltoallw(bamboo_site at, const void* sendbuf, const int sendcounts[], const MPI_Aint sdispls[],
                              const MPI_Datatype sendtypes[], void* recvbuf, const int recvcounts[],
                              const MPI_Aint rdispls[], const MPI_Datatype recvtypes[], MPI_Comm comm) {
    return checked_call(comm, [&]() -> int {
        NeighborCall c("MPI_Neighbor_alltoallw", at, comm, sendbuf);
        TypedBlocks in(c, c.outdegree(), sendbuf, sendcounts, sdispls, sendtypes, "send");
        TypedBlocks out(c, c.indegree(), recvbuf, recvcounts, rdispls, recvtypes, "recv");
        in.pack_in();
        c.exchange(in.blocks(), out.blocks());
        c.unpack_received(out);
        return MPI_SUCCESS;
    });
}

}  // extern "C"
