// trace/otf2_writer: a small job's trace, written and read back by otf2-print, which must
// accept it and list every span and message on its lane.
#include "trace/otf2_writer.hpp"

#include <gtest/gtest.h>

#include <sys/wait.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <tuple>
#include <vector>

#include "job_trace_builders.hpp"

using namespace bamboo::trace;
using namespace bamboo::trace::test_jobs;

namespace {

// Two processes of two workers and two tasks each. Vrank 0 sends to vrank 1 as its span ends
// (at 300); vrank 2, on process 1, sends to vrank 0, which waits in MPI_Recv.
JobTrace small_job() {
    JobTrace job;
    job.vf = 2;
    job.processes = {{0, 2, {0, 1}, 100, 700}, {1, 2, {2, 3}, 120, 600}};
    job.spans = {
        span(worker(0, 0), SpanKind::task, 100, 300, 0),
        span(worker(0, 0), SpanKind::idle, 300, 400),
        span(worker(0, 0), SpanKind::task, 400, 600, 1),
        span(worker(0, 1), SpanKind::idle, 100, 250),
        span(worker(0, 1), SpanKind::task, 250, 350, 1),
        span(engine(0), SpanKind::engine, 150, 180),
        span(engine(0), SpanKind::engine, 500, 520),
        wait(task(0, 0), WaitKind::receive, "MPI_Recv", 300, 700),
        wait(task(0, 1), WaitKind::firing_rule, "firing rule", 350, 400),
        span(worker(1, 0), SpanKind::task, 120, 500, 2),
        span(worker(1, 1), SpanKind::task, 130, 200, 3),
        span(worker(1, 1), SpanKind::idle, 200, 600),
        span(worker(1, 1), SpanKind::idle, 600, 600),
        span(engine(1), SpanKind::engine, 210, 230),
        wait(task(1, 3), WaitKind::collective, "MPI_Bcast", 200, 550),
    };
    job.messages = {
        message(worker(0, 0), 0, task(0, 1), "MPI_COMM_WORLD", 3, 16, 300, 310),
        message(worker(1, 0), 2, task(0, 0), "MPI_COMM_WORLD", 7, 4096, 450, 650),
    };
    return job;
}

#if BAMBOO_HAVE_OTF2

// What the writer calls a lane, with its process's: the key that otf2-print's names give too.
using LaneName = std::pair<std::string, std::string>;  // ("process N", "worker N"...)

LaneName name_of(const Lane& lane) {
    std::string process = "process " + std::to_string(lane.process);
    switch (lane.kind) {
    case LaneKind::worker: return {process, "worker " + std::to_string(lane.index)};
    case LaneKind::engine: return {process, "comm engine"};
    case LaneKind::task: return {process, "vrank " + std::to_string(lane.index)};
    }
    return {};
}


// A fresh directory, removed with what is in it.
struct TempDir {
    TempDir() {
        std::string pattern = (std::filesystem::temp_directory_path() / "bamboo-otf2-XXXXXX").string();
        if (!mkdtemp(pattern.data())) ADD_FAILURE() << "mkdtemp failed";
        path = pattern;
    }
    ~TempDir() { std::filesystem::remove_all(path); }
    std::string path;
};

struct Printed {
    int status = -1;
    std::string text;
};

Printed otf2_print(const std::string& args) {
    Printed out;
    std::string command = std::string(BAMBOO_OTF2_PRINT) + " " + args + " 2>&1";
    FILE* pipe = popen(command.c_str(), "r");
    if (!pipe) return out;
    char chunk[4096];
    for (std::size_t n; (n = fread(chunk, 1, sizeof chunk, pipe)) > 0;) out.text.append(chunk, n);
    int status = pclose(pipe);
    out.status = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    return out;
}

// One event as otf2-print lists it: its record, time and what it names (a region, or the
// location of the other end of a message, by name).
struct Event {
    std::string record;
    std::uint64_t time;
    std::string what;
};

// The archive read back: its locations' names and event counts, and each one's events.
struct Archive {
    std::map<std::uint64_t, LaneName> lanes;
    std::map<std::uint64_t, std::uint64_t> counted;  // the definitions' "# Events"
    std::map<LaneName, std::vector<Event>> events;
    std::string clock;
    std::set<std::string> regions;  // the names of the regions defined
};

Archive read_archive(const std::string& anchor) {
    Archive archive;
    Printed definitions = otf2_print("-G " + anchor);
    EXPECT_EQ(definitions.status, 0) << definitions.text;
    std::regex location(R"re(^LOCATION +(\d+) +Name: "([^"]*)".*# Events: (\d+), Group: "([^"]*)")re");
    std::regex region(R"re(^REGION +\d+ +Name: "([^"]*)")re");
    std::istringstream lines(definitions.text);
    std::smatch m;
    for (std::string line; std::getline(lines, line);) {
        if (std::regex_search(line, m, location)) {
            std::uint64_t ref = std::stoull(m[1]);
            archive.lanes[ref] = {m[4], m[2]};
            archive.counted[ref] = std::stoull(m[3]);
        } else if (std::regex_search(line, m, region)) {
            archive.regions.insert(m[1]);
        } else if (line.rfind("CLOCK_PROPERTIES", 0) == 0) {
            archive.clock = line;
        }
    }
    Printed events = otf2_print(anchor);
    EXPECT_EQ(events.status, 0) << events.text;
    std::regex event(R"re(^(ENTER|LEAVE|MPI_SEND|MPI_RECV) +(\d+) +(\d+) +(Region: "([^"]*)"|Receiver: \d+ \("([^"]*)"|Sender: \d+ \("([^"]*)"))re");
    lines = std::istringstream(events.text);
    for (std::string line; std::getline(lines, line);) {
        if (!std::regex_search(line, m, event)) continue;
        std::string what = m[5].matched ? m[5].str() : m[6].matched ? m[6].str() : m[7].str();
        archive.events[archive.lanes.at(std::stoull(m[2]))].push_back({m[1], std::stoull(m[3]), what});
    }
    return archive;
}

std::vector<std::tuple<std::string, std::uint64_t, std::string>> sequence(const std::vector<Event>& events) {
    std::vector<std::tuple<std::string, std::uint64_t, std::string>> out;
    for (const Event& e : events) out.emplace_back(e.record, e.time, e.what);
    return out;
}

// The tests that read the archive back, with otf2-print (Debian's otf2-tools).
class Otf2Print : public testing::Test {
protected:
    void SetUp() override {
        if (std::string(BAMBOO_OTF2_PRINT).empty()) GTEST_SKIP() << "otf2-print not found";
    }
};

TEST_F(Otf2Print, ReadsEverySpanAndMessageOnItsLane) {
    TempDir dir;
    JobTrace job = small_job();
    std::string error;
    ASSERT_TRUE(write_otf2(job, dir.path + "/trace.otf2", &error)) << error;
    Archive archive = read_archive(dir.path + "/trace.otf2/traces.otf2");

    EXPECT_NE(archive.clock.find("Ticks per Seconds: 1000000000"), std::string::npos) << archive.clock;
    EXPECT_NE(archive.clock.find("Length: 700"), std::string::npos) << archive.clock;
    // Every lane of every process, busy or not.
    EXPECT_EQ(archive.lanes.size(), 2u * (2 + 1 + 2));

    std::map<LaneName, int> spans;
    for (const Span& s : job.spans) ++spans[name_of(s.lane)];
    for (const auto& [ref, lane] : archive.lanes) {
        std::map<std::string, int> records;
        for (const Event& e : archive.events[lane]) ++records[e.record];
        SCOPED_TRACE(lane.first + ", " + lane.second);
        EXPECT_EQ(records["ENTER"], spans[lane]);
        EXPECT_EQ(records["LEAVE"], spans[lane]);
        EXPECT_EQ(archive.counted[ref], archive.events[lane].size());
    }
    EXPECT_EQ(archive.regions, (std::set<std::string>{"vrank 0", "vrank 1", "vrank 2", "vrank 3", "idle",
                                                      "progress", "MPI_Recv", "firing rule", "MPI_Bcast"}));

    // Sends on the sending task's location, naming the receiving task, and receives there
    // naming the sender; a send as a wait begins is before it, a receive as it ends inside.
    using Seq = std::vector<std::tuple<std::string, std::uint64_t, std::string>>;
    EXPECT_EQ(sequence(archive.events[{"process 0", "worker 0"}]),
              (Seq{{"ENTER", 100, "vrank 0"}, {"LEAVE", 300, "vrank 0"}, {"ENTER", 300, "idle"}, {"LEAVE", 400, "idle"},
                   {"ENTER", 400, "vrank 1"}, {"LEAVE", 600, "vrank 1"}}));
    EXPECT_EQ(sequence(archive.events[{"process 0", "vrank 1"}]),
              (Seq{{"MPI_RECV", 310, "vrank 0"}, {"ENTER", 350, "firing rule"}, {"LEAVE", 400, "firing rule"}}));
    EXPECT_EQ(sequence(archive.events[{"process 0", "vrank 0"}]),
              (Seq{{"MPI_SEND", 300, "vrank 1"}, {"ENTER", 300, "MPI_Recv"}, {"MPI_RECV", 650, "vrank 2"},
                   {"LEAVE", 700, "MPI_Recv"}}));
    EXPECT_EQ(sequence(archive.events[{"process 1", "worker 0"}]),
              (Seq{{"ENTER", 120, "vrank 2"}, {"LEAVE", 500, "vrank 2"}}));
    EXPECT_EQ(sequence(archive.events[{"process 1", "vrank 2"}]), (Seq{{"MPI_SEND", 450, "vrank 0"}}));
    EXPECT_EQ(sequence(archive.events[{"process 1", "worker 1"}]),
              (Seq{{"ENTER", 130, "vrank 3"}, {"LEAVE", 200, "vrank 3"}, {"ENTER", 200, "idle"},
                   {"LEAVE", 600, "idle"}, {"ENTER", 600, "idle"}, {"LEAVE", 600, "idle"}}));
}

TEST_F(Otf2Print, ReplacesAnEarlierArchive) {
    TempDir dir;
    std::string error;
    JobTrace job = small_job();
    ASSERT_TRUE(write_otf2(job, dir.path, &error)) << error;
    job.spans.pop_back();
    ASSERT_TRUE(write_otf2(job, dir.path, &error)) << error;
    Archive archive = read_archive(dir.path + "/traces.otf2");
    LaneName vrank3{"process 1", "vrank 3"};
    EXPECT_TRUE(archive.events[vrank3].empty());
}

TEST(Otf2Writer, RefusesSpansThatOverlapOnALane) {
    TempDir dir;
    JobTrace job = small_job();
    job.spans[1].begin = 250;  // worker 0's idle span, before its task's ends
    std::string error;
    EXPECT_FALSE(write_otf2(job, dir.path, &error));
    EXPECT_NE(error.find("lane 'worker 0' of process 0"), std::string::npos) << error;
}

TEST(Otf2Writer, RefusesALaneNoProcessHas) {
    TempDir dir;
    JobTrace job = small_job();
    job.messages[0].arrived_on = task(1, 0);  // vrank 0 is process 0's
    std::string error;
    EXPECT_FALSE(write_otf2(job, dir.path, &error));
    EXPECT_NE(error.find("lane 'vrank 0' of process 1"), std::string::npos) << error;
}

#else

TEST(Otf2Writer, SaysItWasBuiltWithoutLibotf2) {
    std::string error;
    EXPECT_FALSE(write_otf2(small_job(), "unused", &error));
    EXPECT_NE(error.find("built without libotf2"), std::string::npos) << error;
}

#endif

}  // namespace
