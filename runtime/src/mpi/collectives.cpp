// Collective MPI calls: their arguments checked, the user's datatypes packed into the bytes
// the algorithms move (and unpacked after), then the algorithms of collectives/algorithms.hpp.
#include <mpi.h>

#include <cstring>
#include <mutex>
#include <numeric>
#include <vector>

#include "bamboo.h"
#include "collectives/algorithms.hpp"
#include "collectives/channel.hpp"
#include "collectives/reduction.hpp"
#include "messaging/rank.hpp"
#include "mpi/api.hpp"
#include "util/errors.hpp"
#include "util/mpi_guard.hpp"

namespace bamboo {
namespace {

using collectives::Blocks;

// What every collective call starts with: the calling task, its communicator, the channel.
struct CollectiveCall {
    CollectiveCall(const char* name, bamboo_site at, MPI_Comm comm)
        : self(calling_rank(name, at)),
          view(resolve_comm(self, comm, name, at)),
          channel(self, view, name, at),
          name(name),
          at(at) {}

    int rank() const { return view.rank; }
    int size() const { return view.size(); }
    void check_root(int root) const { check_rank(self, view, root, "the root", MPI_ERR_ROOT, name, at); }
    TypedBuffer buffer(const void* buf, int count, MPI_Datatype type) const {
        return typed_buffer(self, buf, count, type, name, at);
    }
    // The root's counts and displacements of a v-collective (empty elsewhere).
    void root_layout(int root, const int* counts_in, const char* counts_name, const int* displs,
                     std::vector<int>* counts_out, std::vector<int>* displs_out) const {
        check_root(root);
        if (rank() != root) return;
        *counts_out = counts(counts_in, counts_name);
        check_not_null(self, displs, "displs", name, at);
        displs_out->assign(displs, displs + size());
    }
    // A v-collective's counts[], one per rank, none negative.
    std::vector<int> counts(const int* values, const char* what) const {
        check_not_null(self, values, what, name, at);
        std::vector<int> out(values, values + size());
        for (int c : out) check_count(self, c, "a count", name, at);
        return out;
    }
    Reduction reduction(MPI_Op op, MPI_Datatype type, int count) const {
        bool commutative = false;
        if (!op_is_valid(op, &commutative)) call_error(MPI_ERR_OP, self.vrank(), name, at, "invalid operation (MPI_Op)");
        return Reduction{op, type, count, commutative};
    }

    Rank& self;
    CommView view;
    CollectiveChannel channel;
    const char* name;
    bamboo_site at;
};

std::vector<int> uniform(int n, int value) { return std::vector<int>(static_cast<std::size_t>(n), value); }

std::vector<int> back_to_back(const std::vector<int>& counts) {
    std::vector<int> displs(counts.size(), 0);
    for (std::size_t r = 1; r < counts.size(); ++r) displs[r] = displs[r - 1] + counts[r - 1];
    return displs;
}

// A user buffer's data as packed bytes: the buffer itself when its datatype is contiguous,
// else a packed copy (pack_in) or a staging area to unpack from (unpack_out).
class PackedData {
public:
    explicit PackedData(const TypedBuffer& user) : user_(user) {
        if (user.layout.contiguous) data_ = user.data();
        else staging_.resize(user.bytes()), data_ = staging_.data();
    }
    char* data() const { return data_; }
    std::size_t bytes() const { return user_.bytes(); }
    void pack_in() { if (!staging_.empty()) pack(user_, data_); }
    void unpack_out() const { if (!staging_.empty()) unpack(data_, bytes(), user_); }

private:
    TypedBuffer user_;
    std::vector<char> staging_;
    char* data_;
};

// The per-rank blocks of a user buffer (counts[r] elements of its datatype, displs[r]
// extents from its start), as packed bytes: in the user's memory when the datatype is
// contiguous, else in a staging area that pack_in / unpack_out fill from and empty into.
class UserBlocks {
public:
    UserBlocks(const TypedBuffer& whole, const std::vector<int>& counts, const std::vector<int>& displs)
        : whole_(whole), counts_(counts), displs_(displs) {
        std::size_t n = counts.size(), total = 0;
        blocks_.offset.resize(n);
        blocks_.size.resize(n);
        for (std::size_t r = 0; r < n; ++r) {
            blocks_.size[r] = static_cast<std::size_t>(counts[r]) * whole.layout.size;
            if (direct()) blocks_.offset[r] = static_cast<std::size_t>(displs[r] * whole.layout.extent);
            else blocks_.offset[r] = total;
            total += blocks_.size[r];
        }
        if (direct()) {
            blocks_.base = static_cast<char*>(whole.base) + whole.layout.true_lb;
        } else {
            staging_.resize(total);
            blocks_.base = staging_.data();
        }
    }

