// trace/otf2_writer, read back by a second reader (tests/otf2/otf2_read.hpp, over libotf2's
// reader API): the archives of small and generated jobs break none of OTF2's rules nor
// Bamboo's mapping and hold exactly the model; and the reader does find what breaks them, in
// archives written wrong on purpose.
#include "trace/otf2_writer.hpp"

#include <gtest/gtest.h>
#include <otf2/otf2.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <functional>
#include <map>
#include <string>
#include <tuple>
#include <vector>

#include "job_trace_builders.hpp"
#include "otf2_read.hpp"

using namespace bamboo::trace;
using namespace bamboo::trace::test_jobs;

namespace {

// Two processes of two workers and two tasks each, like otf2_writer_test's: a send as a task's
// span ends and its wait begins, a receive that ends a wait, one between waits.
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
        wait(task(0, 0), WaitKind::receive, "MPI_Recv", 300, 650),
        wait(task(0, 1), WaitKind::firing_rule, "firing rule", 350, 400),
        span(worker(1, 0), SpanKind::task, 120, 500, 2),
        span(worker(1, 1), SpanKind::task, 130, 200, 3),
        span(worker(1, 1), SpanKind::idle, 600, 600),
        wait(task(1, 3), WaitKind::collective, "MPI_Bcast", 200, 550),
    };
    job.messages = {
        message(worker(0, 0), 0, task(0, 1), "MPI_COMM_WORLD", 3, 16, 300, 310),
        message(worker(1, 0), 2, task(0, 0), "MPI_COMM_WORLD", 7, 4096, 450, 650),
        message(engine(1), 3, task(0, 0), "", -2, 8, 500, 500),
    };
    return job;
}

// A job of `processes` processes of 2 workers and 3 tasks each, made up from `seed`: spans
// back to back (some of no length), waits, and many messages on a coarse grid of times, so
// that many happen together and at spans' edges, on three communicators, runtime tags among
// them, some in bursts sent at once. As the merge does, the n-th send of a stream (sender,
// receiver, communicator, tag) is the n-th arrival.
JobTrace generated_job(unsigned seed, int processes = 3) {
    std::uint64_t state = seed * 6364136223846793005ULL + 1442695040888963407ULL;
    auto next = [&](int n) {
        state = state * 6364136223846793005ULL + 1442695040888963407ULL;
        return static_cast<int>((state >> 33) % static_cast<std::uint64_t>(n));
    };
    constexpr int vf = 3, workers = 2, end = 2000;
    JobTrace job;
    job.vf = vf;
    for (int p = 0; p < processes; ++p) {
        ProcessSummary summary{p, workers, {}, 0, end};
        for (int t = 0; t < vf; ++t) summary.vranks.push_back(p * vf + t);
        job.processes.push_back(summary);
        for (int w = 0; w < workers; ++w) {
            for (int t = next(20) * 10; t < end;) {
                int length = next(8) * 10;
                bool run = next(3) > 0;
                job.spans.push_back(span(worker(p, w), run ? SpanKind::task : SpanKind::idle, t, t + length,
                                         run ? p * vf + next(vf) : -1));
                t += length + (next(4) == 0 ? 10 : 0);
            }
        }
        for (int t = next(5) * 10; t < end; t += next(10) * 10 + 10) {
            int length = next(3) * 10;
            job.spans.push_back(span(engine(p), SpanKind::engine, t, t + length));
            t += length;
        }
        static const std::vector<std::pair<WaitKind, std::string>> calls = {
            {WaitKind::receive, "MPI_Recv"}, {WaitKind::collective, "MPI_Allreduce"},
            {WaitKind::firing_rule, "firing rule"}, {WaitKind::other, "MPI_Waitall"}};
        for (int v : summary.vranks) {
            for (int t = next(10) * 10; t < end; t += next(6) * 10) {
                int length = next(12) * 10;
                const auto& [kind, call] = calls[next(static_cast<int>(calls.size()))];
                job.spans.push_back(wait(task(p, v), kind, call, t, t + length));
                t += length;
            }
        }
    }
    static const std::vector<std::string> comms = {"MPI_COMM_WORLD", "the communicator from MPI_Comm_split at a.c:9", ""};
    static const std::vector<int> tags = {0, 1, -7};
    using Stream = std::tuple<int, int, std::string, int>;
    std::map<Stream, std::vector<Message>> streams;
    int vranks = processes * vf;
    for (int i = 0; i < 60 * processes; ++i) {
        int from = next(vranks), to = next(vranks);
        const std::string& comm = comms[next(3)];
        int tag = tags[next(3)];
        std::int64_t sent = next(end / 10) * 10;
        Lane sent_on = next(5) == 0 ? engine(from / vf) : worker(from / vf, next(workers));
        // Now and then a burst: several sent at once, arriving apart or together.
        for (int burst = next(4) == 0 ? 3 : 1; burst > 0; --burst) {
            streams[{from, to, comm, tag}].push_back(message(sent_on, from, task(to / vf, to), comm, tag,
                                                             static_cast<std::uint64_t>(next(3) * 1000 + 4), sent,
                                                             sent + next(4) * 10));
        }
    }
    for (auto& [stream, messages] : streams) {
        std::vector<std::int64_t> arrivals;
        for (const Message& m : messages) arrivals.push_back(m.arrived);
        std::stable_sort(messages.begin(), messages.end(), [](const Message& a, const Message& b) { return a.sent < b.sent; });
        std::sort(arrivals.begin(), arrivals.end());
        for (std::size_t i = 0; i < messages.size(); ++i) {
            messages[i].arrived = std::max(arrivals[i], messages[i].sent);
            job.messages.push_back(messages[i]);
        }
    }
    std::stable_sort(job.messages.begin(), job.messages.end(), [](const Message& a, const Message& b) { return a.sent < b.sent; });
    return job;
}

