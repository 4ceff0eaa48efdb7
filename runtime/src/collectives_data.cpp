// The collectives that move data: barrier, broadcast, gather, scatter, allgather, alltoall(v).
#include <cstdint>
#include <cstring>

#include "collective_structure.hpp"
#include "collectives.hpp"

namespace bamboo::collectives {
namespace {

constexpr std::size_t kUnknown = SIZE_MAX;

void append(std::vector<char>& to, const void* data, std::size_t bytes) {
    const char* from = static_cast<const char*>(data);
    to.insert(to.end(), from, from + bytes);
}

void copy_block(char* to, const char* from, std::size_t bytes) {
    if (to != from && bytes) std::memcpy(to, from, bytes);  // equal for MPI_IN_PLACE
}

// Binomial broadcast over `ranks` (tree positions; position 0 has the data).
void tree_bcast(CollectiveChannel& ch, const std::vector<int>& ranks, int me, int tag,
                void* data, std::size_t bytes) {
    int n = static_cast<int>(ranks.size());
    if (me > 0) ch.receive(ranks[binomial_parent(me)], tag, data, bytes);
    for_each_binomial_child_descending(me, n, [&](int child) { ch.send(ranks[child], tag, data, bytes); });
}

// Binomial gather over `ranks`: `acc` (this position's blocks) gets the children's subtrees
// appended, in position order; every position but 0 then sends `acc` to its parent.
// `subtree_bytes(first, end)`: the bytes positions [first, end) hold, or kUnknown.
// Returns true at position 0, which now holds everything.
template <class SubtreeBytes>
bool gather_level(CollectiveChannel& ch, const std::vector<int>& ranks, int me, int tag,
                  std::vector<char>& acc, SubtreeBytes subtree_bytes) {
    int n = static_cast<int>(ranks.size());
    for_each_binomial_child(me, n, [&](int child) {
        std::size_t bytes = subtree_bytes(child, binomial_end(child, n));
        if (bytes == kUnknown) {
            Message message = ch.receive_any_size(ranks[child], tag);
            append(acc, message.data, message.bytes);
        } else {
            std::size_t old = acc.size();
            acc.resize(old + bytes);
            ch.receive(ranks[child], tag, acc.data() + old, bytes);
        }
    });
    if (me == 0) return true;
    ch.send(ranks[binomial_parent(me)], tag, acc.data(), acc.size());
    return false;
}

// A scatter's blocks for consecutive tree positions, in tree order. Between tasks a run of
// blocks travels with its sizes, since only the root knows every block's size (scatterv).
struct Segment {
    std::vector<std::size_t> sizes;
    std::vector<char> data;

    std::size_t offset(std::size_t block) const {
        std::size_t at = 0;
        for (std::size_t b = 0; b < block; ++b) at += sizes[b];
        return at;
    }

    void add(const void* block, std::size_t bytes) {
        sizes.push_back(bytes);
        append(data, block, bytes);
    }

    // Blocks [first, last) as a message: count, sizes, data.
    std::vector<char> message(std::size_t first, std::size_t last) const {
        std::uint64_t count = last - first;
        std::vector<char> out;
        append(out, &count, sizeof count);
        for (std::size_t b = first; b < last; ++b) {
            std::uint64_t size = sizes[b];
            append(out, &size, sizeof size);
        }
        std::size_t begin = offset(first), end = begin;
        for (std::size_t b = first; b < last; ++b) end += sizes[b];
        append(out, data.data() + begin, end - begin);
        return out;
    }

    static Segment from_message(const CollectiveChannel& ch, const Message& m) {
        Segment segment;
        std::uint64_t count = 0;
        if (m.bytes < sizeof count) ch.fail("a scatter message is malformed");
        std::memcpy(&count, m.data, sizeof count);
        std::size_t header = sizeof count * (1 + count);
        if (m.bytes < header) ch.fail("a scatter message is malformed");
        std::size_t total = 0;
        for (std::uint64_t b = 0; b < count; ++b) {
            std::uint64_t size;
            std::memcpy(&size, m.data + sizeof count * (1 + b), sizeof size);
            segment.sizes.push_back(size);
            total += size;
        }
        if (header + total != m.bytes) ch.fail("a scatter message is malformed");
        append(segment.data, m.data + header, total);
        return segment;
    }

