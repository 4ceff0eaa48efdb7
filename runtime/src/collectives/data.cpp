// The collectives that move data: barrier, broadcast, gather, scatter, allgather, alltoall(v).
//
// Blocks travel in "tree order": processes by position (collectives/structure.hpp), and
// within a process its members, leader first. Where a result's blocks lie back to back in
// that order in the user's buffer (the usual case on MPI_COMM_WORLD with a contiguous
// datatype), they are received straight into it.
#include <cstdint>
#include <cstring>

#include "collectives/algorithms.hpp"
#include "collectives/structure.hpp"
#include "util/byte_buffer.hpp"

namespace bamboo::collectives {
namespace {

using Incoming = CollectiveChannel::Incoming;

void append(std::vector<char>& to, const void* data, std::size_t bytes) {
    const char* from = static_cast<const char*>(data);
    to.insert(to.end(), from, from + bytes);
}

void copy_block(char* to, const char* from, std::size_t bytes) {
    if (to != from && bytes) std::memcpy(to, from, bytes);  // equal for MPI_IN_PLACE
}

// The members of every process, by position: the order in which blocks travel.
std::vector<std::vector<int>> members_by_position(const TwoLevel& where) {
    std::vector<std::vector<int>> members;
    for (int p = 0; p < where.process_count(); ++p) members.push_back(where.members(p));
    return members;
}

std::size_t sum_sizes(const std::vector<std::size_t>& sizes, const std::vector<int>& ranks) {
    std::size_t bytes = 0;
    for (int rank : ranks) bytes += sizes[static_cast<std::size_t>(rank)];
    return bytes;
}

// What each process's blocks add up to, and where each process's blocks start in tree
// order (one entry more than processes: the total).
struct ProcessBytes {
    std::vector<std::size_t> bytes;
    std::vector<std::size_t> start;

    ProcessBytes(const std::vector<std::vector<int>>& members, const std::vector<std::size_t>& sizes)
        : start(1, 0) {
        for (const std::vector<int>& process : members) {
            bytes.push_back(sum_sizes(sizes, process));
            start.push_back(start.back() + bytes.back());
        }
    }
    // Bytes of the processes at positions [first, end).
    std::size_t range(int first, int end) const {
        return start[static_cast<std::size_t>(end)] - start[static_cast<std::size_t>(first)];
    }
};

// Whether `blocks` lie back to back in tree order, so data in that order can go straight there.
bool back_to_back(const Blocks& blocks, const std::vector<std::vector<int>>& members) {
    const char* next = nullptr;
    for (const std::vector<int>& process : members) {
        for (int rank : process) {
            if (next && blocks.at(rank) != next) return false;
            next = blocks.at(rank) + blocks.size[static_cast<std::size_t>(rank)];
        }
    }
    return true;
}

// Copies data in tree order to the blocks where it belongs (or the other way).
void place_blocks(const char* from, const Blocks& to, const std::vector<std::vector<int>>& members) {
    for (const std::vector<int>& process : members) {
        for (int rank : process) {
            copy_block(to.at(rank), from, to.size[static_cast<std::size_t>(rank)]);
            from += to.size[static_cast<std::size_t>(rank)];
        }
    }
}

void collect_blocks(const Blocks& from, char* to, const std::vector<std::vector<int>>& members) {
    for (const std::vector<int>& process : members) {
        for (int rank : process) {
            copy_block(to, from.at(rank), from.size[static_cast<std::size_t>(rank)]);
            to += from.size[static_cast<std::size_t>(rank)];
        }
    }
}

// Broadcast over `ranks` (tree positions; position 0 has the data).
void tree_bcast(CollectiveChannel& ch, const std::vector<int>& ranks, const Tree& tree, int me,
                int tag, void* data, std::size_t bytes) {
    if (me > 0) ch.receive(ranks[static_cast<std::size_t>(tree.parent(me))], tag, data, bytes);
    tree.children_descending(me, [&](int child) { ch.send(ranks[static_cast<std::size_t>(child)], tag, data, bytes); });
}

// Messages whose size the receiver does not know (gatherv and scatterv between processes).
void append_received(CollectiveChannel& ch, int source, int tag, std::vector<char>& to) {
    Message message = ch.receive_any_size(source, tag);
    append(to, message.data, message.bytes);
}

// A scatterv's blocks for consecutive positions between processes: the message carries the
// block sizes, which only the root knows.
struct Segment {
    std::vector<std::uint64_t> sizes;
    std::vector<char> data;

