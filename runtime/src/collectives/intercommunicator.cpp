// Intercommunicator collectives: within each group by the intracommunicator algorithms,
// between the groups by their leaders (collectives/intercommunicator.hpp).
#include "collectives/intercommunicator.hpp"

#include <cstring>
#include <vector>

#include "collectives/structure.hpp"

namespace bamboo::collectives::inter {
namespace {

// Blocks of the given sizes, end to end in rank order in `storage`.
Blocks end_to_end_blocks(const std::vector<std::size_t>& sizes, std::vector<char>& storage) {
    Blocks blocks;
    std::size_t total = 0;
    for (std::size_t size : sizes) {
        blocks.offset.push_back(total);
        blocks.size.push_back(size);
        total += size;
    }
    storage.resize(total);
    blocks.base = storage.data();
    return blocks;
}

std::size_t total_size(const Blocks& blocks) {
    std::size_t total = 0;
    for (std::size_t size : blocks.size) total += size;
    return total;
}

// Every member's block, end to end in rank order, at the group's leader (elsewhere empty).
// Sizes first, since only each member knows its own.
std::vector<char> gather_at_leader(CollectiveChannel& group, const void* mine, std::size_t my_bytes) {
    std::size_t n = static_cast<std::size_t>(group.size());
    std::vector<std::size_t> sizes(n);
    std::vector<std::size_t> word(n, sizeof(std::size_t));
    Blocks size_blocks{reinterpret_cast<char*>(sizes.data()), {}, word};
    for (std::size_t r = 0; r < n; ++r) size_blocks.offset.push_back(r * sizeof(std::size_t));
    bool leader = group.rank() == 0;
    collectives::gather(group, 0, &my_bytes, sizeof my_bytes, &word, leader ? &size_blocks : nullptr);
    std::vector<char> all;
    Blocks blocks;
    if (leader) blocks = end_to_end_blocks(sizes, all);
    collectives::gather(group, 0, mine, my_bytes, nullptr, leader ? &blocks : nullptr);
    return all;
}

// `all`: the blocks of `out` end to end in rank order, copied to their places.
void place_blocks(const std::vector<char>& all, const Blocks& out) {
    std::size_t from = 0;
    for (std::size_t r = 0; r < out.size.size(); ++r) {
        std::memcpy(out.at(static_cast<int>(r)), all.data() + from, out.size[r]);
        from += out.size[r];
    }
}

}  // namespace

// Once the group is in, its leader hears that the other group is in too, and tells it.
void barrier(Channels& ch) {
    collectives::barrier(ch.group);
    char token = 0;
    if (ch.leader()) {
        ch.across.send(0, tag::kInterLeaders, &token, 1);
        ch.across.receive(0, tag::kInterLeaders, &token, 1);
    }
    collectives::bcast(ch.group, 0, &token, 1);
}

void bcast_at_root(CollectiveChannel& across, const void* data, std::size_t bytes) {
    across.send(0, tag::kInterLeaders, data, bytes);
}

void bcast(Channels& ch, int root, void* data, std::size_t bytes) {
    if (ch.leader()) ch.across.receive(root, tag::kInterLeaders, data, bytes);
    collectives::bcast(ch.group, 0, data, bytes);
}

// The other group's blocks come end to end from its leader.
void gather_at_root(CollectiveChannel& across, const Blocks& out) {
    std::vector<char> all(total_size(out));
    across.receive(0, tag::kInterLeaders, all.data(), all.size());
    place_blocks(all, out);
}

void gather(Channels& ch, int root, const void* mine, std::size_t my_bytes) {
    std::vector<char> all = gather_at_leader(ch.group, mine, my_bytes);
    if (ch.leader()) ch.across.send(root, tag::kInterLeaders, all.data(), all.size());
}

// The root's blocks go end to end, their sizes first, to the other group's leader, which
// scatters them in its group.
void scatter_at_root(CollectiveChannel& across, const Blocks& in) {
    std::vector<char> all;
    for (std::size_t r = 0; r < in.size.size(); ++r)
        all.insert(all.end(), in.at(static_cast<int>(r)), in.at(static_cast<int>(r)) + in.size[r]);
    across.send(0, tag::kInterLeaders, in.size.data(), in.size.size() * sizeof(std::size_t));
    across.send(0, tag::kInterLeaders, all.data(), all.size());
}

void scatter(Channels& ch, int root, void* mine, std::size_t my_bytes) {
    std::vector<char> all;
    Blocks blocks;
    if (ch.leader()) {
        std::vector<std::size_t> sizes(static_cast<std::size_t>(ch.group.size()));
        ch.across.receive(root, tag::kInterLeaders, sizes.data(), sizes.size() * sizeof(std::size_t));
        blocks = end_to_end_blocks(sizes, all);
        ch.across.receive(root, tag::kInterLeaders, all.data(), all.size());
    }
    collectives::scatter(ch.group, 0, ch.leader() ? &blocks : nullptr, nullptr, mine, my_bytes);
}

// Each group's blocks gathered at its leader, traded, and broadcast in the other group, whose
// `out` says how large they are.
void allgather(Channels& ch, const void* mine, std::size_t my_bytes, const Blocks& out) {
    std::vector<char> theirs(total_size(out));
    std::vector<char> ours = gather_at_leader(ch.group, mine, my_bytes);
    if (ch.leader()) {
        ch.across.send(0, tag::kInterLeaders, ours.data(), ours.size());
        ch.across.receive(0, tag::kInterLeaders, theirs.data(), theirs.size());
    }
    collectives::bcast(ch.group, 0, theirs.data(), theirs.size());
    place_blocks(theirs, out);
}

void alltoall(CollectiveChannel& across, const Blocks& send, const Blocks& recv) {
    int peers = static_cast<int>(recv.size.size());
    std::vector<CollectiveChannel::Incoming> incoming;
    for (int r = 0; r < peers; ++r)
        incoming.push_back({r, tag::kInterLeaders, recv.at(r), recv.size[static_cast<std::size_t>(r)]});
    CollectiveChannel::PostedReceives posted = across.post(incoming);
    for (int r = 0; r < peers; ++r) across.send(r, tag::kInterLeaders, send.at(r), send.size[static_cast<std::size_t>(r)]);
    posted.wait();
}

// The other group reduces at its leader, which sends the result to the root.
void reduce_at_root(CollectiveChannel& across, Operand& result) {
    across.receive(0, tag::kInterLeaders, result.bytes(), result.size());
}

void reduce(Channels& ch, int root, Operand& acc, const Reduction& r) {
    collectives::reduce(ch.group, 0, acc, r);
    if (ch.leader()) ch.across.send(root, tag::kInterLeaders, acc.bytes(), acc.size());
}

void reduce_at_leaders_and_trade(Channels& ch, Operand& acc, const Reduction& r) {
    collectives::reduce(ch.group, 0, acc, r);
    if (!ch.leader()) return;
    Operand theirs = r.operand(acc.layout());
    ch.across.send(0, tag::kInterLeaders, acc.bytes(), acc.size());
    ch.across.receive(0, tag::kInterLeaders, theirs.bytes(), theirs.size());
    acc.swap(theirs);
}

void allreduce(Channels& ch, Operand& acc, const Reduction& r) {
    reduce_at_leaders_and_trade(ch, acc, r);
    collectives::bcast(ch.group, 0, acc.bytes(), acc.size());
}

}  // namespace bamboo::collectives::inter