    void keep_first(std::size_t blocks) {
        data.resize(offset(blocks));
        sizes.resize(blocks);
    }
};

// Binomial scatter over `ranks`: position `me` receives its subtree's blocks from its parent
// (position 0 has them all), passes each child its part and keeps its own.
// `first_block(position)`: the index in this position's segment of that position's first
// block, for positions me .. end of my subtree.
template <class FirstBlock>
void scatter_level(CollectiveChannel& ch, const std::vector<int>& ranks, int me, int tag,
                   Segment& segment, FirstBlock first_block) {
    int n = static_cast<int>(ranks.size());
    if (me > 0) segment = Segment::from_message(ch, ch.receive_any_size(ranks[binomial_parent(me)], tag));
    for_each_binomial_child_descending(me, n, [&](int child) {
        std::vector<char> part = segment.message(first_block(child), first_block(binomial_end(child, n)));
        ch.send(ranks[child], tag, part.data(), part.size());
    });
    segment.keep_first(first_block(me + 1));
}

// The members of every process, by position: the order in which blocks travel.
std::vector<std::vector<int>> members_by_position(const TwoLevel& where) {
    std::vector<std::vector<int>> members;
    for (int p = 0; p < where.process_count(); ++p) members.push_back(where.members(p));
    return members;
}

std::size_t sum_sizes(const std::vector<std::size_t>& sizes, const std::vector<int>& ranks,
                      std::size_t first, std::size_t end) {
    std::size_t bytes = 0;
    for (std::size_t i = first; i < end; ++i) bytes += sizes[static_cast<std::size_t>(ranks[i])];
    return bytes;
}

// Bruck's allgather between the leaders: `held` starts as this process's block; the result
// holds every process's block, by position. `block_bytes[p]`: the size of process p's block.
std::vector<char> bruck_allgather(CollectiveChannel& ch, const TwoLevel& where,
                                  const std::vector<std::size_t>& block_bytes,
                                  std::vector<char> held) {
    const std::vector<int>& leaders = where.leaders();
    int q = where.process_count(), p = where.my_process();
    auto bytes_of = [&](int first, int count) {
        std::size_t bytes = 0;
        for (int j = 0; j < count; ++j) bytes += block_bytes[static_cast<std::size_t>((first + j) % q)];
        return bytes;
    };
    // Round k: send the blocks held so far (p, p+1, ...) 2^k positions down, receive as many
    // from 2^k positions up.
    for (int d = 1, round = 0; d < q; d <<= 1, ++round) {
        int count = std::min(d, q - d);
        ch.send(leaders[static_cast<std::size_t>((p - d + q) % q)], tag::kAllgatherRound + round,
                held.data(), bytes_of(p, count));
        std::size_t incoming = bytes_of(p + d, count), old = held.size();
        held.resize(old + incoming);
        ch.receive(leaders[static_cast<std::size_t>((p + d) % q)], tag::kAllgatherRound + round,
                   held.data() + old, incoming);
    }
    // `held` has positions p, p+1, ..., p+q-1 (mod q); rotate to 0, 1, ...
    std::vector<char> all(held.size());
    std::size_t split = bytes_of(p, q - p);
    std::memcpy(all.data() + (held.size() - split), held.data(), split);
    std::memcpy(all.data(), held.data() + split, held.size() - split);
    return all;
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
        std::vector<char> out;
        for (int j = 0; j < q; ++j)
            if (j & d) append(out, at[static_cast<std::size_t>(j)].data(), at[static_cast<std::size_t>(j)].size());
        ch.send(leaders[static_cast<std::size_t>((p + d) % q)], tag::kAlltoallRound + round, out.data(), out.size());
        int from = (p - d + q) % q;
        std::vector<std::size_t> sizes(static_cast<std::size_t>(q), 0);
        std::size_t total = 0;
        for (int j = 0; j < q; ++j) {
            if (!(j & d)) continue;
            int origin = (from - (j & (d - 1)) + q) % q;  // bits below d were travelled already
            sizes[static_cast<std::size_t>(j)] = bytes(origin, (origin + j) % q);
            total += sizes[static_cast<std::size_t>(j)];
        }
        std::vector<char> in(total);
        ch.receive(leaders[static_cast<std::size_t>(from)], tag::kAlltoallRound + round, in.data(), total);
        std::size_t offset = 0;
        for (int j = 0; j < q; ++j) {
            if (!(j & d)) continue;
            std::vector<char>& block = at[static_cast<std::size_t>(j)];
            block.assign(in.data() + offset, in.data() + offset + sizes[static_cast<std::size_t>(j)]);
            offset += sizes[static_cast<std::size_t>(j)];
        }
    }
}

}  // namespace

