// The trace's recorder and the making of a job's trace from its records (trace/recorder.hpp,
// trace/part_file.hpp, trace/merge.hpp), in one process: bounded buffers per thread; a part
// written and read back; spans from begin/end records, left open ones closed; sends matched
// with arrivals stream by stream, in order; a full buffer cutting the trace for everyone.
#include "trace/merge.hpp"

#include <gtest/gtest.h>

#include <signal.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <limits>
#include <map>
#include <thread>

namespace bamboo::trace {
namespace {

using Clock = std::chrono::steady_clock;

const ProcessFacts kOneProcess{/*process=*/0, /*processes=*/1, /*workers=*/2, /*vf=*/3};

std::string name_comm(int vrank, int context) {
    return "comm " + std::to_string(context) + " of vrank " + std::to_string(vrank);
}

// The job's trace of what `record` records, through this process's part on disk.
JobTrace gather(std::size_t events_per_thread, const std::function<void()>& record, const Filter& filter = Filter{}) {
    enable(events_per_thread, filter);
    clear();  // what an earlier test left
    std::string error, directory = ::testing::TempDir() + "trace_test.parts";
    EXPECT_TRUE(prepare_part(directory, kOneProcess, /*job=*/1, ClockOffset{}, "", &error)) << error;
    record();
    std::map<int, std::string> names;
    for (const auto& [context, vrank] : named_contexts()) names.emplace(context, name_comm(vrank, context));
    EXPECT_TRUE(write_part(Ending::finished, 0, names, ClockOffset{}, &error)) << error;
    std::optional<Part> part = read_part(part_path(directory, 0), &error);
    EXPECT_TRUE(part) << error;
    return part ? assemble_job({*part}) : JobTrace{};
}

std::vector<Span> spans_of(const JobTrace& job, SpanKind kind) {
    std::vector<Span> found;
    for (const Span& s : job.spans)
        if (s.kind == kind) found.push_back(s);
    return found;
}

TEST(TraceTest, EachThreadRecordsIntoItsOwnBoundedBuffer) {
    enable(4);
    clear();
    for (int i = 0; i < 6; ++i) idle_began(0);
    std::thread other([] { idle_began(1); });
    other.join();
    const Buffer& mine = *this_threads_buffer();
    const Buffer& others = buffer_of_thread(buffer_count() - 1);  // the newest thread's
    ASSERT_NE(&mine, &others);
    EXPECT_EQ(mine.events.size(), 4u);
    EXPECT_EQ(others.events.size(), 1u);
    EXPECT_GE(mine.full_at, 0);  // refused two records
    EXPECT_EQ(others.full_at, -1);
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

Filter filter_of(const char* spec) {
    std::string error;
    std::optional<Filter> filter = parse_filter(spec, &error);
    EXPECT_TRUE(filter) << error;
    return filter ? *filter : Filter{};
}

TEST(TraceTest, AFilterIsATimeWindowKindsAndRanks) {
    Filter f = filter_of("time=0.5..2,kinds=task+message,ranks=0..3+8");
    EXPECT_EQ(f.from, 0.5);
    EXPECT_EQ(f.to, 2);
    EXPECT_TRUE(f.keeps(Kind::task) && f.keeps(Kind::message) && !f.keeps(Kind::wait) && !f.keeps(Kind::rma));
    EXPECT_TRUE(f.keeps_rank(0) && f.keeps_rank(3) && f.keeps_rank(8) && !f.keeps_rank(4) && !f.keeps_rank(9));
    EXPECT_EQ(filter_of("time=2..").to, std::numeric_limits<double>::infinity());
    EXPECT_EQ(filter_of("time=..1").from, 0);
    for (const char* bad : {"time=2..1", "time=2", "kinds=tasks", "ranks=3..1", "ranks=-1", "colour=red", "time"}) {
        std::string error;
        EXPECT_FALSE(parse_filter(bad, &error)) << bad;
        EXPECT_FALSE(error.empty()) << bad;
    }
}

TEST(TraceTest, AFilterKeepsItsKindsAndTheMessagesBetweenItsRanks) {
    JobTrace job = gather(
        100,
        [] {
            task_began(0, 1, Clock::now());
            sent(0, 1, 2, 1, 5, 4, 10);  // both kept
            sent(0, 1, 4, 1, 5, 4, 20);  // to a rank left out
            wait_began(1, WaitKind::receive, 2, 7, 4, "MPI_Recv", "a message");
            task_ended(0, 1, Clock::now());
            arrived(2, 1, 5, 4, 10);
            arrived(4, 1, 5, 4, 20);
            idle_began(0);
            idle_ended(0);
        },
        filter_of("kinds=task+message,ranks=0..2"));
    EXPECT_EQ(spans_of(job, SpanKind::task).size(), 1u);
    EXPECT_TRUE(spans_of(job, SpanKind::wait).empty());
    EXPECT_TRUE(spans_of(job, SpanKind::idle).empty());
    ASSERT_EQ(job.messages.size(), 1u);
    EXPECT_EQ(job.messages[0].bytes, 10u);
    EXPECT_EQ(job.filter, "kinds=task+message,ranks=0..2");
}

TEST(TraceTest, MessagesSentBeforeTheWindowKeepTheirPlaceInTheirStreamAndAreLeftOut) {
    JobTrace job = gather(
        100,
        [] {
            sent(0, 1, 2, 1, 5, 4, 10);
            task_began(0, 1, Clock::now());  // before the window: left out
            std::this_thread::sleep_for(std::chrono::milliseconds(30));
            arrived(2, 1, 5, 4, 10);  // the first of the stream arrives inside the window
            sent(0, 1, 2, 1, 5, 4, 20);
            arrived(2, 1, 5, 4, 20);
        },
        filter_of("time=0.02.."));
    ASSERT_EQ(job.messages.size(), 1u);
    EXPECT_EQ(job.messages[0].bytes, 20u);  // matched with its own arrival, not the first's
    EXPECT_TRUE(spans_of(job, SpanKind::task).empty());
}

std::string parts_directory(const std::string& name) {
    std::string directory = ::testing::TempDir() + name;
    std::filesystem::remove_all(directory);
    return directory;
}

// Records a task that starts waiting for a message and never gets it, as `process` of a job
// of `processes`; returns its part's path.
std::string write_stuck_part(const std::string& directory, int process, int processes, std::uint64_t job,
                             bool from_signal) {
    enable(100);
    clear();
    std::string error;
    EXPECT_TRUE(prepare_part(directory, ProcessFacts{process, processes, 1, 1}, job, ClockOffset{}, "", &error));
    task_began(0, process, Clock::now());
    sent(0, process, process, 0, 5, 4, 8);
    arrived(process, 0, 5, 4, 8);
    wait_began(process, WaitKind::receive, 0, 99, 4, "MPI_Recv", "a message that never comes");
    task_ended(0, process, Clock::now());
    if (from_signal)
        write_part_from_signal(Ending::fault, SIGSEGV);
    else
        EXPECT_TRUE(write_part(Ending::deadlock, 3, {{4, "MPI_COMM_WORLD"}}, std::nullopt, &error)) << error;
    return part_path(directory, process);
}

TEST(TraceTest, AStoppedProcessSaysWhyAndItsOpenWaitNeverEnded) {
    std::string directory = parts_directory("stopped.parts"), error;
    std::optional<Part> part = read_part(write_stuck_part(directory, 0, 1, 1, false), &error);
    ASSERT_TRUE(part) << error;
    JobTrace job = assemble_job({*part});
    ASSERT_EQ(job.processes.size(), 1u);
    EXPECT_EQ(job.processes[0].ending, Ending::deadlock);
    EXPECT_EQ(job.processes[0].detail, 3);
    std::vector<Span> waits = spans_of(job, SpanKind::wait);
    ASSERT_EQ(waits.size(), 1u);
    EXPECT_TRUE(waits[0].unended);
    EXPECT_EQ(waits[0].end, job.processes[0].stopped_at);  // open until the process stopped
    EXPECT_EQ(waits[0].comm, "MPI_COMM_WORLD");
    ASSERT_EQ(job.messages.size(), 1u);
}

TEST(TraceTest, APartWrittenFromASignalHandlerNamesCommunicatorsByNumber) {
    std::string directory = parts_directory("signal.parts"), error;
    std::optional<Part> part = read_part(write_stuck_part(directory, 0, 1, 1, true), &error);
    ASSERT_TRUE(part) << error;
    JobTrace job = assemble_job({*part});
    EXPECT_EQ(job.processes[0].ending, Ending::fault);
    EXPECT_EQ(job.processes[0].detail, SIGSEGV);
    std::vector<Span> waits = spans_of(job, SpanKind::wait);
    ASSERT_EQ(waits.size(), 1u);
    EXPECT_EQ(waits[0].comm, "communicator context 4");
}

TEST(TraceTest, APartWrittenWhileIdleIsReplacedByTheOneOfTheEndAndNotRewrittenForNothing) {
    std::string directory = parts_directory("idle.parts"), error;
    enable(100);
    clear();
    ASSERT_TRUE(prepare_part(directory, ProcessFacts{0, 1, 1, 1}, 1, ClockOffset{}, "", &error));
    std::string path = part_path(directory, 0);
    task_began(0, 0, Clock::now());
    write_idle_part({});
    std::optional<Part> idle = read_part(path, &error);
    ASSERT_TRUE(idle) << error;
    EXPECT_EQ(idle->header.ending, Ending::idle);
    std::filesystem::remove(path);
    write_idle_part({});  // no new records: nothing written
    EXPECT_FALSE(std::filesystem::exists(path));
    ASSERT_TRUE(write_part(Ending::deadlock, 3, {}, std::nullopt, &error)) << error;
    write_idle_part({});  // after the end's part: never
    std::optional<Part> end = read_part(path, &error);
    ASSERT_TRUE(end) << error;
    EXPECT_EQ(end->header.ending, Ending::deadlock);
}

TEST(TraceTest, TheMergeTakesOneJobsPartsAndNamesTheProcessesWithoutOne) {
    std::string directory = parts_directory("merge.parts");
    write_stuck_part(directory, 0, 3, /*job=*/7, false);
    write_stuck_part(directory, 1, 3, /*job=*/7, false);
    write_stuck_part(directory, 2, 3, /*job=*/9, false);  // another job's, left there
    std::vector<std::string> said;
    std::string file = directory + "/job.json";
    EXPECT_EQ(merge_trace(directory, file, [&](const std::string& line) { said.push_back(line); }), 2u);
    auto says = [&](const std::string& text) {
        return std::any_of(said.begin(), said.end(), [&](const std::string& line) { return line.find(text) != std::string::npos; });
    };
    EXPECT_TRUE(says("p2.part: another job's part"));
    EXPECT_TRUE(says("process 2 left no part"));
    std::ifstream json(file);
    std::string text((std::istreambuf_iterator<char>(json)), std::istreambuf_iterator<char>());
    EXPECT_NE(text.find("\"missing\":[2]"), std::string::npos);
    EXPECT_NE(text.find("\"why\":\"deadlock report\""), std::string::npos);
}

TEST(TraceTest, APartCutShortOrNotAPartIsRefusedWithItsPath) {
    std::string directory = parts_directory("cut.parts"), error;
    std::string path = write_stuck_part(directory, 0, 1, 1, false);
    std::filesystem::resize_file(path, sizeof(PartHeader) + 20);
    EXPECT_FALSE(read_part(path, &error));
    EXPECT_EQ(error, path + ": cut short (was its process killed while writing it?)");
    std::ofstream(path, std::ios::trunc) << "not a part at all, but long enough to hold a header of one........"
                                            "..............................................................";
    EXPECT_FALSE(read_part(path, &error));
    EXPECT_EQ(error, path + ": not a part of a Bamboo trace");
}

}  // namespace
}  // namespace bamboo::trace
