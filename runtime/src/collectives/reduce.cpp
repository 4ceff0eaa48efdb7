// The reductions: reduce, allreduce, scan, exscan. The order of combination is fixed by the
// communicator and the VF alone, so every run gives the same bits.
#include <algorithm>

#include "collectives/algorithms.hpp"
#include "collectives/structure.hpp"

namespace bamboo::collectives {
namespace {

// Binomial reduction over `ranks` (tree positions) to position 0 of a commutative operation:
// acc = child's subtree op acc, children in ascending order.
void tree_reduce(CollectiveChannel& ch, const std::vector<int>& ranks, int me, int tag,
                 Operand& acc, Operand& incoming, const Reduction& r) {
    int n = static_cast<int>(ranks.size());
    for_each_binomial_child(me, n, [&](int child) {
        if (char* vacant = acc.vacant()) {
            // Into the result's buffer while it waits for this rank's operand, which is then
            // combined into it: one copy of the operand fewer.
            ch.receive(ranks[child], tag, vacant, acc.size());
            r.combine_input(acc);
            return;
        }
        ch.receive(ranks[child], tag, incoming.bytes(), incoming.size());
        r.combine(incoming, acc);
    });
    if (me > 0) ch.send(ranks[binomial_parent(me)], tag, acc.bytes(), acc.size());
}

// A reduction over all ranks in rank order, for operations that are not commutative: a
// binomial tree rooted at rank 0, where every subtree covers consecutive ranks above its
// root, so acc = acc op child keeps rank order. The result then goes from rank 0 to `root`.
void reduce_in_rank_order(CollectiveChannel& ch, int root, Operand& acc, const Reduction& r) {
    int n = ch.size(), me = ch.rank();
    acc.own();  // the swaps below hand its buffer to `incoming`, which receives
    Operand incoming = r.operand(acc.layout());
    for_each_binomial_child(me, n, [&](int child) {
        ch.receive(child, tag::kReduceOrdered, incoming.bytes(), incoming.size());
        r.combine(acc, incoming);  // incoming = acc op incoming
        acc.swap(incoming);
    });
    if (me > 0) ch.send(binomial_parent(me), tag::kReduceOrdered, acc.bytes(), acc.size());
    if (root == 0) return;
    if (me == 0) ch.send(root, tag::kReduceToRoot, acc.bytes(), acc.size());
    if (me == root) ch.receive(0, tag::kReduceToRoot, acc.bytes(), acc.size());
}

// Recursive doubling between the leaders (commutative operations). With a number of
// processes that is not a power of two, the first 2*rest fold pairwise into rest, the
// remaining power of two exchange, and the folded ones get the result back. Partners
// combine lower position first, so all end with the same bits.
void recursive_doubling(CollectiveChannel& ch, const TwoLevel& where, Operand& acc,
                        Operand& incoming, const Reduction& r) {
    const std::vector<int>& leaders = where.leaders();
    int q = where.process_count(), p = where.my_process();
    int power = 1;
    while (power * 2 <= q) power *= 2;
    int rest = q - power;
    auto rank_at = [&](int position) { return leaders[static_cast<std::size_t>(position)]; };

    int folded = -1;  // this position among the `power` that exchange, or -1
    if (p < 2 * rest) {
        if (p % 2 == 0) {
            ch.send(rank_at(p + 1), tag::kAllreduceFold, acc.bytes(), acc.size());
        } else {
            ch.receive(rank_at(p - 1), tag::kAllreduceFold, incoming.bytes(), incoming.size());
            r.combine(incoming, acc);
            folded = p / 2;
        }
    } else {
        folded = p - rest;
    }
    if (folded >= 0) {
        for (int mask = 1, round = 0; mask < power; mask <<= 1, ++round) {
            int partner_folded = folded ^ mask;
            int partner = partner_folded < rest ? partner_folded * 2 + 1 : partner_folded + rest;
            // Posted before the send: both partners send first, and a large message that
            // finds its receive posted goes straight into it instead of waiting to be pulled.
            auto posted = ch.post({{rank_at(partner), tag::kAllreduceRound + round, incoming.bytes(), incoming.size()}});
            ch.send(rank_at(partner), tag::kAllreduceRound + round, acc.bytes(), acc.size());
            posted.wait();
            if (partner < p) {
                r.combine(incoming, acc);
            } else {
                r.combine(acc, incoming);
                acc.swap(incoming);
            }
        }
    }
    if (p < 2 * rest) {
        if (p % 2 == 1) ch.send(rank_at(p - 1), tag::kAllreduceUnfold, acc.bytes(), acc.size());
        else ch.receive(rank_at(p + 1), tag::kAllreduceUnfold, acc.bytes(), acc.size());
    }
}

}  // namespace

void reduce(CollectiveChannel& ch, int root, Operand& acc, const Reduction& r) {
    if (reduction_algorithm(r.commutative) == ReductionAlgorithm::rank_order)
        return reduce_in_rank_order(ch, root, acc, r);
    TwoLevel where(ch.comm(), ch.rank(), root);
    Operand incoming = r.operand(acc.layout());
    tree_reduce(ch, where.local(), where.my_local(), tag::kReduceLocal, acc, incoming, r);
    if (where.is_leader())
        tree_reduce(ch, where.leaders(), where.my_process(), tag::kReduceLeaders, acc, incoming, r);
}

void allreduce(CollectiveChannel& ch, Operand& acc, const Reduction& r) {
    if (reduction_algorithm(r.commutative) == ReductionAlgorithm::rank_order) {
        reduce_in_rank_order(ch, 0, acc, r);
        bcast(ch, 0, acc.bytes(), acc.size());
        return;
    }
    TwoLevel where(ch.comm(), ch.rank(), -1);
    Operand incoming = r.operand(acc.layout());
    tree_reduce(ch, where.local(), where.my_local(), tag::kAllreduceIn, acc, incoming, r);
    if (where.is_leader()) recursive_doubling(ch, where, acc, incoming, r);
    // The local broadcast: binomial, as in bcast().
    const std::vector<int>& local = where.local();
    int me = where.my_local(), n = static_cast<int>(local.size());
    if (me > 0) ch.receive(local[binomial_parent(me)], tag::kAllreduceOut, acc.bytes(), acc.size());
    for_each_binomial_child_descending(me, n, [&](int child) {
        ch.send(local[child], tag::kAllreduceOut, acc.bytes(), acc.size());
    });
}

namespace {

// Scans by recursive doubling in rank order: `partial` reduces the ranks this one has heard
// from so far, itself included; what comes from lower ranks is combined in front of it. An
// inclusive scan's result starts as this rank's operand, an exclusive one's as the first
// contribution from below (rank 0 gets none: MPI leaves its result undefined).
void scan_by_recursive_doubling(CollectiveChannel& ch, Operand& acc, const Reduction& r,
                                bool exclusive) {
    int n = ch.size(), me = ch.rank();
    int tag = exclusive ? tag::kExscanRound : tag::kScanRound;
    TypeLayout layout = acc.layout();
    Operand partial = r.operand(layout), incoming = r.operand(layout);
    std::copy(acc.bytes(), acc.bytes() + acc.size(), partial.bytes());
    bool have_result = !exclusive;
    for (int mask = 1, round = 0; mask < n; mask <<= 1, ++round) {
        int partner = me ^ mask;
        if (partner >= n) continue;
        ch.send(partner, tag + round, partial.bytes(), partial.size());
        ch.receive(partner, tag + round, incoming.bytes(), incoming.size());
        if (partner < me) {
            r.combine(incoming, partial);
            if (have_result) {
                r.combine(incoming, acc);
            } else {
                acc.own();
                std::copy(incoming.bytes(), incoming.bytes() + incoming.size(), acc.bytes());
                have_result = true;
            }
        } else {
            r.combine(partial, incoming);  // incoming = partial op incoming
            partial.swap(incoming);
        }
    }
}

}  // namespace

void scan(CollectiveChannel& ch, Operand& acc, const Reduction& r) {
    scan_by_recursive_doubling(ch, acc, r, false);
}

void exscan(CollectiveChannel& ch, Operand& acc, const Reduction& r) {
    scan_by_recursive_doubling(ch, acc, r, true);
}

}  // namespace bamboo::collectives