    const Blocks& blocks() const { return blocks_; }
    void pack_in(int rank) const {
        if (!direct()) pack(user_block(rank), blocks_.at(rank));
    }
    void pack_in() const {
        for (int r = 0; r < static_cast<int>(counts_.size()); ++r) pack_in(r);
    }
    void unpack_out() const {
        if (direct()) return;
        for (int r = 0; r < static_cast<int>(counts_.size()); ++r)
            unpack(blocks_.at(r), blocks_.size[static_cast<std::size_t>(r)], user_block(r));
    }

private:
    bool direct() const { return whole_.layout.contiguous; }
    TypedBuffer user_block(int rank) const {
        TypedBuffer block = whole_;
        block.base = static_cast<char*>(whole_.base) + displs_[static_cast<std::size_t>(rank)] * whole_.layout.extent;
        block.count = counts_[static_cast<std::size_t>(rank)];
        return block;
    }

    TypedBuffer whole_;
    std::vector<int> counts_, displs_;
    std::vector<char> staging_;
    Blocks blocks_;
};

// A reduction's operand, filled from the user's buffer.
Operand operand_from(const TypedBuffer& user) {
    Operand operand(user.count, user.type, user.layout);
    copy(user, operand.typed());
    return operand;
}

bool in_place(const void* buf) { return buf == MPI_IN_PLACE; }

void no_in_place(const CollectiveCall& c, const void* buf, const char* what) {
    if (in_place(buf)) call_error(MPI_ERR_BUFFER, c.self.vrank(), c.name, c.at, "MPI_IN_PLACE is not allowed for %s here", what);
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
    Operand acc = operand_from(in_place(sendbuf) ? recv : c.buffer(sendbuf, count, type));
    algorithm(acc, r);
    if (lands_here) copy(acc.typed(), recv);
    return MPI_SUCCESS;
}

// Reduce_scatter: a reduction of the whole vector to rank 0, which scatters the blocks.
int reduce_scatter_common(CollectiveCall& c, const void* sendbuf, void* recvbuf,
                          const std::vector<int>& counts, MPI_Datatype type, MPI_Op op) {
    int total = std::accumulate(counts.begin(), counts.end(), 0);
    Reduction r = c.reduction(op, type, total);
    TypedBuffer input = c.buffer(in_place(sendbuf) ? recvbuf : sendbuf, total, type);
    Operand acc = operand_from(input);
    collectives::reduce(c.channel, 0, acc, r);
    PackedData mine(c.buffer(recvbuf, counts[static_cast<std::size_t>(c.rank())], type));
    UserBlocks result(acc.typed(), counts, back_to_back(counts));  // significant at rank 0
    if (c.rank() == 0) result.pack_in();
    collectives::scatter(c.channel, 0, c.rank() == 0 ? &result.blocks() : nullptr, &result.blocks().size,
                         mine.data(), mine.bytes());
    mine.unpack_out();
    return MPI_SUCCESS;
}

}  // namespace
}  // namespace bamboo

using namespace bamboo;