// The job without process `gone`: what the trace of a job is when a process left no part.
JobTrace without_process(JobTrace job, int gone) {
    job.processes.erase(std::remove_if(job.processes.begin(), job.processes.end(),
                                       [&](const ProcessSummary& p) { return p.process == gone; }),
                        job.processes.end());
    job.spans.erase(std::remove_if(job.spans.begin(), job.spans.end(), [&](const Span& s) { return s.lane.process == gone; }),
                    job.spans.end());
    job.messages.erase(std::remove_if(job.messages.begin(), job.messages.end(),
                                      [&](const Message& m) {
                                          return m.sent_on.process == gone || m.arrived_on.process == gone;
                                      }),
                       job.messages.end());
    job.missing = {gone};
    return job;
}

// A fresh directory, removed with what is in it.
struct TempDir {
    TempDir() {
        std::string pattern = (std::filesystem::temp_directory_path() / "bamboo-otf2-read-XXXXXX").string();
        if (!mkdtemp(pattern.data())) ADD_FAILURE() << "mkdtemp failed";
        path = pattern;
    }
    ~TempDir() { std::filesystem::remove_all(path); }
    std::string path;
};

std::string joined(const std::vector<std::string>& lines) {
    std::string out;
    for (const std::string& line : lines) out += line + "\n";
    return out;
}

bool mentions(const std::vector<std::string>& problems, const std::string& what) {
    return std::any_of(problems.begin(), problems.end(),
                       [&](const std::string& p) { return p.find(what) != std::string::npos; });
}

// Writes `job` and reads it back; every check must pass.
void expect_read_back(const JobTrace& job) {
    TempDir dir;
    std::string error;
    ASSERT_TRUE(write_otf2(job, dir.path, &error)) << error;
    otf2_read::Archive archive = otf2_read::read(dir.path + "/traces.otf2");
    std::vector<otf2_read::Pair> pairs;
    EXPECT_EQ(joined(otf2_read::otf2_problems(archive, &pairs)), "");
    EXPECT_EQ(joined(otf2_read::bamboo_problems(archive)), "");
    EXPECT_EQ(joined(otf2_read::model_differences(archive, job)), "");

    // The counts, once more: a span is an Enter and a Leave, a message a send and a receive.
    std::size_t enters = 0, leaves = 0, sends = 0, receives = 0;
    for (const auto& [location, events] : archive.events) {
        for (const otf2_read::Event& e : events) {
            enters += e.type == otf2_read::Event::Type::enter;
            leaves += e.type == otf2_read::Event::Type::leave;
            sends += e.type == otf2_read::Event::Type::send;
            receives += e.type == otf2_read::Event::Type::receive;
        }
    }
    EXPECT_EQ(enters, job.spans.size());
    EXPECT_EQ(leaves, job.spans.size());
    EXPECT_EQ(sends, job.messages.size());
    EXPECT_EQ(receives, job.messages.size());
    EXPECT_EQ(pairs.size(), job.messages.size());
    EXPECT_EQ(archive.location_groups.size(), job.processes.size());
}

TEST(Otf2Reader, ReadsASmallJobBack) { expect_read_back(small_job()); }

