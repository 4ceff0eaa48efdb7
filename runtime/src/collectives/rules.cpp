// Collectives in firing rules: the messages a task's part of a collective receives before it
// first sends. Only those may be waited for at an evaluation point: a message that comes
// after one of the task's own sends may depend on it. This mirrors the algorithms of
// collectives/data.cpp and collectives/reduce.cpp step by step.
#include "collectives/algorithms.hpp"
#include "collectives/structure.hpp"

namespace bamboo::collectives {

std::vector<Pattern> first_receives(Kind kind, const Communicator& comm, int rank, int root,
                                    bool commutative, unsigned number) {
    std::vector<Pattern> out;
    auto add = [&](int source, int tag) {
        out.push_back(Pattern{source, tag::numbered(tag, number), comm.collective_context()});
    };
    auto size = [](const std::vector<int>& ranks) { return static_cast<int>(ranks.size()); };
    auto children = [&](const std::vector<int>& ranks, const Tree& tree, int me, int tag) {
        tree.children(me, [&](int child) { add(ranks[static_cast<std::size_t>(child)], tag); });
    };
    auto parent = [&](const std::vector<int>& ranks, const Tree& tree, int me, int tag) {
        if (me > 0) add(ranks[static_cast<std::size_t>(tree.parent(me))], tag);
    };
    // Rank-ordered reductions (operations that are not commutative) use all ranks as positions.
    auto rank_order_children = [&]() {
        for_each_binomial_child(rank, comm.size(), [&](int child) { add(child, tag::kReduceOrdered); });
    };

    switch (kind) {
    case Kind::barrier: {
        TwoLevel where(comm, rank, -1);
        children(where.local(), Tree::binomial(size(where.local())), where.my_local(),
                 tag::kBarrierIn);  // then a send, or the rounds
        break;
    }
    case Kind::bcast:
    case Kind::scatter: {
        // A leader first hears from its parent between processes, the others within.
        TwoLevel where(comm, rank, root);
        bool is_bcast = kind == Kind::bcast;
        if (where.is_leader())
            parent(where.leaders(), Tree::binomial(where.process_count()), where.my_process(),
                   is_bcast ? tag::kBcastLeaders : tag::kScatterLeaders);
        else if (is_bcast)
            parent(where.local(), Tree::binomial(size(where.local())), where.my_local(), tag::kBcastLocal);
        else
            parent(where.local(), Tree::flat(size(where.local())), where.my_local(), tag::kScatterLocal);
        break;
    }
    case Kind::reduce:
    case Kind::reduce_scatter: {
        if (kind == Kind::reduce_scatter) root = 0;  // a reduction to rank 0, then a scatter
        if (!commutative) {
            rank_order_children();
            break;
        }
        TwoLevel where(comm, rank, root);
        children(where.local(), Tree::binomial(size(where.local())), where.my_local(), tag::kReduceLocal);
        if (where.is_leader())
            children(where.leaders(), Tree::binomial(where.process_count()), where.my_process(),
                     tag::kReduceLeaders);
        break;
    }
    case Kind::allreduce: {
        if (!commutative) {
            rank_order_children();
            break;
        }
        TwoLevel where(comm, rank, -1);
        children(where.local(), Tree::binomial(size(where.local())), where.my_local(), tag::kAllreduceIn);
        if (where.is_leader()) {
            // Only a process that receives the fold hears before it sends.
            int q = where.process_count(), p = where.my_process(), power = 1;
            while (power * 2 <= q) power *= 2;
            if (p < 2 * (q - power) && p % 2 == 1)
                add(where.leaders()[static_cast<std::size_t>(p - 1)], tag::kAllreduceFold);
        }
        break;
    }
    case Kind::gather: {
        // Aggregated or straight by block size (collectives/data.cpp); in both the root
        // first hears from the other members of its process.
        if (rank != root) break;
        TwoLevel where(comm, rank, root);
        children(where.local(), Tree::flat(size(where.local())), where.my_local(), tag::kGatherLocal);
        break;
    }
    case Kind::allgather: {
        TwoLevel where(comm, rank, -1);
        children(where.local(), Tree::flat(size(where.local())), where.my_local(),
                 tag::kAllgatherIn);  // then Bruck, which sends first
        break;
    }
    case Kind::alltoall:   // by block size either aggregated or straight (collectives/data.cpp):
                           // nothing is common to both but that they start by sending
    case Kind::alltoallv:
    case Kind::scan:
    case Kind::exscan:
        break;  // each starts by sending
    }
    return out;
}

}  // namespace bamboo::collectives