extern "C" {

int bamboo_barrier(bamboo_site at, MPI_Comm comm) {
    return checked_call(comm, [&] {
        CollectiveCall c("MPI_Barrier", at, comm);
        collectives::barrier(c.channel);
        return MPI_SUCCESS;
    });
}

int bamboo_bcast(bamboo_site at, void* buffer, int count, MPI_Datatype type, int root, MPI_Comm comm) {
    return checked_call(comm, [&] {
        CollectiveCall c("MPI_Bcast", at, comm);
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
    return checked_call(comm, [&] {
        CollectiveCall c("MPI_Reduce", at, comm);
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
    return checked_call(comm, [&] {
        CollectiveCall c("MPI_Allreduce", at, comm);
        return reduction_common(c, sendbuf, recvbuf, count, type, op, true,
                                [&](Operand& acc, const Reduction& r) { collectives::allreduce(c.channel, acc, r); });
    });
}

int bamboo_scan(bamboo_site at, const void* sendbuf, void* recvbuf, int count, MPI_Datatype type,
                MPI_Op op, MPI_Comm comm) {
    return checked_call(comm, [&] {
        CollectiveCall c("MPI_Scan", at, comm);
        return reduction_common(c, sendbuf, recvbuf, count, type, op, true,
                                [&](Operand& acc, const Reduction& r) { collectives::scan(c.channel, acc, r); });
    });
}

int bamboo_exscan(bamboo_site at, const void* sendbuf, void* recvbuf, int count, MPI_Datatype type,
                  MPI_Op op, MPI_Comm comm) {
    return checked_call(comm, [&] {
        CollectiveCall c("MPI_Exscan", at, comm);
        return reduction_common(c, sendbuf, recvbuf, count, type, op, c.rank() != 0,
                                [&](Operand& acc, const Reduction& r) { collectives::exscan(c.channel, acc, r); });
    });
}

int bamboo_reduce_scatter_block(bamboo_site at, const void* sendbuf, void* recvbuf, int recvcount,
                                MPI_Datatype type, MPI_Op op, MPI_Comm comm) {
    return checked_call(comm, [&] {
        CollectiveCall c("MPI_Reduce_scatter_block", at, comm);
        check_count(c.self, recvcount, "the count", c.name, at);
        return reduce_scatter_common(c, sendbuf, recvbuf, uniform(c.size(), recvcount), type, op);
    });
}

int bamboo_reduce_scatter(bamboo_site at, const void* sendbuf, void* recvbuf, const int recvcounts[],
                          MPI_Datatype type, MPI_Op op, MPI_Comm comm) {
    return checked_call(comm, [&] {
        CollectiveCall c("MPI_Reduce_scatter", at, comm);
        return reduce_scatter_common(c, sendbuf, recvbuf, c.counts(recvcounts, "recvcounts"), type, op);
    });
}

int bamboo_gather(bamboo_site at, const void* sendbuf, int sendcount, MPI_Datatype sendtype,
                  void* recvbuf, int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm) {
    return checked_call(comm, [&] {
        CollectiveCall c("MPI_Gather", at, comm);
        std::vector<int> counts = uniform(c.size(), recvcount);
        std::vector<int> displs = back_to_back(counts);
        return gather_common(c, sendbuf, sendcount, sendtype, recvbuf, &counts, &displs, recvtype, root, false);
    });
}

int bamboo_gatherv(bamboo_site at, const void* sendbuf, int sendcount, MPI_Datatype sendtype,
                   void* recvbuf, const int recvcounts[], const int displs[], MPI_Datatype recvtype,
                   int root, MPI_Comm comm) {
    return checked_call(comm, [&] {
        CollectiveCall c("MPI_Gatherv", at, comm);
        std::vector<int> counts, offsets;
        c.root_layout(root, recvcounts, "recvcounts", displs, &counts, &offsets);
        return gather_common(c, sendbuf, sendcount, sendtype, recvbuf, &counts, &offsets, recvtype, root, true);
    });
}

int bamboo_scatter(bamboo_site at, const void* sendbuf, int sendcount, MPI_Datatype sendtype,
                   void* recvbuf, int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm) {
    return checked_call(comm, [&] {
        CollectiveCall c("MPI_Scatter", at, comm);
        std::vector<int> counts = uniform(c.size(), sendcount);
        std::vector<int> displs = back_to_back(counts);
        return scatter_common(c, sendbuf, &counts, &displs, sendtype, recvbuf, recvcount, recvtype, root, false);
    });
}

int bamboo_scatterv(bamboo_site at, const void* sendbuf, const int sendcounts[], const int displs[],
                    MPI_Datatype sendtype, void* recvbuf, int recvcount, MPI_Datatype recvtype,
                    int root, MPI_Comm comm) {
    return checked_call(comm, [&] {
        CollectiveCall c("MPI_Scatterv", at, comm);
        std::vector<int> counts, offsets;
        c.root_layout(root, sendcounts, "sendcounts", displs, &counts, &offsets);
        return scatter_common(c, sendbuf, &counts, &offsets, sendtype, recvbuf, recvcount, recvtype, root, true);
    });
}

int bamboo_allgather(bamboo_site at, const void* sendbuf, int sendcount, MPI_Datatype sendtype,
                     void* recvbuf, int recvcount, MPI_Datatype recvtype, MPI_Comm comm) {
    return checked_call(comm, [&] {
        CollectiveCall c("MPI_Allgather", at, comm);
        std::vector<int> counts = uniform(c.size(), recvcount);
        return allgather_common(c, sendbuf, sendcount, sendtype, recvbuf, counts, back_to_back(counts), recvtype);
    });
}

int bamboo_allgatherv(bamboo_site at, const void* sendbuf, int sendcount, MPI_Datatype sendtype,
                      void* recvbuf, const int recvcounts[], const int displs[],
                      MPI_Datatype recvtype, MPI_Comm comm) {
    return checked_call(comm, [&] {
        CollectiveCall c("MPI_Allgatherv", at, comm);
        std::vector<int> counts = c.counts(recvcounts, "recvcounts");
        check_not_null(c.self, displs, "displs", c.name, at);
        return allgather_common(c, sendbuf, sendcount, sendtype, recvbuf, counts,
                                std::vector<int>(displs, displs + c.size()), recvtype);
    });
}

int bamboo_alltoall(bamboo_site at, const void* sendbuf, int sendcount, MPI_Datatype sendtype,
                    void* recvbuf, int recvcount, MPI_Datatype recvtype, MPI_Comm comm) {
    return checked_call(comm, [&] {
        CollectiveCall c("MPI_Alltoall", at, comm);
        std::vector<int> recv_counts = uniform(c.size(), recvcount);
        UserBlocks out(c.buffer(recvbuf, 0, recvtype), recv_counts, back_to_back(recv_counts));
        std::size_t block = out.blocks().size[0];
        std::vector<char> send_copy;
        const char* send;
        if (in_place(sendbuf)) {
            out.pack_in();
            send_copy.assign(out.blocks().base, out.blocks().base + block * static_cast<std::size_t>(c.size()));
            send = send_copy.data();
        } else {
            std::vector<int> send_counts = uniform(c.size(), sendcount);
            UserBlocks in(c.buffer(sendbuf, 0, sendtype), send_counts, back_to_back(send_counts));
            in.pack_in();
            if (in.blocks().size[0] != block)
                c.channel.fail("this rank sends blocks of %zu bytes but expects blocks of %zu: the "
                               "counts or datatypes do not match",
                               in.blocks().size[0], block);
            send_copy.assign(in.blocks().base, in.blocks().base + block * static_cast<std::size_t>(c.size()));
            send = send_copy.data();
        }
        collectives::alltoall(c.channel, send, out.blocks().base, block);
        out.unpack_out();
        return MPI_SUCCESS;
    });
}

int bamboo_alltoallv(bamboo_site at, const void* sendbuf, const int sendcounts[], const int sdispls[],
                     MPI_Datatype sendtype, void* recvbuf, const int recvcounts[],
                     const int rdispls[], MPI_Datatype recvtype, MPI_Comm comm) {
    return checked_call(comm, [&] {
        CollectiveCall c("MPI_Alltoallv", at, comm);
        std::vector<int> rcounts = c.counts(recvcounts, "recvcounts");
        check_not_null(c.self, rdispls, "rdispls", c.name, at);
        UserBlocks out(c.buffer(recvbuf, 0, recvtype), rcounts, std::vector<int>(rdispls, rdispls + c.size()));
        if (in_place(sendbuf)) {
            // The receive buffer is the send buffer too: send from a packed copy of it.
            out.pack_in();
            const Blocks& recv = out.blocks();
            Blocks send{nullptr, {}, recv.size};
            std::vector<char> copy_of_recv;
            for (int r = 0; r < c.size(); ++r) {
                send.offset.push_back(copy_of_recv.size());
                copy_of_recv.insert(copy_of_recv.end(), recv.at(r), recv.at(r) + recv.size[static_cast<std::size_t>(r)]);
            }
            send.base = copy_of_recv.data();
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

int bamboo_reduce_local(bamboo_site at, const void* inbuf, void* inoutbuf, int count,
                        MPI_Datatype type, MPI_Op op) {
    return checked_call(MPI_COMM_WORLD, [&] {
        Rank& self = calling_rank("MPI_Reduce_local", at);
        check_count(self, count, "the count", "MPI_Reduce_local", at);
        bool commutative;
        if (!op_is_valid(op, &commutative)) call_error(MPI_ERR_OP, self.vrank(), "MPI_Reduce_local", at, "invalid operation (MPI_Op)");
        MpiGuard guard;
        return MPI_Reduce_local(inbuf, inoutbuf, count, type, op);
    });
}

int bamboo_op_create(bamboo_site at, MPI_User_function* function, int commute, MPI_Op* op) {
    return checked_call(MPI_COMM_WORLD, [&] {
        Rank& self = calling_rank("MPI_Op_create", at);
        check_not_null(self, reinterpret_cast<const void*>(function), "the function", "MPI_Op_create", at);
        check_not_null(self, op, "the MPI_Op pointer", "MPI_Op_create", at);
        MpiGuard guard;
        return MPI_Op_create(function, commute, op);
    });
}

int bamboo_op_free(bamboo_site at, MPI_Op* op) {
    return checked_call(MPI_COMM_WORLD, [&] {
        Rank& self = calling_rank("MPI_Op_free", at);
        check_not_null(self, op, "the MPI_Op pointer", "MPI_Op_free", at);
        MpiGuard guard;
        return MPI_Op_free(op);
    });
}

int bamboo_op_commutative(bamboo_site at, MPI_Op op, int* commute) {
    return checked_call(MPI_COMM_WORLD, [&] {
        Rank& self = calling_rank("MPI_Op_commutative", at);
        bool commutative;
        if (!op_is_valid(op, &commutative)) call_error(MPI_ERR_OP, self.vrank(), "MPI_Op_commutative", at, "invalid operation (MPI_Op)");
        *commute = commutative;
        return MPI_SUCCESS;
    });
}

void bamboo_expect_collective(bamboo_collective kind, int root, MPI_Op op, MPI_Comm comm) {
    Rank& self = calling_rank("the firing rule", kNoSite);
    if (!find_comm_local(self, comm)) return;  // the call reports it, under its error handler
    CommView view = resolve_comm(self, comm, "the firing rule", kNoSite);
    auto k = static_cast<collectives::Kind>(kind);
    bool rooted = k == collectives::Kind::bcast || k == collectives::Kind::reduce ||
                  k == collectives::Kind::gather || k == collectives::Kind::scatter;
    // An argument the call itself will reject adds nothing: the call reports it.
    if (rooted && (root < 0 || root >= view.size())) return;
    bool commutative = true;
    bool reduces = k == collectives::Kind::reduce || k == collectives::Kind::allreduce ||
                   k == collectives::Kind::reduce_scatter || k == collectives::Kind::scan ||
                   k == collectives::Kind::exscan;
    if (reduces && !op_is_valid(op, &commutative)) return;
    for (const Pattern& pattern : collectives::first_receives(k, *view.comm, view.rank, root, commutative))
        expect_message(self, pattern);
}

}  // extern "C"
