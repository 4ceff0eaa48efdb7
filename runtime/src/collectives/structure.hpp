// The shape of Bamboo's collectives: binomial trees, and the two levels a collective crosses.
//
// Tasks of one process reach each other by a copy, tasks of two processes over the network.
// So a collective first combines within each process (level 1: the process's members, led by
// one of them, its leader), then runs the papers' algorithm between the leaders (level 2: one
// task per process), then hands the result back within each process. Data that must cross
// processes crosses once per process, not once per task.
//
// Each message of a collective has a tag of its own step, so that no two messages of one
// collective between the same two tasks can be confused, whatever order they arrive in.
#pragma once

#include <algorithm>
#include <vector>

#include "communicators/communicator.hpp"

namespace bamboo {

namespace tag {
constexpr int kBarrierIn = 0x100, kBarrierOut = 0x101, kBarrierRound = 0x110;
constexpr int kBcastLeaders = 0x200, kBcastLocal = 0x201;
constexpr int kReduceLocal = 0x300, kReduceLeaders = 0x301, kReduceOrdered = 0x302,
              kReduceToRoot = 0x303;
constexpr int kAllreduceIn = 0x400, kAllreduceOut = 0x401, kAllreduceFold = 0x402,
              kAllreduceUnfold = 0x403, kAllreduceRound = 0x410;
constexpr int kGatherLocal = 0x500, kGatherLeaders = 0x501, kGatherStraight = 0x502;
constexpr int kScatterLeaders = 0x600, kScatterLocal = 0x601;
constexpr int kAllgatherIn = 0x700, kAllgatherOut = 0x701, kAllgatherRound = 0x710;
constexpr int kAlltoallIn = 0x800, kAlltoallOut = 0x801, kAlltoallRound = 0x810;
constexpr int kAlltoallv = 0x900;
constexpr int kScanRound = 0xa10, kExscanRound = 0xb10;
constexpr int kInterLeaders = 0xc00;  // between the two leaders of an intercommunicator
constexpr int kNeighbor = 0xd00, kNeighborBlocks = 0x300;  // + the receive block, on a Cartesian grid

// Every tag above is below 2^12. A collective call's messages add the call's number on its
// communicator (Rank::take_collective_number) above those bits, so that collectives in
// progress at the same time (nonblocking ones) never take each other's messages.
constexpr int kNumberShift = 12;
constexpr unsigned kNumberMask = (1u << 18) - 1;  // tags stay positive ints
inline int numbered(int step_tag, unsigned number) {
    return step_tag + static_cast<int>((number & kNumberMask) << kNumberShift);
}
// Numbered tags stay below this; collectives that take no number (MPI_Comm_create_group)
// offset their step tags from here.
constexpr int kUnnumberedBase = 1 << 30;
}  // namespace tag

// Binomial trees over positions 0..n-1 rooted at 0: position i > 0 hangs below i minus its
// lowest set bit, and its subtree is [i, i + lowest bit) (cut at n). Children in ascending
// order hold ascending, adjacent ranges of positions.
inline int lowest_bit(int i) { return i & -i; }
inline int binomial_parent(int i) { return i - lowest_bit(i); }
inline int binomial_end(int i, int n) { return i == 0 ? n : std::min(n, i + lowest_bit(i)); }

template <class Visit>
void for_each_binomial_child(int i, int n, Visit visit) {
    int end = binomial_end(i, n);
    for (int step = 1; i + step < end; step <<= 1) visit(i + step);
}

// The same, largest subtree first: what a broadcast sends first reaches the most tasks.
template <class Visit>
void for_each_binomial_child_descending(int i, int n, Visit visit) {
    int end = binomial_end(i, n);
    if (i + 1 >= end) return;
    int step = 1;
    while (i + (step << 1) < end) step <<= 1;
    for (; step >= 1; step >>= 1) visit(i + step);
}

// A tree over positions 0..n-1 rooted at 0. Children of a position hold adjacent ranges of
// positions above it, in ascending order, so a gather that appends their data keeps
// position order. Within a process data-moving collectives use the flat tree (each block is
// copied once, by its sender, straight into place); combining and broadcasting use the
// binomial tree, which spreads the work over the process's workers.
class Tree {
public:
    enum class Shape { binomial, flat };

    Tree(Shape shape, int n) : shape_(shape), n_(n) {}
    static Tree flat(int n) { return Tree(Shape::flat, n); }
    static Tree binomial(int n) { return Tree(Shape::binomial, n); }

    int parent(int i) const { return shape_ == Shape::flat ? 0 : binomial_parent(i); }
    // One past the last position of the subtree rooted at i.
    int end(int i) const {
        if (shape_ == Shape::binomial) return binomial_end(i, n_);
        return i == 0 ? n_ : i + 1;
    }

    template <class Visit>
    void children(int i, Visit visit) const {
        if (shape_ == Shape::binomial) return for_each_binomial_child(i, n_, visit);
        if (i == 0)
            for (int c = 1; c < n_; ++c) visit(c);
    }
    // Largest subtree first, which a broadcast wants to reach first.
    template <class Visit>
    void children_descending(int i, Visit visit) const {
        if (shape_ == Shape::binomial) return for_each_binomial_child_descending(i, n_, visit);
        children(i, visit);
    }

private:
    Shape shape_;
    int n_;
};

// Where one task stands in a collective's two levels. Processes are numbered from the root's
// (position 0) in the communicator's order; within a process the leader comes first (the root
// in its own process, else the lowest rank), then the others in ascending rank order.
class TwoLevel {
public:
    // `root` -1: a collective without root.
    TwoLevel(const Communicator& comm, int rank, int root);

    int process_count() const { return static_cast<int>(leaders_.size()); }
    int my_process() const { return my_process_; }
    bool is_leader() const { return my_local_ == 0; }
    // The leader (a communicator rank) of each process, by position.
    const std::vector<int>& leaders() const { return leaders_; }
    // This task's process: its members, leader first, and this task's position among them.
    const std::vector<int>& local() const { return local_; }
    int my_local() const { return my_local_; }

    // The members of the process at position `p`, leader first.
    std::vector<int> members(int p) const;

private:
    int absolute(int p) const { return (p + root_process_) % process_count(); }

    const Communicator& comm_;
    int root_process_ = 0;
    int my_process_ = 0;
    std::vector<int> leaders_;
    std::vector<int> local_;
    int my_local_ = 0;
};

}  // namespace bamboo