TEST(Otf2Reader, ReadsGeneratedJobsBack) {
    for (unsigned seed : {1u, 2u, 3u, 4u}) {
        SCOPED_TRACE("seed " + std::to_string(seed));
        JobTrace job = generated_job(seed);
        ASSERT_GT(job.messages.size(), 100u);
        expect_read_back(job);
    }
}

// Location groups are numbered by process: 0 and 2 here.
TEST(Otf2Reader, ReadsAJobWithAMissingProcessBack) {
    JobTrace job = without_process(generated_job(5), 1);
    ASSERT_FALSE(job.messages.empty());
    expect_read_back(job);
}

TEST(Otf2Reader, ReadsAJobWithoutMessagesBack) {
    JobTrace job = small_job();
    job.messages.clear();
    expect_read_back(job);
}

TEST(Otf2Reader, FindsWhereAnArchiveDiffersFromItsModel) {
    TempDir dir;
    JobTrace job = small_job();
    std::string error;
    ASSERT_TRUE(write_otf2(job, dir.path, &error)) << error;
    otf2_read::Archive archive = otf2_read::read(dir.path + "/traces.otf2");
    job.spans[1].end = 390;
    job.messages[1].tag = 8;
    job.processes[1].workers = 3;
    std::vector<std::string> differences = otf2_read::model_differences(archive, job);
    EXPECT_TRUE(mentions(differences, "('worker 0'): spans [enter vrank 0 at 100, leave vrank 0 at 300, enter idle at 300, leave idle at 400"))
        << joined(differences);
    EXPECT_TRUE(mentions(differences, "the model's message vrank 2 (process 1) to vrank 0 (process 0), MPI_COMM_WORLD, tag 8"))
        << joined(differences);
    EXPECT_TRUE(mentions(differences, "the archive's message vrank 2 (process 1) to vrank 0 (process 0), MPI_COMM_WORLD, tag 7"))
        << joined(differences);
    EXPECT_TRUE(mentions(differences, "no location 'worker 2' in process 1")) << joined(differences);
}

// --- archives written wrong on purpose, with libotf2's writer ---------------------------

OTF2_FlushType flush_always(void*, OTF2_FileType, OTF2_LocationRef, void*, bool) { return OTF2_FLUSH; }
OTF2_FlushCallbacks flush_callbacks = {flush_always, nullptr};

