// collectives/rules.cpp says, for each collective, which messages a rank's part of it
// receives before it first sends: what a firing rule may wait for. These tests hold it to
// the algorithms themselves. The ranks of a communicator run their parts of a collective as
// tasks of one worker, each on a channel that records what its rank waited for before it
// first sent; the rule must name exactly the receives common to every way the algorithm may
// run for what the rule is told (the kind, the communicator, the rank, the root and whether
// the operation commutes), e.g. MPI_Gather's small and large blocks, or MPI_Gatherv.
#include "collectives/algorithms.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <functional>
#include <iterator>
#include <memory>
#include <numeric>
#include <string>
#include <vector>

#include "collectives/channel.hpp"
#include "collectives/reduction.hpp"
#include "core/task_stacks.hpp"
#include "core/worker.hpp"
#include "messaging/routes.hpp"

namespace bamboo {
namespace {

using collectives::Blocks;
using collectives::Kind;
using Part = std::function<void(CollectiveChannel&)>;  // a rank's part of a collective
using Receives = std::vector<std::string>;             // sorted: "from 3, tag 0x100"

Receives described(const std::vector<Pattern>& patterns) {
    Receives out;
    for (const Pattern& p : patterns) {
        char text[64];
        std::snprintf(text, sizeof text, "from %d, tag %#x", p.source, p.tag);
        out.push_back(text);
    }
    std::sort(out.begin(), out.end());
    return out;
}

// The run in progress: a rank's entry is a plain function.
struct Run {
    const Communicator* comm;
    const Part* part;
    std::vector<FirstReceives>* records;
};
const Run* running = nullptr;

int run_part(int, char**) {
    Rank& self = *Rank::current();
    const std::vector<int>& vranks = running->comm->vranks();
    int rank = static_cast<int>(std::find(vranks.begin(), vranks.end(), self.vrank()) - vranks.begin());
    CollectiveChannel ch(self, CommView{running->comm, rank}, "the test", bamboo_site{nullptr, 0},
                         &(*running->records)[static_cast<std::size_t>(rank)]);
    (*running->part)(ch);
    return 0;
}

// Each rank's first receives in a run of `part` by every rank of `comm`, whose vranks are
// 0..size-1, all in this process.
std::vector<Receives> record(const Communicator& comm, const Part& part) {
    int n = comm.size();
    Scheduler scheduler(QueueKind::private_queues, kNeverBind);
    Worker worker(0, scheduler, WorkerDuties{});
    scheduler.add_worker(worker);
    TaskStacks stacks(static_cast<std::size_t>(n), 256u << 10);
    Routes routes;  // destroyed first: ranks before their stacks and worker
    routes.vf = n;
    routes.budget = std::make_unique<BufferBudget>(std::size_t{64} << 20, 1, 0);
    std::vector<int> vranks(static_cast<std::size_t>(n));
    std::iota(vranks.begin(), vranks.end(), 0);
    routes.world = std::make_shared<Communicator>(kWorldContext, vranks, n, "MPI_COMM_WORLD");
    for (int v = 0; v < n; ++v) {
        routes.ranks.push_back(std::make_unique<Rank>(v, worker, stacks.stack(static_cast<std::size_t>(v)), nullptr,
                                                      &run_part, std::vector<std::string>{}, routes));
        scheduler.start(*routes.ranks.back(), worker);
    }
    std::vector<FirstReceives> records(static_cast<std::size_t>(n));
    Run run{&comm, &part, &records};
    running = &run;
    worker.run();
    running = nullptr;
    std::vector<Receives> out;
    for (const FirstReceives& r : records) out.push_back(described(r.patterns));
    return out;
}

// `bytes(rank)` bytes per rank, back to back.
Blocks blocks(std::vector<char>& storage, int n, const std::function<std::size_t(int)>& bytes) {
    Blocks out;
    std::size_t total = 0;
    for (int r = 0; r < n; ++r) {
        out.offset.push_back(total);
        out.size.push_back(bytes(r));
        total += bytes(r);
    }
    storage.assign(total, 0);
    out.base = storage.data();
    return out;
}

// Reductions run with zero elements: the algorithms' messages are the same, and no
// arithmetic needs the MPI library.
Reduction reduction(bool commutative) { return Reduction{MPI_SUM, MPI_INT, 0, commutative}; }
const TypeLayout kIntLayout{sizeof(int), 0, sizeof(int), sizeof(int), true};

void gather_part(CollectiveChannel& ch, int root, const std::function<std::size_t(int)>& bytes, bool sizes_known) {
    int n = ch.size();
    std::vector<char> mine(bytes(ch.rank())), storage;
    Blocks out = blocks(storage, n, bytes);
    std::vector<std::size_t> sizes = out.size;
    collectives::gather(ch, root, mine.data(), mine.size(), sizes_known ? &sizes : nullptr,
                        ch.rank() == root ? &out : nullptr);
}

void scatter_part(CollectiveChannel& ch, int root, const std::function<std::size_t(int)>& bytes, bool sizes_known) {
    int n = ch.size();
    std::vector<char> mine(bytes(ch.rank())), storage;
    Blocks in = blocks(storage, n, bytes);
    std::vector<std::size_t> sizes = in.size;
    collectives::scatter(ch, root, ch.rank() == root ? &in : nullptr, sizes_known ? &sizes : nullptr, mine.data(),
                         mine.size());
}

void allgather_part(CollectiveChannel& ch, const std::function<std::size_t(int)>& bytes) {
    std::vector<char> storage;
    Blocks out = blocks(storage, ch.size(), bytes);
    std::vector<char> mine(bytes(ch.rank()));
    collectives::allgather(ch, mine.data(), out);
}

void alltoall_part(CollectiveChannel& ch, std::size_t block) {
    std::size_t n = static_cast<std::size_t>(ch.size());
    std::vector<char> send(n * block), recv(n * block);
    collectives::alltoall(ch, send.data(), recv.data(), block);
}

std::size_t small(int) { return 8; }
std::size_t large(int) { return 8192; }  // gathered straight to the root (collectives/data.cpp)
std::size_t varied(int rank) { return 4 + static_cast<std::size_t>(rank); }

// Every way `kind` may run for the same rule: a rank's part in each.
std::vector<Part> ways_to_run(Kind kind, int root, bool commutative) {
    switch (kind) {
    case Kind::barrier: return {[](CollectiveChannel& ch) { collectives::barrier(ch); }};
    case Kind::bcast:
        return {[root](CollectiveChannel& ch) {
            char data[16] = {};
            collectives::bcast(ch, root, data, sizeof data);
        }};
    case Kind::reduce:
        return {[root, commutative](CollectiveChannel& ch) {
            Reduction r = reduction(commutative);
            Operand acc = r.operand(kIntLayout);
            collectives::reduce(ch, root, acc, r);
        }};
    case Kind::allreduce:
        return {[commutative](CollectiveChannel& ch) {
            Reduction r = reduction(commutative);
            Operand acc = r.operand(kIntLayout);
            collectives::allreduce(ch, acc, r);
        }};
    case Kind::gather:  // MPI_Gather with small and large blocks, MPI_Gatherv
        return {[root](CollectiveChannel& ch) { gather_part(ch, root, small, true); },
                [root](CollectiveChannel& ch) { gather_part(ch, root, large, true); },
                [root](CollectiveChannel& ch) { gather_part(ch, root, varied, false); }};
    case Kind::scatter:  // MPI_Scatter, MPI_Scatterv
        return {[root](CollectiveChannel& ch) { scatter_part(ch, root, small, true); },
                [root](CollectiveChannel& ch) { scatter_part(ch, root, varied, false); }};
    case Kind::allgather:  // MPI_Allgather, MPI_Allgatherv
        return {[](CollectiveChannel& ch) { allgather_part(ch, small); },
                [](CollectiveChannel& ch) { allgather_part(ch, varied); }};
    case Kind::alltoall:  // blocks aggregated within processes, and straight
        return {[](CollectiveChannel& ch) { alltoall_part(ch, 8); },
                [](CollectiveChannel& ch) { alltoall_part(ch, 2048); }};
    case Kind::alltoallv:
        return {[](CollectiveChannel& ch) {
            // The block between ranks a and b has 4 + a + b bytes, either way.
            auto bytes = [me = ch.rank()](int other) { return static_cast<std::size_t>(4 + me + other); };
            std::vector<char> send_storage, recv_storage;
            Blocks send = blocks(send_storage, ch.size(), bytes);
            Blocks recv = blocks(recv_storage, ch.size(), bytes);
            collectives::alltoallv(ch, send, recv);
        }};
    case Kind::reduce_scatter:  // a reduction to rank 0, which scatters (mpi/collectives.cpp)
        return {[commutative](CollectiveChannel& ch) {
            Reduction r = reduction(commutative);
            Operand acc = r.operand(kIntLayout);
            collectives::reduce(ch, 0, acc, r);
            std::vector<char> storage;
            Blocks result = blocks(storage, ch.size(), [](int) { return std::size_t{0}; });
            collectives::scatter(ch, 0, ch.rank() == 0 ? &result : nullptr, &result.size, nullptr, 0);
        }};
    case Kind::scan:
    case Kind::exscan:
        return {[kind, commutative](CollectiveChannel& ch) {
            Reduction r = reduction(commutative);
            Operand acc = r.operand(kIntLayout);
            if (kind == Kind::scan) collectives::scan(ch, acc, r);
            else collectives::exscan(ch, acc, r);
        }};
    }
    return {};
}

Receives common(const Receives& a, const Receives& b) {
    Receives out;
    std::set_intersection(a.begin(), a.end(), b.begin(), b.end(), std::back_inserter(out));
    return out;
}

std::string joined(const Receives& receives) {
    std::string out = "{";
    for (const std::string& r : receives) out += (out.size() > 1 ? "; " : "") + r;
    return out + "}";
}

// Members in three orders, so that processes (grouped by vrank) interleave in rank order.
std::vector<std::pair<std::string, std::vector<int>>> orders(int n) {
    std::vector<int> ascending(static_cast<std::size_t>(n)), descending, strided;
    std::iota(ascending.begin(), ascending.end(), 0);
    descending.assign(ascending.rbegin(), ascending.rend());
    for (int start = 0; start < 3; ++start)
        for (int v = start; v < n; v += 3) strided.push_back(v);
    return {{"ascending", ascending}, {"descending", descending}, {"every third", strided}};
}

struct Collective {
    Kind kind;
    const char* name;
};

class FirstReceivesRule : public ::testing::TestWithParam<Collective> {};

TEST_P(FirstReceivesRule, NamesWhatEveryRunReceivesBeforeItFirstSends) {
    const Kind kind = GetParam().kind;
    const bool rooted = kind == Kind::bcast || kind == Kind::reduce || kind == Kind::gather || kind == Kind::scatter;
    const bool reduces = kind == Kind::reduce || kind == Kind::allreduce || kind == Kind::reduce_scatter ||
                         kind == Kind::scan || kind == Kind::exscan;
    for (int n = 1; n <= 8; ++n) {
        for (int per_process : {1, 2, 3, 8}) {
            for (const auto& [order_name, vranks] : orders(n)) {
                Communicator comm(kFirstFreeContext, vranks, per_process, "the test's communicator");
                std::vector<int> roots = rooted ? std::vector<int>{0, n / 2, n - 1} : std::vector<int>{0};
                roots.erase(std::unique(roots.begin(), roots.end()), roots.end());
                for (int root : roots) {
                    for (bool commutative : reduces ? std::vector<bool>{true, false} : std::vector<bool>{true}) {
                        std::vector<Receives> expected;
                        for (const Part& part : ways_to_run(kind, root, commutative)) {
                            std::vector<Receives> recorded = record(comm, part);
                            if (expected.empty()) expected = recorded;
                            for (int r = 0; r < n; ++r)
                                expected[static_cast<std::size_t>(r)] =
                                    common(expected[static_cast<std::size_t>(r)], recorded[static_cast<std::size_t>(r)]);
                        }
                        for (int r = 0; r < n; ++r) {
                            Receives rule = described(collectives::first_receives(kind, comm, r, root, commutative, /*number=*/0));
                            ASSERT_EQ(joined(rule), joined(expected[static_cast<std::size_t>(r)]))
                                << GetParam().name << " on " << n << " ranks, " << per_process
                                << " per process, in " << order_name << " order, root " << root
                                << (commutative ? "" : ", not commutative") << ": rank " << r;
                        }
                    }
                }
            }
        }
    }
}

INSTANTIATE_TEST_SUITE_P(
    Collectives, FirstReceivesRule,
    ::testing::Values(Collective{Kind::barrier, "barrier"}, Collective{Kind::bcast, "bcast"},
                      Collective{Kind::reduce, "reduce"}, Collective{Kind::allreduce, "allreduce"},
                      Collective{Kind::gather, "gather"}, Collective{Kind::scatter, "scatter"},
                      Collective{Kind::allgather, "allgather"}, Collective{Kind::alltoall, "alltoall"},
                      Collective{Kind::alltoallv, "alltoallv"}, Collective{Kind::reduce_scatter, "reduce_scatter"},
                      Collective{Kind::scan, "scan"}, Collective{Kind::exscan, "exscan"}),
    [](const ::testing::TestParamInfo<Collective>& info) { return std::string(info.param.name); });

}  // namespace
}  // namespace bamboo
