// The trace's recorder and the making of a job's trace from its records (trace/recorder.hpp,
// trace/gather.hpp), in one MPI process: bounded buffers per thread; spans from begin/end
// records, left open ones closed; sends matched with arrivals stream by stream, in order;
// a full buffer cutting the trace for everyone.
#include "trace/gather.hpp"

#include <mpi.h>

#include <gtest/gtest.h>

#include <chrono>
#include <map>
#include <thread>

namespace bamboo::trace {
namespace {

using Clock = std::chrono::steady_clock;

const ProcessFacts kOneProcess{/*process=*/0, /*workers=*/2, /*vf=*/3};

std::string name_comm(int vrank, int context) {
    return "comm " + std::to_string(context) + " of vrank " + std::to_string(vrank);
}

JobTrace gather(std::size_t events_per_thread, const std::function<void()>& record) {
    enable(events_per_thread);
    take_buffers();  // what an earlier test left
    record();
    std::optional<JobTrace> job = gather_job(take_buffers(), kOneProcess, name_comm, MPI_COMM_SELF);
    EXPECT_TRUE(job);
    return job ? *job : JobTrace{};
}

std::vector<Span> spans_of(const JobTrace& job, SpanKind kind) {
    std::vector<Span> found;
    for (const Span& s : job.spans)
        if (s.kind == kind) found.push_back(s);
    return found;
}

TEST(TraceTest, EachThreadRecordsIntoItsOwnBoundedBuffer) {
    enable(4);
    take_buffers();
    for (int i = 0; i < 6; ++i) idle_began(0);
    std::thread other([] { idle_began(1); });
    other.join();
    std::vector<Buffer> buffers = take_buffers();
    ASSERT_EQ(buffers.size(), 2u);
    EXPECT_EQ(buffers[0].events.size() + buffers[1].events.size(), 5u);
    EXPECT_GE(buffers[0].full_at, 0);  // refused two records
    EXPECT_EQ(buffers[1].full_at, -1);
}

TEST(TraceTest, SpansPairBeginsWithEndsPerWorkerAndPerTaskAndCloseWhatIsLeftOpen) {
    JobTrace job = gather(100, [] {
        worker_started(0);
        task_began(0, 1, Clock::now());
        wait_began(2, WaitKind::receive, 1, 7, 4, "MPI_Recv", "a message from vrank 1, tag 7");
        task_ended(0, 1, Clock::now());
        idle_began(1);
        idle_ended(1);
        task_began(1, 2, Clock::now());  // never ends: closed at the last record
        wait_ended(2);
        worker_stopped(0);
    });
    ASSERT_EQ(spans_of(job, SpanKind::task).size(), 2u);
    Span first = spans_of(job, SpanKind::task)[0];
    EXPECT_EQ(first.lane, (Lane{0, LaneKind::worker, 0}));
    EXPECT_EQ(first.vrank, 1);
    EXPECT_LE(first.begin, first.end);
    Span open = spans_of(job, SpanKind::task)[1];
    EXPECT_EQ(open.lane, (Lane{0, LaneKind::worker, 1}));
    EXPECT_EQ(open.end, job.processes[0].run_end);
    std::vector<Span> waits = spans_of(job, SpanKind::wait);
    ASSERT_EQ(waits.size(), 1u);
    EXPECT_EQ(waits[0].lane, (Lane{0, LaneKind::task, 2}));
    EXPECT_EQ(waits[0].call, "MPI_Recv");
    EXPECT_EQ(waits[0].what, "a message from vrank 1, tag 7");
    EXPECT_EQ(waits[0].peer, 1);
    EXPECT_EQ(waits[0].tag, 7);
    EXPECT_EQ(waits[0].comm, "comm 4 of vrank 2");
    EXPECT_EQ(spans_of(job, SpanKind::idle).size(), 1u);
    EXPECT_EQ(job.processes[0].run_begin, 0);  // times start at the job's first record
}

TEST(TraceTest, AWaitEndsWhenTheTaskIsMadeRunnableNotWhenItRunsAgain) {
    JobTrace job = gather(100, [] {
        wait_began(2, WaitKind::receive, 1, 7, 4, "MPI_Recv", "a message");
        woken(2);
        std::this_thread::sleep_for(std::chrono::milliseconds(1));  // ready, not yet running
        task_began(0, 2, Clock::now());
        wait_ended(2);
        task_ended(0, 2, Clock::now());
    });
    std::vector<Span> waits = spans_of(job, SpanKind::wait);
    std::vector<Span> runs = spans_of(job, SpanKind::task);
    ASSERT_EQ(waits.size(), 1u);
    ASSERT_EQ(runs.size(), 1u);
    EXPECT_GE(runs[0].begin - waits[0].end, 1000000);  // the millisecond it was ready
}

TEST(TraceTest, SendsMatchArrivalsInOrderWithinEachStream) {
    JobTrace job = gather(100, [] {
        sent(0, 0, 1, /*source=*/0, /*tag=*/5, /*comm=*/4, 10);
        sent(0, 0, 1, 0, 6, 4, 20);  // another tag: another stream, arriving first
        sent(1, 2, 1, 2, 5, 4, 30);  // another sender
        sent(0, 0, 1, 0, 5, 4, 40);
        // Arrivals apart in time, so that which arrival a send got shows.
        auto pause = [] { std::this_thread::sleep_for(std::chrono::microseconds(5)); };
        arrived(1, 0, 6, 4, 20);
        pause();
        arrived(1, 0, 5, 4, 10);
        pause();
        arrived(1, 2, 5, 4, 30);
        pause();
        arrived(1, 0, 5, 4, 40);
        sent(0, 0, 2, 0, 5, 4, 50);  // never arrives: no flow
    });
    ASSERT_EQ(job.messages.size(), 4u);
    std::vector<std::uint64_t> bytes;
    std::map<std::uint64_t, std::int64_t> arrival_of;  // by the bytes each send sent
    for (const Message& m : job.messages) {
        EXPECT_LE(m.sent, m.arrived);
        EXPECT_FALSE(m.remote());
        EXPECT_EQ(m.arrived_on, (Lane{0, LaneKind::task, 1}));
        bytes.push_back(m.bytes);
        arrival_of[m.bytes] = m.arrived;
    }
    EXPECT_EQ(bytes, (std::vector<std::uint64_t>{10, 20, 30, 40}));  // by send time
    EXPECT_LT(arrival_of[20], arrival_of[10]);
    EXPECT_LT(arrival_of[10], arrival_of[30]);
    EXPECT_LT(arrival_of[30], arrival_of[40]);
    EXPECT_EQ(job.messages[2].sent_on, (Lane{0, LaneKind::worker, 1}));
    EXPECT_EQ(job.messages[0].comm, "comm 4 of vrank 0");
}

TEST(TraceTest, AFullBufferEndsTheWholeTraceWhereItFilled) {
    JobTrace job = gather(3, [] {
        task_began(0, 0, Clock::now());
        sent(0, 0, 1, 0, 5, 4, 8);
        task_ended(0, 0, Clock::now());
        arrived(1, 0, 5, 4, 8);  // refused: the buffer is full
        std::thread other([] {
            task_began(1, 1, Clock::now());
            task_ended(1, 1, Clock::now());
        });
        other.join();
    });
    ASSERT_TRUE(job.truncated_at);
    EXPECT_TRUE(job.messages.empty());
    for (const Span& s : job.spans) EXPECT_LE(s.end, *job.truncated_at);
    EXPECT_EQ(spans_of(job, SpanKind::task).size(), 1u);  // the other thread's came after the cut
}

}  // namespace
}  // namespace bamboo::trace