    std::size_t offset(std::size_t block) const {
        std::size_t at = 0;
        for (std::size_t b = 0; b < block; ++b) at += sizes[b];
        return at;
    }

    // Blocks [first, last) as a message: count, sizes, data.
    std::vector<char> message(std::size_t first, std::size_t last) const {
        std::uint64_t count = last - first;
        std::vector<char> out;
        append(out, &count, sizeof count);
        append(out, sizes.data() + first, count * sizeof(std::uint64_t));
        std::size_t begin = offset(first);
        append(out, data.data() + begin, offset(last) - begin);
        return out;
    }

    static Segment from_message(const CollectiveChannel& ch, const Message& m) {
        Segment segment;
        std::uint64_t count = 0;
        if (m.bytes < sizeof count) ch.fail("a scatter message is malformed");
        std::memcpy(&count, m.data, sizeof count);
        std::size_t header = sizeof count * (1 + count);
        if (m.bytes < header) ch.fail("a scatter message is malformed");
        segment.sizes.resize(count);
        std::memcpy(segment.sizes.data(), m.data + sizeof count, count * sizeof(std::uint64_t));
        append(segment.data, m.data + header, m.bytes - header);
        if (segment.offset(count) != segment.data.size()) ch.fail("a scatter message is malformed");
        return segment;
    }
};

// Bruck's allgather between the leaders, in place: `all` holds every process's blocks in
// tree order, this process's already there, and ends with all of them there. One message
// a round, as the algorithm has it: a range of positions that wraps round past the last
// travels through a staging buffer, the rest straight from and into `all`.
void bruck_allgather(CollectiveChannel& ch, const TwoLevel& where, const ProcessBytes& processes, char* all) {
    const std::vector<int>& leaders = where.leaders();
    int q = where.process_count(), p = where.my_process();
    // Positions [first, first + count) modulo q: the bytes up to the last position, at
    // `head`, and those of the positions wrapped round to 0, at the start of `all`.
    struct Range {
        char* head;
        std::size_t head_bytes, wrapped_bytes;
        std::size_t bytes() const { return head_bytes + wrapped_bytes; }
    };
    auto range = [&](int first, int count) {
        int end = first + count;
        return Range{all + processes.start[static_cast<std::size_t>(first)], processes.range(first, std::min(end, q)),
                     end > q ? processes.range(0, end - q) : 0};
    };
    // Round k: this leader holds positions p, p+1, ..., p+2^k-1; it sends them 2^k positions
    // down and receives as many from 2^k positions up.
    for (int d = 1, round = 0; d < q; d <<= 1, ++round) {
        int count = std::min(d, q - d), tag = tag::kAllgatherRound + round;
        Range in = range((p + d) % q, count), out = range(p, count);
        ByteBuffer in_staging, out_staging;
        char* in_at = in.wrapped_bytes ? (in_staging = ByteBuffer(in.bytes()), in_staging.get()) : in.head;
        auto posted = ch.post({{leaders[static_cast<std::size_t>((p + d) % q)], tag, in_at, in.bytes()}});
        const char* out_at = out.head;
        if (out.wrapped_bytes) {
            out_staging = ByteBuffer(out.bytes());
            copy_block(out_staging.get(), out.head, out.head_bytes);
            copy_block(out_staging.get() + out.head_bytes, all, out.wrapped_bytes);
            out_at = out_staging.get();
        }
        ch.send(leaders[static_cast<std::size_t>((p - d + q) % q)], tag, out_at, out.bytes());
        posted.wait();
        if (in.wrapped_bytes) {
            copy_block(in.head, in_at, in.head_bytes);
            copy_block(all, in_at + in.head_bytes, in.wrapped_bytes);
        }
    }
}

// Bruck's alltoall between the leaders. `at[j]` starts as the block this process sends to
// position p+j, and ends as the block it receives from position p-j. `bytes(o, d)`: the size
// of the block from position o to position d.
template <class BlockBytes>
void bruck_alltoall(CollectiveChannel& ch, const TwoLevel& where, std::vector<std::vector<char>>& at,
                    BlockBytes bytes) {
    const std::vector<int>& leaders = where.leaders();
    int q = where.process_count(), p = where.my_process();
    for (int d = 1, round = 0; d < q; d <<= 1, ++round) {
        // Blocks at positions with bit d set move d processes on; the block at position j
        // always goes from some origin o to o + j.
        int from = (p - d + q) % q;
        std::vector<std::size_t> sizes(static_cast<std::size_t>(q), 0);
        std::size_t total = 0;
        for (int j = 0; j < q; ++j) {
            if (!(j & d)) continue;
            int origin = (from - (j & (d - 1)) + q) % q;  // bits below d were travelled already
            sizes[static_cast<std::size_t>(j)] = bytes(origin, (origin + j) % q);
            total += sizes[static_cast<std::size_t>(j)];
        }
        std::vector<char> in(total), out;
        auto posted = ch.post({{leaders[static_cast<std::size_t>(from)], tag::kAlltoallRound + round, in.data(), total}});
        for (int j = 0; j < q; ++j)
            if (j & d) append(out, at[static_cast<std::size_t>(j)].data(), at[static_cast<std::size_t>(j)].size());
        ch.send(leaders[static_cast<std::size_t>((p + d) % q)], tag::kAlltoallRound + round, out.data(), out.size());
        posted.wait();
        std::size_t offset = 0;
        for (int j = 0; j < q; ++j) {
            if (!(j & d)) continue;
            std::vector<char>& block = at[static_cast<std::size_t>(j)];
            block.assign(in.data() + offset, in.data() + offset + sizes[static_cast<std::size_t>(j)]);
            offset += sizes[static_cast<std::size_t>(j)];
        }
    }
}

// Every task straight to every other: receives posted first, so that senders copy into
// place; the k-th send goes k ranks on, so that not everybody sends to rank 0 first.
void pairwise_exchange(CollectiveChannel& ch, const Blocks& send, const Blocks& recv) {
    int n = ch.size(), rank = ch.rank();
    std::vector<Incoming> incoming;
    for (int k = 1; k < n; ++k) {
        int source = (rank - k + n) % n;
        incoming.push_back({source, tag::kAlltoallv, recv.at(source), recv.size[static_cast<std::size_t>(source)]});
    }
    auto posted = ch.post(incoming);
    for (int k = 1; k < n; ++k) {
        int dest = (rank + k) % n;
        ch.send(dest, tag::kAlltoallv, send.at(dest), send.size[static_cast<std::size_t>(dest)]);
    }
    std::size_t own = recv.size[static_cast<std::size_t>(rank)];
    if (send.size[static_cast<std::size_t>(rank)] != own)
        ch.fail("this rank sends itself %zu bytes but expects %zu: the counts or datatypes do not match",
                send.size[static_cast<std::size_t>(rank)], own);
    copy_block(recv.at(rank), send.at(rank), own);
    posted.wait();
}

Blocks uniform_blocks(const char* base, int n, std::size_t block) {
    Blocks blocks;
    blocks.base = const_cast<char*>(base);
    for (int r = 0; r < n; ++r) {
        blocks.offset.push_back(static_cast<std::size_t>(r) * block);
        blocks.size.push_back(block);
    }
    return blocks;
}

}  // namespace

void barrier(CollectiveChannel& ch) {
    TwoLevel where(ch.comm(), ch.rank(), -1);
    const std::vector<int>& local = where.local();
    Tree tree = Tree::binomial(static_cast<int>(local.size()));
    int me = where.my_local();
    std::vector<Incoming> children;
    tree.children(me, [&](int child) { children.push_back({local[static_cast<std::size_t>(child)], tag::kBarrierIn, nullptr, 0}); });
    ch.post(children).wait();
    if (me > 0) {
        ch.send(local[static_cast<std::size_t>(tree.parent(me))], tag::kBarrierIn, nullptr, 0);
    } else {
        // Dissemination: after round k each leader has heard, through chains, from 2^(k+1).
        const std::vector<int>& leaders = where.leaders();
        int q = where.process_count(), p = where.my_process();
        for (int d = 1, round = 0; d < q; d <<= 1, ++round) {
            ch.send(leaders[static_cast<std::size_t>((p + d) % q)], tag::kBarrierRound + round, nullptr, 0);
            ch.receive(leaders[static_cast<std::size_t>((p - d + q) % q)], tag::kBarrierRound + round, nullptr, 0);
        }
    }
    tree_bcast(ch, local, tree, me, tag::kBarrierOut, nullptr, 0);
}

void bcast(CollectiveChannel& ch, int root, void* data, std::size_t bytes) {
    TwoLevel where(ch.comm(), ch.rank(), root);
    if (where.is_leader())
        tree_bcast(ch, where.leaders(), Tree::binomial(where.process_count()), where.my_process(),
                   tag::kBcastLeaders, data, bytes);
    tree_bcast(ch, where.local(), Tree::binomial(static_cast<int>(where.local().size())),
               where.my_local(), tag::kBcastLocal, data, bytes);
}

// Large blocks of a gather, straight to the root. Tags as in the aggregated gather where
// the sender is a member of the root's process, so a firing rule can wait for those.
void gather_straight(CollectiveChannel& ch, int root, const void* mine, std::size_t my_bytes,
                     const Blocks* out) {
    int rank = ch.rank();
    auto tag_from = [&](int sender) {
        return ch.comm().process_index_of(sender) == ch.comm().process_index_of(root) ? tag::kGatherLocal
                                                                                        : tag::kGatherStraight;
    };
    if (rank != root) {
        ch.send(root, tag_from(rank), mine, my_bytes);
        return;
    }
    std::vector<Incoming> incoming;
    for (int r = 0; r < ch.size(); ++r)
        if (r != root) incoming.push_back({r, tag_from(r), out->at(r), out->size[static_cast<std::size_t>(r)]});
    auto posted = ch.post(incoming);
    if (my_bytes != out->size[static_cast<std::size_t>(root)])
        ch.fail("the root sends itself %zu bytes but expects %zu: the counts or datatypes do not match",
                my_bytes, out->size[static_cast<std::size_t>(root)]);
    copy_block(out->at(root), static_cast<const char*>(mine), my_bytes);
    posted.wait();
}

void gather(CollectiveChannel& ch, int root, const void* mine, std::size_t my_bytes,
            const std::vector<std::size_t>* sizes, const Blocks* out) {
    // Blocks of one size everywhere (MPI_Gather) are known to all: all choose alike.
    if (gather_algorithm(sizes) == GatherAlgorithm::straight_to_root)
        return gather_straight(ch, root, mine, my_bytes, out);
    TwoLevel where(ch.comm(), ch.rank(), root);
    const std::vector<int>& local = where.local();
    if (!where.is_leader()) {
        ch.send(local[0], tag::kGatherLocal, mine, my_bytes);
        return;
    }
    std::vector<std::vector<int>> members = members_by_position(where);
    int q = where.process_count(), p = where.my_process();
    Tree between = Tree::binomial(q);
    const std::vector<int>& leaders = where.leaders();
    if (p == 0) sizes = &out->size;  // the root knows every block's size
    if (!sizes) {
        // A leader on the way in a gatherv: it only appends what comes, in order.
        std::vector<char> acc;
        append(acc, mine, my_bytes);
        for (std::size_t i = 1; i < local.size(); ++i) append_received(ch, local[i], tag::kGatherLocal, acc);
        between.children(p, [&](int child) {
            append_received(ch, leaders[static_cast<std::size_t>(child)], tag::kGatherLeaders, acc);
        });
        ch.send(leaders[static_cast<std::size_t>(between.parent(p))], tag::kGatherLeaders, acc.data(), acc.size());
        return;
    }
    if (my_bytes != (*sizes)[static_cast<std::size_t>(ch.rank())])
        ch.fail("this rank sends %zu bytes but the root expects %zu from it: the ranks' counts or "
                "datatypes do not match",
                my_bytes, (*sizes)[static_cast<std::size_t>(ch.rank())]);
    // This leader's blocks (its process's, then its subtree's between processes), in tree
    // order; at the root straight in the receive buffer when it can.
    ProcessBytes processes(members, *sizes);
    std::size_t total = processes.range(p, between.end(p));
    bool direct = p == 0 && back_to_back(*out, members);
    std::vector<char> own;
    char* buffer = direct ? out->at(members[0][0]) : (own.resize(total), own.data());
    copy_block(buffer, static_cast<const char*>(mine), my_bytes);
    std::vector<Incoming> incoming;
    std::size_t at = my_bytes;
    for (std::size_t i = 1; i < local.size(); ++i) {
        std::size_t bytes = (*sizes)[static_cast<std::size_t>(local[i])];
        incoming.push_back({local[i], tag::kGatherLocal, buffer + at, bytes});
        at += bytes;
    }
    between.children(p, [&](int child) {
        incoming.push_back({leaders[static_cast<std::size_t>(child)], tag::kGatherLeaders,
                            buffer + processes.range(p, child), processes.range(child, between.end(child))});
    });
    ch.post(incoming).wait();
    if (p > 0) {
        ch.send(leaders[static_cast<std::size_t>(between.parent(p))], tag::kGatherLeaders, buffer, total);
    } else if (!direct) {
        place_blocks(buffer, *out, members);
    }
}

void scatter(CollectiveChannel& ch, int root, const Blocks* in,
             const std::vector<std::size_t>* sizes, void* mine, std::size_t my_bytes) {
    TwoLevel where(ch.comm(), ch.rank(), root);
    const std::vector<int>& local = where.local();
    if (!where.is_leader()) {
        ch.receive(local[0], tag::kScatterLocal, mine, my_bytes);
        return;
    }
    std::vector<std::vector<int>> members = members_by_position(where);
    int q = where.process_count(), p = where.my_process();
    Tree between = Tree::binomial(q);
    const std::vector<int>& leaders = where.leaders();
    int parent = leaders[static_cast<std::size_t>(between.parent(p))];

    // This leader's blocks in tree order (its process's first) and their sizes.
    std::vector<char> own;
    const char* buffer = nullptr;
    std::vector<std::uint64_t> block_sizes;  // of this process's members, local order
    if (sizes || p == 0) {
        const std::vector<std::size_t>& known = p == 0 ? in->size : *sizes;
        ProcessBytes processes(members, known);
        if (p == 0 && back_to_back(*in, members)) {
            buffer = in->at(members[0][0]);
        } else if (p == 0) {
            own.resize(processes.range(0, q));
            collect_blocks(*in, own.data(), members);
            buffer = own.data();
        } else {
            own.resize(processes.range(p, between.end(p)));
            ch.receive(parent, tag::kScatterLeaders, own.data(), own.size());
            buffer = own.data();
        }
        if (!sizes) {
            // A scatterv's root: the blocks travel with their sizes.
            Segment all;
            for (const std::vector<int>& process : members)
                for (int rank : process) all.sizes.push_back(known[static_cast<std::size_t>(rank)]);
            all.data.assign(buffer, buffer + processes.range(0, q));
            std::vector<std::size_t> first_block(1, 0);
            for (const std::vector<int>& process : members) first_block.push_back(first_block.back() + process.size());
            between.children_descending(p, [&](int child) {
                std::vector<char> part = all.message(first_block[static_cast<std::size_t>(child)],
                                                     first_block[static_cast<std::size_t>(between.end(child))]);
                ch.send(leaders[static_cast<std::size_t>(child)], tag::kScatterLeaders, part.data(), part.size());
            });
        } else {
            between.children_descending(p, [&](int child) {
                ch.send(leaders[static_cast<std::size_t>(child)], tag::kScatterLeaders,
                        buffer + processes.range(p, child), processes.range(child, between.end(child)));
            });
        }
        for (int rank : local) block_sizes.push_back(known[static_cast<std::size_t>(rank)]);
    } else {
        // A leader on the way in a scatterv: sizes come with the blocks.
        Segment segment = Segment::from_message(ch, ch.receive_any_size(parent, tag::kScatterLeaders));
        std::vector<std::size_t> first_block(1, 0);
        for (int pos = p; pos < between.end(p); ++pos)
            first_block.push_back(first_block.back() + members[static_cast<std::size_t>(pos)].size());
        if (segment.sizes.size() != first_block.back()) ch.fail("a scatter message is malformed");
        between.children_descending(p, [&](int child) {
            std::vector<char> part = segment.message(first_block[static_cast<std::size_t>(child - p)],
                                                     first_block[static_cast<std::size_t>(between.end(child) - p)]);
            ch.send(leaders[static_cast<std::size_t>(child)], tag::kScatterLeaders, part.data(), part.size());
        });
        block_sizes.assign(segment.sizes.begin(), segment.sizes.begin() + static_cast<std::ptrdiff_t>(local.size()));
        own = std::move(segment.data);
        buffer = own.data();
    }
    // Within the process: every member its block, straight.
    std::size_t at = block_sizes[0];
    for (std::size_t i = 1; i < local.size(); ++i) {
        ch.send(local[i], tag::kScatterLocal, buffer + at, block_sizes[i]);
        at += block_sizes[i];
    }
    if (block_sizes[0] != my_bytes)
        ch.fail("the root sends this rank %zu bytes where it expects %zu: the ranks' counts or "
                "datatypes do not match",
                static_cast<std::size_t>(block_sizes[0]), my_bytes);
    copy_block(static_cast<char*>(mine), buffer, my_bytes);
}

void allgather(CollectiveChannel& ch, const void* mine, const Blocks& out) {
    TwoLevel where(ch.comm(), ch.rank(), -1);
    const std::vector<std::size_t>& sizes = out.size;
    std::vector<std::vector<int>> members = members_by_position(where);
    ProcessBytes processes(members, sizes);
    std::size_t total = processes.range(0, where.process_count());
    const std::vector<int>& local = where.local();
    std::size_t my_bytes = sizes[static_cast<std::size_t>(ch.rank())];

    // The result in tree order: the receive buffer itself where it can be, so that every
    // block is received where it belongs and nothing is copied twice.
    bool direct = back_to_back(out, members);
    ByteBuffer own;
    char* all = direct ? out.at(members[0][0]) : (own = ByteBuffer(total), own.get());
    if (where.is_leader()) {
        // This process's blocks, then Bruck between the processes.
        char* block = all + processes.start[static_cast<std::size_t>(where.my_process())];
        copy_block(block, static_cast<const char*>(mine), my_bytes);
        std::vector<Incoming> incoming;
        std::size_t at = my_bytes;
        for (std::size_t i = 1; i < local.size(); ++i) {
            std::size_t bytes = sizes[static_cast<std::size_t>(local[i])];
            incoming.push_back({local[i], tag::kAllgatherIn, block + at, bytes});
            at += bytes;
        }
        ch.post(incoming).wait();
        bruck_allgather(ch, where, processes, all);
    } else {
        ch.send(local[0], tag::kAllgatherIn, mine, my_bytes);
    }
    tree_bcast(ch, local, Tree::binomial(static_cast<int>(local.size())), where.my_local(),
               tag::kAllgatherOut, all, total);
    if (!direct) place_blocks(all, out, members);
}

void alltoall(CollectiveChannel& ch, const char* send, char* recv, std::size_t block) {
    const int n = ch.size();
    if (alltoall_algorithm(block) == AlltoallAlgorithm::pairwise) {
        pairwise_exchange(ch, uniform_blocks(send, n, block), uniform_blocks(recv, n, block));
        return;
    }
    TwoLevel where(ch.comm(), ch.rank(), -1);
    const std::size_t row = static_cast<std::size_t>(n) * block;  // what one task sends in all
    const std::vector<int>& local = where.local();
    if (!where.is_leader()) {
        ch.send(local[0], tag::kAlltoallIn, send, row);
        ch.receive(local[0], tag::kAlltoallOut, recv, row);
        return;
    }
    // The rows of this process's members, in local order.
    std::vector<char> rows(local.size() * row);
    copy_block(rows.data(), send, row);
    std::vector<Incoming> incoming;
    for (std::size_t i = 1; i < local.size(); ++i)
        incoming.push_back({local[i], tag::kAlltoallIn, rows.data() + i * row, row});
    ch.post(incoming).wait();

    // The block for the process at position p+j holds, for each member a here and each
    // member b there, a's block for b.
    int q = where.process_count(), p = where.my_process();
    std::vector<std::vector<int>> members = members_by_position(where);
    std::vector<std::vector<char>> at(static_cast<std::size_t>(q));
    for (int j = 0; j < q; ++j) {
        std::vector<char>& out = at[static_cast<std::size_t>(j)];
        for (std::size_t a = 0; a < local.size(); ++a)
            for (int b : members[static_cast<std::size_t>((p + j) % q)])
                append(out, rows.data() + a * row + static_cast<std::size_t>(b) * block, block);
    }
    bruck_alltoall(ch, where, at, [&](int origin, int dest) {
        return members[static_cast<std::size_t>(origin)].size() * members[static_cast<std::size_t>(dest)].size() * block;
    });
    // at[j] now holds the block from position p-j: [a there][b here]. Each member's row
    // lists the blocks for it from every rank, in rank order.
    std::vector<int> position_of(static_cast<std::size_t>(n)), index_in_process(static_cast<std::size_t>(n));
    for (int pos = 0; pos < q; ++pos) {
        const std::vector<int>& process = members[static_cast<std::size_t>(pos)];
        for (std::size_t i = 0; i < process.size(); ++i) {
            position_of[static_cast<std::size_t>(process[i])] = pos;
            index_in_process[static_cast<std::size_t>(process[i])] = static_cast<int>(i);
        }
    }
    std::vector<char> result(row);
    for (std::size_t b = 0; b < local.size(); ++b) {
        char* to = b == 0 ? recv : result.data();
        for (int r = 0; r < n; ++r) {
            int j = (p - position_of[static_cast<std::size_t>(r)] + q) % q;
            std::size_t offset = (static_cast<std::size_t>(index_in_process[static_cast<std::size_t>(r)]) * local.size() + b) * block;
            copy_block(to + static_cast<std::size_t>(r) * block, at[static_cast<std::size_t>(j)].data() + offset, block);
        }
        if (b > 0) ch.send(local[b], tag::kAlltoallOut, result.data(), row);
    }
}

void alltoallv(CollectiveChannel& ch, const Blocks& send, const Blocks& recv) {
    pairwise_exchange(ch, send, recv);
}

// On a Cartesian grid each block's tag names the receive block it lands in, which pairs them
// even where one rank is the neighbour on both sides; on a graph one tag, so that messages
// between two ranks pair in order.
void neighbor_exchange(CollectiveChannel& ch, const Neighbours& neighbours, const Blocks& send, const Blocks& recv) {
    if (neighbours.cartesian && neighbours.sources.size() > static_cast<std::size_t>(tag::kNeighborBlocks))
        ch.fail("the grid has %zu dimensions; neighbourhood collectives take at most %d", neighbours.sources.size() / 2,
                tag::kNeighborBlocks / 2);
    auto tag_of = [&](std::size_t landing) {
        return neighbours.cartesian ? tag::kNeighbor + static_cast<int>(landing) : tag::kNeighbor;
    };
    std::vector<Incoming> incoming;
    for (std::size_t i = 0; i < neighbours.sources.size(); ++i)
        if (neighbours.sources[i] >= 0)
            incoming.push_back({neighbours.sources[i], tag_of(i), recv.at(static_cast<int>(i)), recv.size[i]});
    auto posted = ch.post(incoming);
    for (std::size_t i = 0; i < neighbours.destinations.size(); ++i)
        if (neighbours.destinations[i] >= 0)
            ch.send(neighbours.destinations[i], tag_of(i ^ 1), send.at(static_cast<int>(i)), send.size[i]);
    posted.wait();
}

}  // namespace bamboo::collectives
