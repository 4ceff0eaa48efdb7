#include "process/startup.hpp"

#include <mpi.h>

#include <gtest/gtest.h>

namespace bamboo {
namespace {

Machine machine(int online_cpus, int usable_cpus, int processes_on_node,
                std::size_t memory_bytes = std::size_t{16} << 30) {
    Machine m;
    m.online_cpus = online_cpus;
    m.usable_cpus = usable_cpus;
    m.processes_on_node = processes_on_node;
    m.memory_bytes = memory_bytes;
    return m;
}

Options with_comm_thread(CommThread comm_thread) {
    Options options;
    options.comm_thread = comm_thread;
    return options;
}

TEST(Threading, ThreadMultipleRunsThreadsWithoutTheMpiLock) {
    Threading t = choose_threading(Options{}, MPI_THREAD_MULTIPLE);
    EXPECT_FALSE(t.single_thread);
    EXPECT_FALSE(t.mpi_serialized);
    EXPECT_FALSE(t.fallback);
}

TEST(Threading, ThreadSerializedRunsThreadsThatTakeTheMpiLock) {
    Threading t = choose_threading(Options{}, MPI_THREAD_SERIALIZED);
    EXPECT_FALSE(t.single_thread);
    EXPECT_TRUE(t.mpi_serialized);
}

TEST(Threading, LessThanSerializedFallsBackToOneThread) {
    for (int provided : {MPI_THREAD_SINGLE, MPI_THREAD_FUNNELED}) {
        Threading t = choose_threading(Options{}, provided);
        EXPECT_TRUE(t.single_thread);
        EXPECT_TRUE(t.fallback);
        EXPECT_FALSE(t.mpi_serialized);  // one thread needs no lock
    }
}

TEST(Threading, AskedForOneThreadIsNoFallback) {
    Options options;
    options.single_thread = true;
    for (int provided : {MPI_THREAD_SINGLE, MPI_THREAD_SERIALIZED, MPI_THREAD_MULTIPLE}) {
        Threading t = choose_threading(options, provided);
        EXPECT_TRUE(t.single_thread);
        EXPECT_FALSE(t.fallback);
        EXPECT_FALSE(t.mpi_serialized);
    }
}

TEST(WorkersWanted, TheNodesCoresSharedByItsProcesses) {
    EXPECT_EQ(workers_wanted(Options{}, false, machine(8, 8, 2)), 4);
    EXPECT_EQ(workers_wanted(Options{}, false, machine(8, 8, 1)), 8);
    EXPECT_EQ(workers_wanted(Options{}, false, machine(6, 6, 4)), 1);  // 1.5 cores each
}

TEST(WorkersWanted, AtMostTheCpusTheProcessMayUse) {
    EXPECT_EQ(workers_wanted(Options{}, false, machine(8, 1, 2)), 1);  // bound to one core
    EXPECT_EQ(workers_wanted(Options{}, false, machine(16, 3, 1)), 3);
}

TEST(WorkersWanted, AtLeastOne) { EXPECT_EQ(workers_wanted(Options{}, false, machine(2, 2, 8)), 1); }

TEST(WorkersWanted, TheOptionWinsAndOneThreadMeansOneWorker) {
    Options options;
    options.workers = 5;
    EXPECT_EQ(workers_wanted(options, false, machine(2, 1, 2)), 5);
    EXPECT_EQ(workers_wanted(options, true, machine(2, 1, 2)), 1);
    EXPECT_EQ(workers_wanted(Options{}, true, machine(64, 64, 1)), 1);
}

TEST(BufferLimit, AutoIs256MWhereMemoryIsPlenty) {
    EXPECT_EQ(buffer_limit(Options{}, machine(8, 8, 4, std::size_t{64} << 30)), std::size_t{256} << 20);
}

TEST(BufferLimit, AutoIsAQuarterOfTheNodesMemorySharedByItsProcesses) {
    // 2 GiB / 4 / 4 processes
    EXPECT_EQ(buffer_limit(Options{}, machine(8, 8, 4, std::size_t{2} << 30)), std::size_t{128} << 20);
}

TEST(BufferLimit, AutoIsAtLeast1M) {
    EXPECT_EQ(buffer_limit(Options{}, machine(8, 8, 64, std::size_t{64} << 20)), std::size_t{1} << 20);
}

TEST(BufferLimit, TheOptionWins) {
    Options options;
    options.buffer_limit = 12345;
    EXPECT_EQ(buffer_limit(options, machine(8, 8, 1)), 12345u);
}

TEST(ThreadPlan, NoMoreWorkersThanTasks) {
    EXPECT_EQ(plan_threads(Options{}, false, 8, 3, 1, false, machine(8, 8, 1)).workers, 3);
    EXPECT_EQ(plan_threads(Options{}, false, 2, 16, 1, false, machine(8, 8, 1)).workers, 2);
}

TEST(ThreadPlan, AutoGivesTheEngineASpareCpu) {
    ThreadPlan plan = plan_threads(Options{}, false, 3, 8, 2, false, machine(4, 4, 1));
    EXPECT_TRUE(plan.comm_thread);
    EXPECT_FALSE(plan.shares_core);
    // Idle workers still poll, so that a message does not wait for a thread switch; the
    // engine's thread runs the watch.
    EXPECT_TRUE(plan.idle_polls_engine);
    EXPECT_FALSE(plan.idle_runs_watch);
    EXPECT_FALSE(plan.spins_while_in_transit);
    EXPECT_FALSE(plan.polls_between_tasks);
    EXPECT_FALSE(plan.naps);
    EXPECT_FALSE(plan.never_sleeps);
}

TEST(ThreadPlan, AutoWithoutASpareCpuLeavesTheEngineToTheWorkersOverSharedMemory) {
    ThreadPlan plan = plan_threads(Options{}, false, 1, 4, 2, false, machine(2, 1, 2));
    EXPECT_FALSE(plan.comm_thread);
    EXPECT_FALSE(plan.shares_core);
    EXPECT_TRUE(plan.idle_polls_engine);
    EXPECT_TRUE(plan.idle_runs_watch);
    EXPECT_TRUE(plan.spins_while_in_transit);
    EXPECT_TRUE(plan.polls_between_tasks);
    EXPECT_TRUE(plan.naps);
    EXPECT_FALSE(plan.never_sleeps);
}

// Unbound (--bind-to none), each of two processes may run on both cores, but the other
// process's worker runs there too: no core is spare, and a thread of the engine's own would
// make four busy threads on two cores.
TEST(ThreadPlan, AutoCountsTheCoresOtherProcessesOfTheNodeUse) {
    ThreadPlan plan = plan_threads(Options{}, false, 1, 4, 2, false, machine(2, 2, 2));
    EXPECT_FALSE(plan.comm_thread);
    EXPECT_TRUE(plan_threads(with_comm_thread(CommThread::on), false, 1, 4, 2, false, machine(2, 2, 2)).shares_core);
    EXPECT_TRUE(plan_threads(Options{}, false, 1, 4, 2, false, machine(4, 4, 2)).comm_thread);
}

TEST(ThreadPlan, AutoGivesTheEngineAThreadOverANetworkEvenOnASharedCore) {
    ThreadPlan plan = plan_threads(Options{}, false, 1, 4, 2, true, machine(2, 1, 2));
    EXPECT_TRUE(plan.comm_thread);
    EXPECT_TRUE(plan.shares_core);
}

TEST(ThreadPlan, TheOptionWins) {
    ThreadPlan on = plan_threads(with_comm_thread(CommThread::on), false, 2, 4, 2, false, machine(2, 2, 1));
    EXPECT_TRUE(on.comm_thread);
    EXPECT_TRUE(on.shares_core);
    ThreadPlan off = plan_threads(with_comm_thread(CommThread::off), false, 2, 4, 2, true, machine(8, 8, 1));
    EXPECT_FALSE(off.comm_thread);
    EXPECT_FALSE(off.shares_core);
    EXPECT_TRUE(off.idle_runs_watch);
}

TEST(ThreadPlan, OneThreadHasNoEngineThreadAndNeverSleeps) {
    ThreadPlan plan = plan_threads(with_comm_thread(CommThread::on), true, 1, 8, 2, true, machine(8, 8, 1));
    EXPECT_EQ(plan.workers, 1);
    EXPECT_FALSE(plan.comm_thread);
    EXPECT_TRUE(plan.idle_polls_engine);
    EXPECT_TRUE(plan.idle_runs_watch);
    EXPECT_TRUE(plan.polls_between_tasks);
    EXPECT_TRUE(plan.naps);
    EXPECT_TRUE(plan.never_sleeps);
    EXPECT_TRUE(plan.corks_send_blocks);
}

// Only where one thread runs every task and sends for them all, with other processes to send to.
TEST(ThreadPlan, OnlyOneThreadCorksSendBlocks) {
    EXPECT_FALSE(plan_threads(Options{}, false, 1, 8, 2, true, machine(8, 8, 1)).corks_send_blocks);
    EXPECT_FALSE(plan_threads(with_comm_thread(CommThread::off), false, 1, 8, 2, true, machine(8, 8, 1)).corks_send_blocks);
    EXPECT_FALSE(plan_threads(Options{}, true, 1, 8, 1, false, machine(8, 8, 1)).corks_send_blocks);
}

// Under SimGrid SMPI the one worker blocks in MPI when idle and polls nowhere else: SimGrid
// 3.32 never forgets a request a test completed, and every later wait walks the list of them.
TEST(ThreadPlan, OneThreadUnderASimulatedMpiWaitsInsteadOfPolling) {
    Machine simulated = machine(8, 8, 1);
    simulated.mpi_simulated = true;
    ThreadPlan plan = plan_threads(Options{}, true, 1, 8, 2, true, simulated);
    EXPECT_TRUE(plan.blocks_when_idle);
    EXPECT_FALSE(plan.idle_polls_engine);
    EXPECT_FALSE(plan.idle_runs_watch);
    EXPECT_FALSE(plan.polls_between_tasks);
}

TEST(ThreadPlan, ASingleProcessHasNoEngineToPoll) {
    ThreadPlan threaded = plan_threads(Options{}, false, 2, 4, 1, false, machine(4, 4, 1));
    EXPECT_TRUE(threaded.comm_thread);
    EXPECT_FALSE(threaded.idle_polls_engine);
    EXPECT_FALSE(threaded.idle_runs_watch);
    ThreadPlan alone = plan_threads(Options{}, true, 1, 4, 1, false, machine(4, 4, 1));
    EXPECT_FALSE(alone.idle_polls_engine);
    EXPECT_TRUE(alone.idle_runs_watch);  // the only thread to run the watch
    EXPECT_FALSE(alone.spins_while_in_transit);
    EXPECT_FALSE(alone.polls_between_tasks);
}

TEST(ThreadPlan, SharesACoreWhenWorkersAndEngineOutnumberTheCpus) {
    EXPECT_TRUE(plan_threads(with_comm_thread(CommThread::on), false, 2, 4, 2, false, machine(2, 2, 1)).shares_core);
    EXPECT_FALSE(plan_threads(with_comm_thread(CommThread::on), false, 2, 4, 2, false, machine(3, 3, 1)).shares_core);
    EXPECT_TRUE(plan_threads(with_comm_thread(CommThread::off), false, 3, 4, 2, false, machine(2, 2, 1)).shares_core);
}

}  // namespace
}  // namespace bamboo