void barrier(CollectiveChannel& ch) {
    TwoLevel where(ch.comm(), ch.rank(), -1);
    std::vector<char> nothing;
    bool leader = gather_level(ch, where.local(), where.my_local(), tag::kBarrierIn, nothing,
                               [](int, int) { return std::size_t{0}; });
    if (leader) {
        // Dissemination: after round k each leader has heard, through chains, from 2^(k+1).
        const std::vector<int>& leaders = where.leaders();
        int q = where.process_count(), p = where.my_process();
        for (int d = 1, round = 0; d < q; d <<= 1, ++round) {
            ch.send(leaders[static_cast<std::size_t>((p + d) % q)], tag::kBarrierRound + round, nullptr, 0);
            ch.receive(leaders[static_cast<std::size_t>((p - d + q) % q)], tag::kBarrierRound + round, nullptr, 0);
        }
    }
    tree_bcast(ch, where.local(), where.my_local(), tag::kBarrierOut, nullptr, 0);
}

void bcast(CollectiveChannel& ch, int root, void* data, std::size_t bytes) {
    TwoLevel where(ch.comm(), ch.rank(), root);
    if (where.is_leader())
        tree_bcast(ch, where.leaders(), where.my_process(), tag::kBcastLeaders, data, bytes);
    tree_bcast(ch, where.local(), where.my_local(), tag::kBcastLocal, data, bytes);
}

void gather(CollectiveChannel& ch, int root, const void* mine, std::size_t my_bytes,
            const std::vector<std::size_t>* sizes, const Blocks* out) {
    TwoLevel where(ch.comm(), ch.rank(), root);
    std::vector<char> acc;
    append(acc, mine, my_bytes);
    const std::vector<int>& local = where.local();
    bool leader = gather_level(ch, local, where.my_local(), tag::kGatherLocal, acc, [&](int first, int end) {
        return sizes ? sum_sizes(*sizes, local, first, end) : kUnknown;
    });
    if (!leader) return;
    std::vector<std::vector<int>> members = members_by_position(where);
    bool root_holds_all = gather_level(ch, where.leaders(), where.my_process(), tag::kGatherLeaders, acc,
                                       [&](int first, int end) {
        if (!sizes) return kUnknown;
        std::size_t bytes = 0;
        for (int p = first; p < end; ++p) bytes += sum_sizes(*sizes, members[p], 0, members[p].size());
        return bytes;
    });
    if (!root_holds_all) return;
    std::size_t at = 0;
    for (const std::vector<int>& process : members) {
        for (int rank : process) {
            std::size_t bytes = out->size[static_cast<std::size_t>(rank)];
            if (at + bytes > acc.size()) break;
            copy_block(out->at(rank), acc.data() + at, bytes);
            at += bytes;
        }
    }
    std::size_t expected = 0;
    for (std::size_t bytes : out->size) expected += bytes;
    if (at != expected || acc.size() != expected)
        ch.fail("the root expects %zu bytes in all but the ranks sent %zu: the ranks' counts or "
                "datatypes do not match",
                expected, acc.size());
}

void scatter(CollectiveChannel& ch, int root, const Blocks* in,
             const std::vector<std::size_t>* sizes, void* mine, std::size_t my_bytes) {
    (void)sizes;  // blocks always travel with their sizes (see Segment)
    TwoLevel where(ch.comm(), ch.rank(), root);
    Segment segment;
    if (where.is_leader()) {
        std::vector<std::vector<int>> members = members_by_position(where);
        if (ch.rank() == root)
            for (const std::vector<int>& process : members)
                for (int rank : process) segment.add(in->at(rank), in->size[static_cast<std::size_t>(rank)]);
        int me = where.my_process();
        scatter_level(ch, where.leaders(), me, tag::kScatterLeaders, segment, [&](int position) {
            std::size_t blocks = 0;
            for (int p = me; p < position; ++p) blocks += members[static_cast<std::size_t>(p)].size();
            return blocks;
        });
    }
    int me = where.my_local();
    scatter_level(ch, where.local(), me, tag::kScatterLocal, segment,
                  [me](int position) { return static_cast<std::size_t>(position - me); });
    if (segment.sizes[0] != my_bytes)
        ch.fail("the root sends this rank %zu bytes where it expects %zu: the ranks' counts or "
                "datatypes do not match",
                segment.sizes[0], my_bytes);
    copy_block(static_cast<char*>(mine), segment.data.data(), my_bytes);
}

