// Collective MPI calls: their arguments checked, the user's datatypes packed into the bytes
// the algorithms move (and unpacked after), then the algorithms of collectives/algorithms.hpp.
#include <mpi.h>

#include <cstring>
#include <mutex>
#include <numeric>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "bamboo.h"
#include "collectives/algorithms.hpp"
#include "collectives/channel.hpp"
#include "collectives/intercommunicator.hpp"
#include "collectives/reduction.hpp"
#include "collectives/structure.hpp"
#include "messaging/rank.hpp"
#include "mpi/api.hpp"
#include "mpi/collective_call.hpp"
#include "util/errors.hpp"
#include "util/mpi_guard.hpp"

namespace bamboo {

const char* as_called(const char* name) {
    Rank* self = Rank::current();
    if (!self || !self->background.inside()) return name;
    static const std::unordered_map<std::string_view, const char*> nonblocking = {
        {"MPI_Barrier", "MPI_Ibarrier"}, {"MPI_Bcast", "MPI_Ibcast"}, {"MPI_Reduce", "MPI_Ireduce"},
        {"MPI_Allreduce", "MPI_Iallreduce"}, {"MPI_Gather", "MPI_Igather"}, {"MPI_Gatherv", "MPI_Igatherv"},
        {"MPI_Scatter", "MPI_Iscatter"}, {"MPI_Scatterv", "MPI_Iscatterv"}, {"MPI_Allgather", "MPI_Iallgather"},
        {"MPI_Allgatherv", "MPI_Iallgatherv"}, {"MPI_Alltoall", "MPI_Ialltoall"},
        {"MPI_Alltoallv", "MPI_Ialltoallv"}, {"MPI_Alltoallw", "MPI_Ialltoallw"},
        {"MPI_Reduce_scatter", "MPI_Ireduce_scatter"}, {"MPI_Reduce_scatter_block", "MPI_Ireduce_scatter_block"},
        {"MPI_Scan", "MPI_Iscan"}, {"MPI_Exscan", "MPI_Iexscan"},
        {"MPI_Neighbor_allgather", "MPI_Ineighbor_allgather"}, {"MPI_Neighbor_allgatherv", "MPI_Ineighbor_allgatherv"},
        {"MPI_Neighbor_alltoall", "MPI_Ineighbor_alltoall"}, {"MPI_Neighbor_alltoallv", "MPI_Ineighbor_alltoallv"},
        {"MPI_Neighbor_alltoallw", "MPI_Ineighbor_alltoallw"}};
    auto it = nonblocking.find(name);
    return it == nonblocking.end() ? name : it->second;
}

namespace {

namespace inter = collectives::inter;

// A reduction's operand, filled from the user's buffer.
Operand operand_from(const TypedBuffer& user) {
    Operand operand(user.count, user.type, user.layout);
    copy(user, operand.typed());
    return operand;
}

int gather_common(CollectiveCall& c, const void* sendbuf, int sendcount, MPI_Datatype sendtype,
                  void* recvbuf, const std::vector<int>* counts, const std::vector<int>* displs,
                  MPI_Datatype recvtype, int root, bool variable) {
    c.check_root(root);
    bool at_root = c.rank() == root;
    if (!at_root) no_in_place(c, sendbuf, "the send buffer of a rank other than the root");
    if (at_root) {
        TypedBuffer whole = c.buffer(recvbuf, 0, recvtype);
        UserBlocks out(whole, *counts, *displs);
        PackedData mine(in_place(sendbuf) ? TypedBuffer{} : c.buffer(sendbuf, sendcount, sendtype));
        const char* my_data = mine.data();
        std::size_t my_bytes = mine.bytes();
        if (in_place(sendbuf)) {
            out.pack_in(root);
            my_data = out.blocks().at(root);
            my_bytes = out.blocks().size[static_cast<std::size_t>(root)];
        } else {
            mine.pack_in();
        }
        collectives::gather(c.channel, root, my_data, my_bytes, variable ? nullptr : &out.blocks().size,
                            &out.blocks());
        out.unpack_out();
        return MPI_SUCCESS;
    }
    PackedData mine(c.buffer(sendbuf, sendcount, sendtype));
    mine.pack_in();
    std::vector<std::size_t> sizes(static_cast<std::size_t>(c.size()), mine.bytes());
    collectives::gather(c.channel, root, mine.data(), mine.bytes(), variable ? nullptr : &sizes, nullptr);
    return MPI_SUCCESS;
}

// `variable`: MPI_Scatterv, where only the root knows every block's size.
int scatter_common(CollectiveCall& c, const void* sendbuf, const std::vector<int>* counts,
                   const std::vector<int>* displs, MPI_Datatype sendtype, void* recvbuf,
                   int recvcount, MPI_Datatype recvtype, int root, bool variable) {
    c.check_root(root);
    bool at_root = c.rank() == root;
    if (!at_root) no_in_place(c, recvbuf, "the receive buffer of a rank other than the root");
    if (at_root) {
        UserBlocks in(c.buffer(sendbuf, 0, sendtype), *counts, *displs);
        in.pack_in();
        const Blocks& blocks = in.blocks();
        if (in_place(recvbuf)) {
            // The root's own block stays where it is; it still travels the tree's first hop.
            std::vector<char> discard(blocks.size[static_cast<std::size_t>(root)]);
            collectives::scatter(c.channel, root, &blocks, variable ? nullptr : &blocks.size,
                                 discard.data(), discard.size());
            return MPI_SUCCESS;
        }
        PackedData mine(c.buffer(recvbuf, recvcount, recvtype));
        collectives::scatter(c.channel, root, &blocks, variable ? nullptr : &blocks.size, mine.data(),
                             mine.bytes());
        mine.unpack_out();
        return MPI_SUCCESS;
    }
    PackedData mine(c.buffer(recvbuf, recvcount, recvtype));
    std::vector<std::size_t> sizes(static_cast<std::size_t>(c.size()), mine.bytes());
    collectives::scatter(c.channel, root, nullptr, variable ? nullptr : &sizes, mine.data(), mine.bytes());
    mine.unpack_out();
    return MPI_SUCCESS;
}

int allgather_common(CollectiveCall& c, const void* sendbuf, int sendcount, MPI_Datatype sendtype,
                     void* recvbuf, const std::vector<int>& counts, const std::vector<int>& displs,
                     MPI_Datatype recvtype) {
    UserBlocks out(c.buffer(recvbuf, 0, recvtype), counts, displs);
    if (in_place(sendbuf)) {
        out.pack_in(c.rank());
        collectives::allgather(c.channel, out.blocks().at(c.rank()), out.blocks());
    } else {
        PackedData mine(c.buffer(sendbuf, sendcount, sendtype));
        mine.pack_in();
        if (mine.bytes() != out.blocks().size[static_cast<std::size_t>(c.rank())])
            c.channel.fail("this rank sends %zu bytes but expects %zu from every rank of its own "
                           "count: the counts or datatypes do not match",
                           mine.bytes(), out.blocks().size[static_cast<std::size_t>(c.rank())]);
        collectives::allgather(c.channel, mine.data(), out.blocks());
    }
    out.unpack_out();
    return MPI_SUCCESS;
}

// A reduction whose result lands in `recvbuf` where `lands_here` (all ranks but the root of
// a reduce, and rank 0 of an exscan).
template <class Algorithm>
int reduction_common(CollectiveCall& c, const void* sendbuf, void* recvbuf, int count,
                     MPI_Datatype type, MPI_Op op, bool lands_here, Algorithm algorithm) {
    Reduction r = c.reduction(op, type, count);
    TypedBuffer recv = c.buffer(recvbuf, count, type);
    TypedBuffer input = in_place(sendbuf) ? recv : c.buffer(sendbuf, count, type);
    // The result accumulates where it lands; a rank where it does not land reads its operand
    // in place until it must combine into it.
    Operand acc = lands_here && recv.layout.contiguous ? Operand::over(recv, input)
                  : !lands_here && input.layout.contiguous ? Operand::borrowing(input)
                                                             : operand_from(input);
    algorithm(acc, r);
    // Unless the algorithm left the result in another buffer (an order-keeping reduction
    // swaps its operands), it is in place.
    if (lands_here && acc.bytes() != recv.data()) copy(acc.typed(), recv);
    return MPI_SUCCESS;
}

// Reduce_scatter: a reduction of the whole vector to rank 0, which scatters the blocks. On an
// intercommunicator each group gets the other's reduction (`counts` are its own group's):
// each group reduces at its leader, the leaders trade, and each scatters what it got.
int reduce_scatter_common(CollectiveCall& c, const void* sendbuf, void* recvbuf,
                          const std::vector<int>& counts, MPI_Datatype type, MPI_Op op) {
    int total = std::accumulate(counts.begin(), counts.end(), 0);
    Reduction r = c.reduction(op, type, total);
    if (c.inter()) no_in_place(c, sendbuf, "an intercommunicator");
    TypedBuffer input = c.buffer(in_place(sendbuf) ? recvbuf : sendbuf, total, type);
    Operand acc = operand_from(input);
    std::optional<inter::Channels> between;
    if (c.inter()) {
        between.emplace(c.inter_channels());
        inter::reduce_at_leaders_and_trade(*between, acc, r);
    } else {
        collectives::reduce(c.channel, 0, acc, r);
    }
    CollectiveChannel& within = between ? between->group : c.channel;
    PackedData mine(c.buffer(recvbuf, counts[static_cast<std::size_t>(c.rank())], type));
    UserBlocks result(acc.typed(), counts, back_to_back(counts));  // significant at rank 0
    if (c.rank() == 0) result.pack_in();
    collectives::scatter(within, 0, c.rank() == 0 ? &result.blocks() : nullptr, &result.blocks().size,
                         mine.data(), mine.bytes());
    mine.unpack_out();
    return MPI_SUCCESS;
}

// ---- Collectives on intercommunicators (collectives/intercommunicator.hpp) ----

// Rooted collectives: the root (MPI_ROOT) deals with the other group's leader, the rest of its
// group (MPI_PROC_NULL) with no one, and the other group (the root's rank) relays in itself.
enum class InterRole { root, idle, relay };

InterRole inter_role(const CollectiveCall& c, int root) {
    if (root == MPI_ROOT) return InterRole::root;
    if (root == MPI_PROC_NULL) return InterRole::idle;
    check_source(c.self, c.view, root, c.name, c.at);
    return InterRole::relay;
}

// Gather and Gatherv.
int inter_gather(CollectiveCall& c, const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf,
                 const std::vector<int>& counts, const std::vector<int>& displs, MPI_Datatype recvtype, int root) {
    switch (inter_role(c, root)) {
        case InterRole::idle: break;
        case InterRole::root: {
            UserBlocks out(c.buffer(recvbuf, 0, recvtype), counts, displs);
            inter::gather_at_root(c.channel, out.blocks());
            out.unpack_out();
            break;
        }
        case InterRole::relay: {
            PackedData mine(c.buffer(sendbuf, sendcount, sendtype));
            mine.pack_in();
            inter::Channels ch = c.inter_channels();
            inter::gather(ch, root, mine.data(), mine.bytes());
            break;
        }
    }
    return MPI_SUCCESS;
}

// Scatter and Scatterv.
int inter_scatter(CollectiveCall& c, const void* sendbuf, const std::vector<int>& counts,
                  const std::vector<int>& displs, MPI_Datatype sendtype, void* recvbuf, int recvcount,
                  MPI_Datatype recvtype, int root) {
    switch (inter_role(c, root)) {
        case InterRole::idle: break;
        case InterRole::root: {
            UserBlocks in(c.buffer(sendbuf, 0, sendtype), counts, displs);
            in.pack_in();
            inter::scatter_at_root(c.channel, in.blocks());
            break;
        }
        case InterRole::relay: {
            PackedData mine(c.buffer(recvbuf, recvcount, recvtype));
            inter::Channels ch = c.inter_channels();
            inter::scatter(ch, root, mine.data(), mine.bytes());
            mine.unpack_out();
            break;
        }
    }
    return MPI_SUCCESS;
}

// Allgather and Allgatherv.
int inter_allgather(CollectiveCall& c, const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf,
                    const std::vector<int>& counts, const std::vector<int>& displs, MPI_Datatype recvtype) {
    no_in_place(c, sendbuf, "an intercommunicator");
    PackedData mine(c.buffer(sendbuf, sendcount, sendtype));
    mine.pack_in();
    UserBlocks out(c.buffer(recvbuf, 0, recvtype), counts, displs);
    inter::Channels ch = c.inter_channels();
    inter::allgather(ch, mine.data(), mine.bytes(), out.blocks());
    out.unpack_out();
    return MPI_SUCCESS;
}

int inter_reduce(CollectiveCall& c, const void* sendbuf, void* recvbuf, int count, MPI_Datatype type, MPI_Op op,
                 int root) {
    switch (inter_role(c, root)) {
        case InterRole::idle: break;
        case InterRole::root: {
            Reduction r = c.reduction(op, type, count);
            TypedBuffer recv = c.buffer(recvbuf, count, type);
            Operand result = r.operand(recv.layout);
            inter::reduce_at_root(c.channel, result);
            copy(result.typed(), recv);
            break;
        }
        case InterRole::relay: {
            no_in_place(c, sendbuf, "an intercommunicator");
            Reduction r = c.reduction(op, type, count);
            Operand acc = operand_from(c.buffer(sendbuf, count, type));
            inter::Channels ch = c.inter_channels();
            inter::reduce(ch, root, acc, r);
            break;
        }
    }
    return MPI_SUCCESS;
}

int inter_bcast(CollectiveCall& c, void* buffer, int count, MPI_Datatype type, int root) {
    if (root == MPI_PROC_NULL) return MPI_SUCCESS;
    PackedData data(c.buffer(buffer, count, type));
    if (root == MPI_ROOT) {
        data.pack_in();
        inter::bcast_at_root(c.channel, data.data(), data.bytes());
        return MPI_SUCCESS;
    }
    check_source(c.self, c.view, root, c.name, c.at);
    inter::Channels ch = c.inter_channels();
    inter::bcast(ch, root, data.data(), data.bytes());
    data.unpack_out();
    return MPI_SUCCESS;
}

int inter_allreduce(CollectiveCall& c, const void* sendbuf, void* recvbuf, int count, MPI_Datatype type,
                    MPI_Op op) {
    no_in_place(c, sendbuf, "an intercommunicator");
    Reduction r = c.reduction(op, type, count);
    TypedBuffer recv = c.buffer(recvbuf, count, type);
    Operand acc = operand_from(c.buffer(sendbuf, count, type));
    inter::Channels ch = c.inter_channels();
    inter::allreduce(ch, acc, r);
    copy(acc.typed(), recv);
    return MPI_SUCCESS;
}

}  // namespace
}  // namespace bamboo

