// What the collective entry points share (mpi/collectives.cpp, the neighbourhood collectives
// of mpi/neighbor_collectives.cpp): the call's task, communicator and channel, and the
// user's buffers as the packed blocks the algorithms move.
#pragma once

#include <mpi.h>

#include <algorithm>
#include <string>
#include <string_view>
#include <vector>

#include "bamboo.h"
#include "collectives/algorithms.hpp"
#include "collectives/channel.hpp"
#include "collectives/intercommunicator.hpp"
#include "collectives/reduction.hpp"
#include "messaging/datatype.hpp"
#include "messaging/rank.hpp"
#include "mpi/api.hpp"
#include "util/byte_buffer.hpp"

namespace bamboo {

using collectives::Blocks;

// The name of the call the program made: a blocking collective that runs as background
// work is the program's nonblocking one (mpi/nonblocking_collectives.cpp).
const char* as_called(const char* name);

// What every collective call starts with: the calling task, its communicator, the channel.
struct CollectiveCall {
    CollectiveCall(const char* called, bamboo_site at, MPI_Comm comm)
        : name(as_called(called)),
          at(at),
          self(calling_rank(name, at)),
          view(resolve_comm(self, comm, name, at)),
          channel(self, view, name, at) {
        // MPI defines no scan on an intercommunicator.
        std::string_view blocking(called);
        if (blocking == "MPI_Scan" || blocking == "MPI_Exscan") intra_only(self, view, name, at);
    }

    bool inter() const { return view.comm->is_inter(); }
    // An intercommunicator's collectives run over the intracommunicator of the calling task's
    // group, and between the two groups' leaders over `channel`.
    collectives::inter::Channels inter_channels() {
        return {channel, CollectiveChannel(self, CommView{view.comm->local(), view.rank}, name, at)};
    }

    int rank() const { return view.rank; }
    int size() const { return view.size(); }
    int peers() const { return view.comm->peer_count(); }  // the remote group's size on an intercommunicator
    void check_root(int root) const { check_rank(self, view, root, "the root", MPI_ERR_ROOT, name, at); }
    TypedBuffer buffer(const void* buf, int count, MPI_Datatype type) const {
        return typed_buffer(self, buf, count, type, name, at);
    }
    // The root's counts and displacements of a v-collective (empty elsewhere): one per rank,
    // of the other group on an intercommunicator, whose root says MPI_ROOT.
    void root_layout(int root, const int* counts_in, const char* counts_name, const int* displs,
                     std::vector<int>* counts_out, std::vector<int>* displs_out) const {
        if (!inter()) check_root(root);
        if (inter() ? root != MPI_ROOT : rank() != root) return;
        *counts_out = counts(counts_in, counts_name);
        check_not_null(self, displs, "displs", name, at);
        displs_out->assign(displs, displs + peers());
    }
    // A v-collective's counts[], one per rank (of the remote group on an intercommunicator),
    // none negative.
    std::vector<int> counts(const int* values, const char* what) const { return counts(values, what, peers()); }
    std::vector<int> counts(const int* values, const char* what, int n) const {
        check_not_null(self, values, what, name, at);
        std::vector<int> out(values, values + n);
        for (int c : out) check_count(self, c, "a count", name, at);
        return out;
    }
    Reduction reduction(MPI_Op op, MPI_Datatype type, int count) const {
        bool commutative = false;
        if (!op_is_valid(op, &commutative)) call_error(MPI_ERR_OP, self.vrank(), name, at, "invalid operation (MPI_Op)");
        return Reduction{op, type, count, commutative};
    }