void allgather(CollectiveChannel& ch, const void* mine, const Blocks& out) {
    TwoLevel where(ch.comm(), ch.rank(), -1);
    const std::vector<std::size_t>& sizes = out.size;
    std::vector<std::vector<int>> members = members_by_position(where);
    std::vector<std::size_t> process_bytes;
    std::size_t total = 0;
    for (const std::vector<int>& process : members) {
        process_bytes.push_back(sum_sizes(sizes, process, 0, process.size()));
        total += process_bytes.back();
    }
    std::vector<char> acc;
    append(acc, mine, sizes[static_cast<std::size_t>(ch.rank())]);
    const std::vector<int>& local = where.local();
    std::vector<char> all;
    if (gather_level(ch, local, where.my_local(), tag::kAllgatherIn, acc,
                     [&](int first, int end) { return sum_sizes(sizes, local, first, end); }))
        all = bruck_allgather(ch, where, process_bytes, std::move(acc));
    else
        all.resize(total);
    tree_bcast(ch, local, where.my_local(), tag::kAllgatherOut, all.data(), total);
    std::size_t at = 0;
    for (const std::vector<int>& process : members) {
        for (int rank : process) {
            copy_block(out.at(rank), all.data() + at, sizes[static_cast<std::size_t>(rank)]);
            at += sizes[static_cast<std::size_t>(rank)];
        }
    }
}

void alltoall(CollectiveChannel& ch, const char* send, char* recv, std::size_t block) {
    TwoLevel where(ch.comm(), ch.rank(), -1);
    const std::size_t n = static_cast<std::size_t>(ch.size());
    const std::size_t row = n * block;  // what one task sends in all
    const std::vector<int>& local = where.local();
    std::vector<char> acc(send, send + row);
    bool leader = gather_level(ch, local, where.my_local(), tag::kAlltoallIn, acc,
                               [&](int first, int end) { return static_cast<std::size_t>(end - first) * row; });
    Segment segment;
    if (leader) {
        // acc: the rows of this process's members, in local order. The block for the process
        // at position p+j holds, for each member a here and each member b there, a's block for b.
        int q = where.process_count(), p = where.my_process();
        std::vector<std::vector<int>> members = members_by_position(where);
        std::vector<std::vector<char>> at(static_cast<std::size_t>(q));
        for (int j = 0; j < q; ++j) {
            std::vector<char>& out = at[static_cast<std::size_t>(j)];
            for (std::size_t a = 0; a < local.size(); ++a)
                for (int b : members[static_cast<std::size_t>((p + j) % q)])
                    append(out, acc.data() + a * row + static_cast<std::size_t>(b) * block, block);
        }
        bruck_alltoall(ch, where, at, [&](int origin, int dest) {
            return members[static_cast<std::size_t>(origin)].size() * members[static_cast<std::size_t>(dest)].size() * block;
        });
        // at[j] now holds the block from position p-j: [a there][b here]. Each member's row
        // lists the blocks for it from every rank, in rank order.
        std::vector<int> position_of(n), index_in_process(n);
        for (int pos = 0; pos < q; ++pos) {
            const std::vector<int>& process = members[static_cast<std::size_t>(pos)];
            for (std::size_t i = 0; i < process.size(); ++i) {
                position_of[static_cast<std::size_t>(process[i])] = pos;
                index_in_process[static_cast<std::size_t>(process[i])] = static_cast<int>(i);
            }
        }
        for (std::size_t b = 0; b < local.size(); ++b) {
            std::vector<char> result;
            result.reserve(row);
            for (std::size_t r = 0; r < n; ++r) {
                int j = (p - position_of[r] + q) % q;
                std::size_t offset = (static_cast<std::size_t>(index_in_process[r]) * local.size() + b) * block;
                append(result, at[static_cast<std::size_t>(j)].data() + offset, block);
            }
            segment.add(result.data(), result.size());
        }
    }
    int me = where.my_local();
    scatter_level(ch, local, me, tag::kAlltoallOut, segment,
                  [me](int position) { return static_cast<std::size_t>(position - me); });
    copy_block(recv, segment.data.data(), row);
}

void alltoallv(CollectiveChannel& ch, const Blocks& send, const Blocks& recv) {
    // Sends are buffered, so all of them go first; the k-th goes k ranks on, which spreads
    // the load instead of everybody sending to rank 0 first.
    int n = ch.size(), rank = ch.rank();
    for (int k = 1; k < n; ++k) {
        int dest = (rank + k) % n;
        ch.send(dest, tag::kAlltoallv, send.at(dest), send.size[static_cast<std::size_t>(dest)]);
    }
    std::size_t own = recv.size[static_cast<std::size_t>(rank)];
    if (send.size[static_cast<std::size_t>(rank)] != own)
        ch.fail("this rank sends itself %zu bytes but expects %zu: the counts or datatypes do not match",
                send.size[static_cast<std::size_t>(rank)], own);
    copy_block(recv.at(rank), send.at(rank), own);
    for (int k = 1; k < n; ++k) {
        int source = (rank - k + n) % n;
        ch.receive(source, tag::kAlltoallv, recv.at(source), recv.size[static_cast<std::size_t>(source)]);
    }
}

}  // namespace bamboo::collectives
