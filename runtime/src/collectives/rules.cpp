// Collectives in firing rules: the messages a task's part of a collective receives before it
// first sends. Only those may be waited for at an evaluation point: a message that comes
// after one of the task's own sends may depend on it. This mirrors the algorithms of
// collectives/data.cpp and collectives/reduce.cpp step by step.
#include "collectives/algorithms.hpp"
#include "collectives/structure.hpp"

namespace bamboo::collectives {

namespace {

// The first receives of one task's part of one collective call, family by family.
class FirstReceives {
public:
    FirstReceives(const Communicator& comm, int rank, unsigned number) : comm_(comm), rank_(rank), number_(number) {}

    std::vector<Pattern> take() { return std::move(out_); }

    void barrier() {
        TwoLevel where(comm_, rank_, -1);
        children(where.local(), Tree::binomial(size(where.local())), where.my_local(),
                 tag::kBarrierIn);  // then a send, or the rounds
    }

    // A leader first hears from its parent between processes, the others within.
    void bcast_or_scatter(bool is_bcast, int root) {
        TwoLevel where(comm_, rank_, root);
        if (where.is_leader())
            parent(where.leaders(), Tree::binomial(where.process_count()), where.my_process(),
                   is_bcast ? tag::kBcastLeaders : tag::kScatterLeaders);
        else if (is_bcast)
            parent(where.local(), Tree::binomial(size(where.local())), where.my_local(), tag::kBcastLocal);
        else
            parent(where.local(), Tree::flat(size(where.local())), where.my_local(), tag::kScatterLocal);
    }

    void reduce(int root, bool commutative) {
        if (reduction_algorithm(commutative) == ReductionAlgorithm::rank_order) return rank_order_children();
        TwoLevel where(comm_, rank_, root);
        children(where.local(), Tree::binomial(size(where.local())), where.my_local(), tag::kReduceLocal);
        if (where.is_leader())
            children(where.leaders(), Tree::binomial(where.process_count()), where.my_process(),
                     tag::kReduceLeaders);
    }

    void allreduce(bool commutative) {
        if (reduction_algorithm(commutative) == ReductionAlgorithm::rank_order) return rank_order_children();
        TwoLevel where(comm_, rank_, -1);
        children(where.local(), Tree::binomial(size(where.local())), where.my_local(), tag::kAllreduceIn);
        if (!where.is_leader()) return;
        // Only a process that receives the fold hears before it sends.
        int q = where.process_count(), p = where.my_process(), power = 1;
        while (power * 2 <= q) power *= 2;
        if (p < 2 * (q - power) && p % 2 == 1)
            add(where.leaders()[static_cast<std::size_t>(p - 1)], tag::kAllreduceFold);
    }

    // Either gather algorithm (collectives/algorithms.hpp): in both the root first hears from the
    // other members of its process.
    void gather(int root) {
        if (rank_ != root) return;
        TwoLevel where(comm_, rank_, root);
        children(where.local(), Tree::flat(size(where.local())), where.my_local(), tag::kGatherLocal);
    }

    void allgather() {
        TwoLevel where(comm_, rank_, -1);
        children(where.local(), Tree::flat(size(where.local())), where.my_local(),
                 tag::kAllgatherIn);  // then Bruck, which sends first
    }

private:
    static int size(const std::vector<int>& ranks) { return static_cast<int>(ranks.size()); }

    void add(int source, int tag) {
        out_.push_back(Pattern{source, tag::numbered(tag, number_), comm_.collective_context()});
    }

    void children(const std::vector<int>& ranks, const Tree& tree, int me, int tag) {
        tree.children(me, [&](int child) { add(ranks[static_cast<std::size_t>(child)], tag); });
    }

    void parent(const std::vector<int>& ranks, const Tree& tree, int me, int tag) {
        if (me > 0) add(ranks[static_cast<std::size_t>(tree.parent(me))], tag);
    }

    // Rank-ordered reductions (operations that are not commutative) use all ranks as positions.
    void rank_order_children() {
        for_each_binomial_child(rank_, comm_.size(), [&](int child) { add(child, tag::kReduceOrdered); });
    }

    const Communicator& comm_;
    const int rank_;
    const unsigned number_;
    std::vector<Pattern> out_;
};

}  // namespace

std::vector<Pattern> first_receives(Kind kind, const Communicator& comm, int rank, int root,
                                    bool commutative, unsigned number) {
    FirstReceives first(comm, rank, number);
    switch (kind) {
    case Kind::barrier: first.barrier(); break;
    case Kind::bcast: first.bcast_or_scatter(true, root); break;
    case Kind::scatter: first.bcast_or_scatter(false, root); break;
    case Kind::reduce: first.reduce(root, commutative); break;
    case Kind::reduce_scatter: first.reduce(0, commutative); break;  // a reduction to rank 0, then a scatter
    case Kind::allreduce: first.allreduce(commutative); break;
    case Kind::gather: first.gather(root); break;
    case Kind::allgather: first.allgather(); break;
    case Kind::alltoall:   // either alltoall algorithm (collectives/algorithms.hpp): nothing
                           // is common to both but that they start by sending
    case Kind::alltoallv:
    case Kind::scan:
    case Kind::exscan:
        break;  // each starts by sending
    }
    return first.take();
}

}  // namespace bamboo::collectives