// An archive of `locations` locations: `events` writes each one's events, `definitions` the
// global definitions after these strings: 0 "", 1 "machine", 2 "process 0", 3 "process 1",
// 4 "worker 0", 5 "vrank 0", 6 "vrank 1", 7 "r", 8 "messages", and regions 0 and 1, both "r".
// (libotf2's writer keeps a location's events in time order: it drops one before the last.)
void write_raw(const std::string& dir, int locations, const std::function<void(std::vector<OTF2_EvtWriter*>&)>& events,
               const std::function<void(OTF2_GlobalDefWriter*)>& definitions) {
    OTF2_Archive* archive = OTF2_Archive_Open(dir.c_str(), "traces", OTF2_FILEMODE_WRITE, 1 << 20, 4 << 20,
                                              OTF2_SUBSTRATE_POSIX, OTF2_COMPRESSION_NONE);
    ASSERT_NE(archive, nullptr);
    OTF2_Archive_SetFlushCallbacks(archive, &flush_callbacks, nullptr);
    OTF2_Archive_SetSerialCollectiveCallbacks(archive);
    OTF2_Archive_OpenEvtFiles(archive);
    std::vector<OTF2_EvtWriter*> writers;
    for (int l = 0; l < locations; ++l) writers.push_back(OTF2_Archive_GetEvtWriter(archive, l));
    events(writers);
    for (OTF2_EvtWriter* writer : writers) OTF2_Archive_CloseEvtWriter(archive, writer);
    OTF2_Archive_CloseEvtFiles(archive);
    OTF2_Archive_OpenDefFiles(archive);
    for (int l = 0; l < locations; ++l) OTF2_Archive_CloseDefWriter(archive, OTF2_Archive_GetDefWriter(archive, l));
    OTF2_Archive_CloseDefFiles(archive);
    OTF2_GlobalDefWriter* defs = OTF2_Archive_GetGlobalDefWriter(archive);
    OTF2_GlobalDefWriter_WriteClockProperties(defs, 1'000'000'000, 0, 1000, OTF2_UNDEFINED_TIMESTAMP);
    const char* strings[] = {"", "machine", "process 0", "process 1", "worker 0", "vrank 0", "vrank 1", "r", "messages"};
    for (OTF2_StringRef ref = 0; ref < std::size(strings); ++ref) OTF2_GlobalDefWriter_WriteString(defs, ref, strings[ref]);
    OTF2_GlobalDefWriter_WriteSystemTreeNode(defs, 0, 1, 1, OTF2_UNDEFINED_SYSTEM_TREE_NODE);
    OTF2_GlobalDefWriter_WriteSystemTreeNodeDomain(defs, 0, OTF2_SYSTEM_TREE_DOMAIN_MACHINE);
    for (OTF2_RegionRef region : {0, 1}) {
        OTF2_GlobalDefWriter_WriteRegion(defs, region, 7, 7, 0, OTF2_REGION_ROLE_FUNCTION, OTF2_PARADIGM_USER,
                                         OTF2_REGION_FLAG_NONE, 0, 0, 0);
    }
    definitions(defs);
    OTF2_Archive_Close(archive);
}

void process(OTF2_GlobalDefWriter* defs, OTF2_LocationGroupRef ref, OTF2_LocationGroupType type = OTF2_LOCATION_GROUP_TYPE_PROCESS) {
    OTF2_GlobalDefWriter_WriteLocationGroup(defs, ref, 2 + ref, type, 0, OTF2_UNDEFINED_LOCATION_GROUP);
}

void location(OTF2_GlobalDefWriter* defs, OTF2_LocationRef ref, OTF2_StringRef name, std::uint64_t events,
              OTF2_LocationGroupRef group, OTF2_LocationType type = OTF2_LOCATION_TYPE_CPU_THREAD) {
    OTF2_GlobalDefWriter_WriteLocation(defs, ref, name, type, events, group);
}

// The messages' groups and communicator 0 over `members` (locations), of `paradigm`.
void communicator(OTF2_GlobalDefWriter* defs, OTF2_Paradigm paradigm, std::vector<std::uint64_t> members) {
    OTF2_GlobalDefWriter_WriteGroup(defs, 0, 8, OTF2_GROUP_TYPE_COMM_LOCATIONS, paradigm, OTF2_GROUP_FLAG_NONE,
                                    static_cast<std::uint32_t>(members.size()), members.data());
    for (std::size_t i = 0; i < members.size(); ++i) members[i] = i;
    OTF2_GlobalDefWriter_WriteGroup(defs, 1, 8, OTF2_GROUP_TYPE_COMM_GROUP, paradigm, OTF2_GROUP_FLAG_GLOBAL_MEMBERS,
                                    static_cast<std::uint32_t>(members.size()), members.data());
    OTF2_GlobalDefWriter_WriteComm(defs, 0, 8, 1, OTF2_UNDEFINED_COMM, OTF2_COMM_FLAG_NONE);
}

std::vector<std::string> all_problems(const std::string& anchor) {
    otf2_read::Archive archive = otf2_read::read(anchor);
    std::vector<std::string> problems = otf2_read::otf2_problems(archive);
    for (const std::string& p : otf2_read::bamboo_problems(archive)) problems.push_back(p);
    return problems;
}

TEST(Otf2Reader, FindsRegionsNotNestedOrNotLeft) {
    TempDir dir;
    write_raw(dir.path, 2,
              [](std::vector<OTF2_EvtWriter*>& w) {
                  OTF2_EvtWriter_Enter(w[0], nullptr, 10, 0);
                  OTF2_EvtWriter_Enter(w[0], nullptr, 15, 1);
                  OTF2_EvtWriter_Leave(w[0], nullptr, 20, 0);
                  OTF2_EvtWriter_Enter(w[0], nullptr, 25, 0);
                  OTF2_EvtWriter_Leave(w[1], nullptr, 30, 0);
              },
              [](OTF2_GlobalDefWriter* defs) {
                  process(defs, 0);
                  location(defs, 0, 4, 4, 0);
                  location(defs, 1, 5, 2, 0);
              });
    std::vector<std::string> problems = all_problems(dir.path + "/traces.otf2");
    EXPECT_TRUE(mentions(problems, "location 0 ('worker 0') at 20: leaves region 0 inside region 1")) << joined(problems);
    EXPECT_TRUE(mentions(problems, "location 0 ('worker 0') never leaves 2 region(s)")) << joined(problems);
    EXPECT_TRUE(mentions(problems, "location 1 ('vrank 0') at 30: leaves region 0, entered nowhere")) << joined(problems);
    EXPECT_TRUE(mentions(problems, "location 1 ('vrank 0') has 1 events, its definition says 2")) << joined(problems);
    EXPECT_TRUE(mentions(problems, "location group 0 ('process 0') has no comm engine")) << joined(problems);
}

TEST(Otf2Reader, FindsGroupsThatAreNoProcesses) {
    TempDir dir;
    write_raw(dir.path, 2, [](std::vector<OTF2_EvtWriter*>&) {},
              [](OTF2_GlobalDefWriter* defs) {
                  process(defs, 0, OTF2_LOCATION_GROUP_TYPE_UNKNOWN);
                  process(defs, 1);
                  location(defs, 0, 4, 0, 0);
                  location(defs, 1, 4, 0, 1, OTF2_LOCATION_TYPE_METRIC);
              });
    std::vector<std::string> problems = all_problems(dir.path + "/traces.otf2");
    EXPECT_TRUE(mentions(problems, "location group 0 ('process 0') is of unknown type 0")) << joined(problems);
    EXPECT_TRUE(mentions(problems, "location group 0 ('process 0') is no process")) << joined(problems);
    EXPECT_TRUE(mentions(problems, "location group 1 ('process 1'), a process, has no CPU thread location")) << joined(problems);
    EXPECT_TRUE(mentions(problems, "location 1 ('worker 0') is no CPU thread")) << joined(problems);
}

// The layout this writer had before: an MPI communicator whose ranks are every lane, sends on
// the sending task's worker. OTF2 wants MPI rank i's thread in location group i.
TEST(Otf2Reader, FindsMpiRanksThatAreNotTheirLocationGroups) {
    TempDir dir;
    write_raw(dir.path, 4,
              [](std::vector<OTF2_EvtWriter*>& w) {
                  OTF2_EvtWriter_MpiSend(w[0], nullptr, 10, 3, 0, 5, 64);
                  OTF2_EvtWriter_MpiRecv(w[3], nullptr, 20, 0, 0, 5, 64);
              },
              [](OTF2_GlobalDefWriter* defs) {
                  process(defs, 0);
                  process(defs, 1);
                  location(defs, 0, 4, 1, 0);
                  location(defs, 1, 5, 0, 0);
                  location(defs, 2, 4, 0, 1);
                  location(defs, 3, 6, 1, 1);
                  communicator(defs, OTF2_PARADIGM_MPI, {0, 1, 2, 3});
              });
    std::vector<std::string> problems = all_problems(dir.path + "/traces.otf2");
    EXPECT_TRUE(mentions(problems, "MPI rank 1 is location 1 ('vrank 0'), of location group 0")) << joined(problems);
    EXPECT_TRUE(mentions(problems, "MPI rank 3 is location 3 ('vrank 1'), of location group 1")) << joined(problems);
    EXPECT_TRUE(mentions(problems, "group 0 ('messages') is not of paradigm USER")) << joined(problems);
    EXPECT_TRUE(mentions(problems, "location 0 ('worker 0') at 10: a message on a lane that is no task's")) << joined(problems);
    EXPECT_TRUE(mentions(problems, "communicators, but no COMM_LOCATIONS group of paradigm USER")) << joined(problems);
}

TEST(Otf2Reader, FindsMessagesWithoutTheirOtherEnd) {
    TempDir dir;
    write_raw(dir.path, 2,
              [](std::vector<OTF2_EvtWriter*>& w) {
                  OTF2_EvtWriter_MpiSend(w[0], nullptr, 10, 1, 0, 5, 64);
                  OTF2_EvtWriter_MpiSend(w[0], nullptr, 20, 1, 0, 5, 64);
                  OTF2_EvtWriter_MpiRecv(w[1], nullptr, 15, 0, 0, 5, 32);
                  OTF2_EvtWriter_MpiRecv(w[1], nullptr, 30, 0, 0, 6, 64);
              },
              [](OTF2_GlobalDefWriter* defs) {
                  process(defs, 0);
                  location(defs, 0, 5, 2, 0);
                  location(defs, 1, 6, 2, 0);
                  communicator(defs, OTF2_PARADIGM_USER, {0, 1});
              });
    std::vector<std::string> problems = all_problems(dir.path + "/traces.otf2");
    EXPECT_TRUE(mentions(problems, "communicator 0, rank 0 to rank 1, tag 5: 2 sends, 1 receives")) << joined(problems);
    EXPECT_TRUE(mentions(problems, "communicator 0, rank 0 to rank 1, tag 5: message 0 sent with 64 bytes, received with 32"))
        << joined(problems);
    EXPECT_TRUE(mentions(problems, "communicator 0, rank 0 to rank 1, tag 6: 0 sends, 1 receives")) << joined(problems);
}

}  // namespace