using namespace bamboo;

extern "C" {

int bamboo_barrier(bamboo_site at, MPI_Comm comm) {
    return checked_call(comm, [&]() -> int {
        CollectiveCall c("MPI_Barrier", at, comm);
        if (c.inter()) {
            inter::Channels ch = c.inter_channels();
            inter::barrier(ch);
        } else {
            collectives::barrier(c.channel);
        }
        return MPI_SUCCESS;
    });
}

int bamboo_bcast(bamboo_site at, void* buffer, int count, MPI_Datatype type, int root, MPI_Comm comm) {
    return checked_call(comm, [&]() -> int {
        CollectiveCall c("MPI_Bcast", at, comm);
        if (c.inter()) return inter_bcast(c, buffer, count, type, root);
        c.check_root(root);
        PackedData data(c.buffer(buffer, count, type));
        if (c.rank() == root) data.pack_in();
        collectives::bcast(c.channel, root, data.data(), data.bytes());
        if (c.rank() != root) data.unpack_out();
        return MPI_SUCCESS;
    });
}

int bamboo_reduce(bamboo_site at, const void* sendbuf, void* recvbuf, int count, MPI_Datatype type,
                  MPI_Op op, int root, MPI_Comm comm) {
    return checked_call(comm, [&]() -> int {
        CollectiveCall c("MPI_Reduce", at, comm);
        if (c.inter()) return inter_reduce(c, sendbuf, recvbuf, count, type, op, root);
        c.check_root(root);
        if (c.rank() != root) {
            no_in_place(c, sendbuf, "the send buffer of a rank other than the root");
            recvbuf = nullptr;  // not significant away from the root
        }
        return reduction_common(c, sendbuf, recvbuf, count, type, op, c.rank() == root,
                                [&](Operand& acc, const Reduction& r) { collectives::reduce(c.channel, root, acc, r); });
    });
}

int bamboo_allreduce(bamboo_site at, const void* sendbuf, void* recvbuf, int count,
                     MPI_Datatype type, MPI_Op op, MPI_Comm comm) {
    return checked_call(comm, [&]() -> int {
        CollectiveCall c("MPI_Allreduce", at, comm);
        if (c.inter()) return inter_allreduce(c, sendbuf, recvbuf, count, type, op);
        return reduction_common(c, sendbuf, recvbuf, count, type, op, true,
                                [&](Operand& acc, const Reduction& r) { collectives::allreduce(c.channel, acc, r); });
    });
}

int bamboo_scan(bamboo_site at, const void* sendbuf, void* recvbuf, int count, MPI_Datatype type,
                MPI_Op op, MPI_Comm comm) {
    return checked_call(comm, [&]() -> int {
        CollectiveCall c("MPI_Scan", at, comm);
        return reduction_common(c, sendbuf, recvbuf, count, type, op, true,
                                [&](Operand& acc, const Reduction& r) { collectives::scan(c.channel, acc, r); });
    });
}

int bamboo_exscan(bamboo_site at, const void* sendbuf, void* recvbuf, int count, MPI_Datatype type,
                  MPI_Op op, MPI_Comm comm) {
    return checked_call(comm, [&]() -> int {
        CollectiveCall c("MPI_Exscan", at, comm);
        return reduction_common(c, sendbuf, recvbuf, count, type, op, c.rank() != 0,
                                [&](Operand& acc, const Reduction& r) { collectives::exscan(c.channel, acc, r); });
    });
}

int bamboo_reduce_scatter_block(bamboo_site at, const void* sendbuf, void* recvbuf, int recvcount,
                                MPI_Datatype type, MPI_Op op, MPI_Comm comm) {
    return checked_call(comm, [&]() -> int {
        CollectiveCall c("MPI_Reduce_scatter_block", at, comm);
        check_count(c.self, recvcount, "the count", c.name, at);
        return reduce_scatter_common(c, sendbuf, recvbuf, uniform(c.size(), recvcount), type, op);
    });
}

int bamboo_reduce_scatter(bamboo_site at, const void* sendbuf, void* recvbuf, const int recvcounts[],
                          MPI_Datatype type, MPI_Op op, MPI_Comm comm) {
    return checked_call(comm, [&]() -> int {
        CollectiveCall c("MPI_Reduce_scatter", at, comm);
        // One count per rank of the calling task's own group, also on an intercommunicator.
        return reduce_scatter_common(c, sendbuf, recvbuf, c.counts(recvcounts, "recvcounts", c.size()), type, op);
    });
}

int bamboo_gather(bamboo_site at, const void* sendbuf, int sendcount, MPI_Datatype sendtype,
                  void* recvbuf, int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm) {
    return checked_call(comm, [&]() -> int {
        CollectiveCall c("MPI_Gather", at, comm);
        if (c.inter()) {
            std::vector<int> counts = uniform(c.peers(), recvcount);
            return inter_gather(c, sendbuf, sendcount, sendtype, recvbuf, counts, back_to_back(counts), recvtype, root);
        }
        std::vector<int> counts = uniform(c.size(), recvcount);
        std::vector<int> displs = back_to_back(counts);
        return gather_common(c, sendbuf, sendcount, sendtype, recvbuf, &counts, &displs, recvtype, root, false);
    });
}

int bamboo_gatherv(bamboo_site at, const void* sendbuf, int sendcount, MPI_Datatype sendtype,
                   void* recvbuf, const int recvcounts[], const int displs[], MPI_Datatype recvtype,
                   int root, MPI_Comm comm) {
    return checked_call(comm, [&]() -> int {
        CollectiveCall c("MPI_Gatherv", at, comm);
        std::vector<int> counts, offsets;
        c.root_layout(root, recvcounts, "recvcounts", displs, &counts, &offsets);
        if (c.inter())
            return inter_gather(c, sendbuf, sendcount, sendtype, recvbuf, counts, offsets, recvtype, root);
        return gather_common(c, sendbuf, sendcount, sendtype, recvbuf, &counts, &offsets, recvtype, root, true);
    });
}

int bamboo_scatter(bamboo_site at, const void* sendbuf, int sendcount, MPI_Datatype sendtype,
                   void* recvbuf, int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm) {
    return checked_call(comm, [&]() -> int {
        CollectiveCall c("MPI_Scatter", at, comm);
        if (c.inter()) {
            std::vector<int> counts = uniform(c.peers(), sendcount);
            return inter_scatter(c, sendbuf, counts, back_to_back(counts), sendtype, recvbuf, recvcount, recvtype, root);
        }
        std::vector<int> counts = uniform(c.size(), sendcount);
        std::vector<int> displs = back_to_back(counts);
        return scatter_common(c, sendbuf, &counts, &displs, sendtype, recvbuf, recvcount, recvtype, root, false);
    });
}

int bamboo_scatterv(bamboo_site at, const void* sendbuf, const int sendcounts[], const int displs[],
                    MPI_Datatype sendtype, void* recvbuf, int recvcount, MPI_Datatype recvtype,
                    int root, MPI_Comm comm) {
    return checked_call(comm, [&]() -> int {
        CollectiveCall c("MPI_Scatterv", at, comm);
        std::vector<int> counts, offsets;
        c.root_layout(root, sendcounts, "sendcounts", displs, &counts, &offsets);
        if (c.inter())
            return inter_scatter(c, sendbuf, counts, offsets, sendtype, recvbuf, recvcount, recvtype, root);
        return scatter_common(c, sendbuf, &counts, &offsets, sendtype, recvbuf, recvcount, recvtype, root, true);
    });
}

int bamboo_allgather(bamboo_site at, const void* sendbuf, int sendcount, MPI_Datatype sendtype,
                     void* recvbuf, int recvcount, MPI_Datatype recvtype, MPI_Comm comm) {
    return checked_call(comm, [&]() -> int {
        CollectiveCall c("MPI_Allgather", at, comm);
        if (c.inter()) {
            std::vector<int> counts = uniform(c.peers(), recvcount);
            return inter_allgather(c, sendbuf, sendcount, sendtype, recvbuf, counts, back_to_back(counts), recvtype);
        }
        std::vector<int> counts = uniform(c.size(), recvcount);
        return allgather_common(c, sendbuf, sendcount, sendtype, recvbuf, counts, back_to_back(counts), recvtype);
    });
}

int bamboo_allgatherv(bamboo_site at, const void* sendbuf, int sendcount, MPI_Datatype sendtype,
                      void* recvbuf, const int recvcounts[], const int displs[],
                      MPI_Datatype recvtype, MPI_Comm comm) {
    return checked_call(comm, [&]() -> int {
        CollectiveCall c("MPI_Allgatherv", at, comm);
        std::vector<int> counts = c.counts(recvcounts, "recvcounts");
        check_not_null(c.self, displs, "displs", c.name, at);
        std::vector<int> offsets(displs, displs + c.peers());
        if (c.inter()) return inter_allgather(c, sendbuf, sendcount, sendtype, recvbuf, counts, offsets, recvtype);
        return allgather_common(c, sendbuf, sendcount, sendtype, recvbuf, counts, offsets, recvtype);
    });
}

int bamboo_alltoall(bamboo_site at, const void* sendbuf, int sendcount, MPI_Datatype sendtype,
                    void* recvbuf, int recvcount, MPI_Datatype recvtype, MPI_Comm comm) {
    return checked_call(comm, [&]() -> int {
        CollectiveCall c("MPI_Alltoall", at, comm);
        if (c.inter()) {
            no_in_place(c, sendbuf, "an intercommunicator");
            std::vector<int> send_counts = uniform(c.peers(), sendcount), recv_counts = uniform(c.peers(), recvcount);
            UserBlocks in(c.buffer(sendbuf, 0, sendtype), send_counts, back_to_back(send_counts));
            UserBlocks out(c.buffer(recvbuf, 0, recvtype), recv_counts, back_to_back(recv_counts));
            in.pack_in();
            inter::alltoall(c.channel, in.blocks(), out.blocks());
            out.unpack_out();
            return MPI_SUCCESS;
        }
        std::vector<int> recv_counts = uniform(c.size(), recvcount);
        UserBlocks out(c.buffer(recvbuf, 0, recvtype), recv_counts, back_to_back(recv_counts));
        std::size_t block = out.blocks().size[0];
        if (in_place(sendbuf)) {
            // The receive buffer is the send buffer too: send from a packed copy of it.
            out.pack_in();
            ByteBuffer send(block * static_cast<std::size_t>(c.size()));
            std::memcpy(send.get(), out.blocks().base, block * static_cast<std::size_t>(c.size()));
            collectives::alltoall(c.channel, send.get(), out.blocks().base, block);
        } else {
            std::vector<int> send_counts = uniform(c.size(), sendcount);
            UserBlocks in(c.buffer(sendbuf, 0, sendtype), send_counts, back_to_back(send_counts));
            in.pack_in();
            if (in.blocks().size[0] != block)
                c.channel.fail("this rank sends blocks of %zu bytes but expects blocks of %zu: the "
                               "counts or datatypes do not match",
                               in.blocks().size[0], block);
            collectives::alltoall(c.channel, in.blocks().base, out.blocks().base, block);
        }
        out.unpack_out();
        return MPI_SUCCESS;
    });
}

int bamboo_alltoallv(bamboo_site at, const void* sendbuf, const int sendcounts[], const int sdispls[],
                     MPI_Datatype sendtype, void* recvbuf, const int recvcounts[],
                     const int rdispls[], MPI_Datatype recvtype, MPI_Comm comm) {
    return checked_call(comm, [&]() -> int {
        CollectiveCall c("MPI_Alltoallv", at, comm);
        std::vector<int> rcounts = c.counts(recvcounts, "recvcounts");
        check_not_null(c.self, rdispls, "rdispls", c.name, at);
        UserBlocks out(c.buffer(recvbuf, 0, recvtype), rcounts, std::vector<int>(rdispls, rdispls + c.peers()));
        if (c.inter()) {
            no_in_place(c, sendbuf, "an intercommunicator");
            std::vector<int> scounts = c.counts(sendcounts, "sendcounts");
            check_not_null(c.self, sdispls, "sdispls", c.name, at);
            UserBlocks in(c.buffer(sendbuf, 0, sendtype), scounts, std::vector<int>(sdispls, sdispls + c.peers()));
            in.pack_in();
            inter::alltoall(c.channel, in.blocks(), out.blocks());
        } else if (in_place(sendbuf)) {
            // The receive buffer is the send buffer too: send from a packed copy of it.
            out.pack_in();
            const Blocks& recv = out.blocks();
            Blocks send{nullptr, {}, recv.size};
            std::size_t total = 0;
            for (std::size_t size : recv.size) send.offset.push_back(total), total += size;
            ByteBuffer copy_of_recv(total);
            send.base = copy_of_recv.get();
            for (int r = 0; r < c.size(); ++r)
                std::memcpy(send.at(r), recv.at(r), recv.size[static_cast<std::size_t>(r)]);
            collectives::alltoallv(c.channel, send, recv);
        } else {
            std::vector<int> scounts = c.counts(sendcounts, "sendcounts");
            check_not_null(c.self, sdispls, "sdispls", c.name, at);
            UserBlocks in(c.buffer(sendbuf, 0, sendtype), scounts, std::vector<int>(sdispls, sdispls + c.size()));
            in.pack_in();
            collectives::alltoallv(c.channel, in.blocks(), out.blocks());
        }
        out.unpack_out();
        return MPI_SUCCESS;
    });
}

int bamboo_alltoallw(bamboo_site at, const void* sendbuf, const int sendcounts[], const int sdispls[],
                     const MPI_Datatype sendtypes[], void* recvbuf, const int recvcounts[],
                     const int rdispls[], const MPI_Datatype recvtypes[], MPI_Comm comm) {
    return checked_call(comm, [&]() -> int {
        CollectiveCall c("MPI_Alltoallw", at, comm);
        TypedBlocks out(c, c.peers(), recvbuf, recvcounts, rdispls, recvtypes, "recv");
        if (c.inter()) {
            no_in_place(c, sendbuf, "an intercommunicator");
            TypedBlocks in(c, c.peers(), sendbuf, sendcounts, sdispls, sendtypes, "send");
            in.pack_in();
            inter::alltoall(c.channel, in.blocks(), out.blocks());
        } else if (in_place(sendbuf)) {
            // The receive buffer is the send buffer too: send from a packed copy of it.
            TypedBlocks in(c, c.peers(), recvbuf, recvcounts, rdispls, recvtypes, "recv", true);
            in.pack_in();
            collectives::alltoallv(c.channel, in.blocks(), out.blocks());
        } else {
            TypedBlocks in(c, c.peers(), sendbuf, sendcounts, sdispls, sendtypes, "send");
            in.pack_in();
            collectives::alltoallv(c.channel, in.blocks(), out.blocks());
        }
        out.unpack_out();
        return MPI_SUCCESS;
    });
}

int bamboo_reduce_local(bamboo_site at, const void* inbuf, void* inoutbuf, int count,
                        MPI_Datatype type, MPI_Op op) {
    return checked_call(MPI_COMM_WORLD, [&]() -> int {
        Rank& self = calling_rank("MPI_Reduce_local", at);
        check_count(self, count, "the count", "MPI_Reduce_local", at);
        bool commutative;
        if (!op_is_valid(op, &commutative)) call_error(MPI_ERR_OP, self.vrank(), "MPI_Reduce_local", at, "invalid operation (MPI_Op)");
        MpiGuard guard;
        return MPI_Reduce_local(inbuf, inoutbuf, count, type, op);
    });
}

int bamboo_op_create(bamboo_site at, MPI_User_function* function, int commute, MPI_Op* op) {
    return checked_call(MPI_COMM_WORLD, [&]() -> int {
        Rank& self = calling_rank("MPI_Op_create", at);
        check_not_null(self, reinterpret_cast<const void*>(function), "the function", "MPI_Op_create", at);
        check_not_null(self, op, "the MPI_Op pointer", "MPI_Op_create", at);
        MpiGuard guard;
        return MPI_Op_create(function, commute, op);
    });
}

int bamboo_op_free(bamboo_site at, MPI_Op* op) {
    return checked_call(MPI_COMM_WORLD, [&]() -> int {
        Rank& self = calling_rank("MPI_Op_free", at);
        check_not_null(self, op, "the MPI_Op pointer", "MPI_Op_free", at);
        MpiGuard guard;
        return MPI_Op_free(op);
    });
}

int bamboo_op_commutative(bamboo_site at, MPI_Op op, int* commute) {
    return checked_call(MPI_COMM_WORLD, [&]() -> int {
        Rank& self = calling_rank("MPI_Op_commutative", at);
        bool commutative;
        if (!op_is_valid(op, &commutative)) call_error(MPI_ERR_OP, self.vrank(), "MPI_Op_commutative", at, "invalid operation (MPI_Op)");
        *commute = commutative;
        return MPI_SUCCESS;
    });
}

}  // extern "C"