    const char* name;
    bamboo_site at;
    Rank& self;
    CommView view;
    CollectiveChannel channel;
};

inline std::vector<int> uniform(int n, int value) { return std::vector<int>(static_cast<std::size_t>(n), value); }

inline std::vector<int> back_to_back(const std::vector<int>& counts) {
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
        else staging_ = ByteBuffer(user.bytes()), data_ = staging_.get();
    }
    char* data() const { return data_; }
    std::size_t bytes() const { return user_.bytes(); }
    void pack_in() { if (staging_) pack(user_, data_); }
    void unpack_out() const { if (staging_) unpack(data_, bytes(), user_); }

private:
    TypedBuffer user_;
    ByteBuffer staging_;
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
            staging_ = ByteBuffer(total);
            blocks_.base = staging_.get();
        }
    }

    const Blocks& blocks() const { return blocks_; }
    void pack_in(int rank) const {
        if (!direct()) pack(user_block(rank), blocks_.at(rank));
    }
    void pack_in() const {
        for (int r = 0; r < static_cast<int>(counts_.size()); ++r) pack_in(r);
    }
    void unpack_out(int rank) const {
        if (!direct()) unpack(blocks_.at(rank), blocks_.size[static_cast<std::size_t>(rank)], user_block(rank));
    }
    void unpack_out() const {
        for (int r = 0; r < static_cast<int>(counts_.size()); ++r) unpack_out(r);
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
    ByteBuffer staging_;
    Blocks blocks_;
};

inline bool in_place(const void* buf) { return buf == MPI_IN_PLACE; }

// MPI_Alltoallw's blocks, `n` of them (one per rank, or per neighbour), each of its own
// datatype at a displacement in bytes (an int, or an MPI_Aint for MPI_Neighbor_alltoallw),
// as packed bytes: in the user's memory when every datatype is contiguous, else packed into
// one staging area that pack_in / unpack_out fill from and empty into. `copy`: packed in
// any case (MPI_IN_PLACE sends from a copy of the buffer that receives).
class TypedBlocks {
public:
    template <class Displacement>
    TypedBlocks(const CollectiveCall& c, int n, const void* buf, const int counts[], const Displacement displs[],
                const MPI_Datatype types[], const char* side, bool copy = false) {
        std::string counts_name = std::string(side) + "counts", displs_name = std::string(side) + "displs",
                    types_name = std::string(side) + "types";
        std::vector<int> count = c.counts(counts, counts_name.c_str(), n);
        check_not_null(c.self, displs, displs_name.c_str(), c.name, c.at);
        check_not_null(c.self, types, types_name.c_str(), c.name, c.at);
        direct_ = !copy;
        for (int r = 0; r < n; ++r) {
            auto i = static_cast<std::size_t>(r);
            typed_.push_back(c.buffer(static_cast<const char*>(buf) + displs[i], count[i], types[i]));
            blocks_.size.push_back(typed_.back().bytes());
            direct_ = direct_ && typed_.back().layout.contiguous;
        }
        if (direct_) {
            // Offsets from the lowest block, which a negative displacement may put below `buf`.
            blocks_.base = static_cast<char*>(const_cast<void*>(buf));
            for (const TypedBuffer& typed : typed_) blocks_.base = std::min(blocks_.base, typed.data());
            for (const TypedBuffer& typed : typed_)
                blocks_.offset.push_back(static_cast<std::size_t>(typed.data() - blocks_.base));
            return;
        }
        std::size_t total = 0;
        for (std::size_t size : blocks_.size) blocks_.offset.push_back(total), total += size;
        staging_ = ByteBuffer(total);
        blocks_.base = staging_.get();
    }

    const Blocks& blocks() const { return blocks_; }
    void pack_in() const {
        if (direct_) return;
        for (std::size_t r = 0; r < typed_.size(); ++r) pack(typed_[r], blocks_.base + blocks_.offset[r]);
    }
    void unpack_out(int rank) const {
        if (direct_) return;
        auto r = static_cast<std::size_t>(rank);
        unpack(blocks_.base + blocks_.offset[r], blocks_.size[r], typed_[r]);
    }
    void unpack_out() const {
        for (std::size_t r = 0; r < typed_.size(); ++r) unpack_out(static_cast<int>(r));
    }

private:
    std::vector<TypedBuffer> typed_;
    bool direct_;
    ByteBuffer staging_;
    Blocks blocks_;
};

inline void no_in_place(const CollectiveCall& c, const void* buf, const char* what) {
    if (in_place(buf)) call_error(MPI_ERR_BUFFER, c.self.vrank(), c.name, c.at, "MPI_IN_PLACE is not allowed for %s here", what);
}

}  // namespace bamboo
