// The OTF2 writer (trace/otf2_writer.hpp).
//
// OTF2 is made to be written while a program runs, each process writing its own locations
// and the processes agreeing through collective callbacks. Here one process writes the whole
// job after the fact: the archive gets OTF2's serial collectives (a job of one writer), every
// location's events are written from the model, and the global definitions, which count each
// location's events, come last.
//
// Processes and their threads, as OTF2 3.0 defines them (OTF2_Definitions.h). Each process is
// a location group of type OTF2_LOCATION_GROUP_TYPE_PROCESS, numbered by its process number
// (its rank in the job's MPI_COMM_WORLD), under one system tree node of domain
// OTF2_SYSTEM_TREE_DOMAIN_MACHINE: the trace does not say which node a process ran on. Its
// workers and comm engine are threads, locations of type OTF2_LOCATION_TYPE_CPU_THREAD. Its
// tasks are user-level threads, for which OTF2 3.0 has no location type: a PROCESS group may
// hold only CPU_THREAD and METRIC locations, and OTF2's own model of tasks (ThreadTaskCreate,
// ThreadTaskSwitch, ThreadTaskComplete, for OpenMP's) runs them on their threads' locations,
// where a waiting task, which holds no worker, would have nowhere to wait. So each task is a
// CPU_THREAD location of its process too, "vrank V", holding its waits and its messages.
//
// Messages. OTF2's only records of a message from one location to another are MPI's: an
// MpiSend names its receiver, and an MpiRecv its sender, by rank in a communicator, whose
// group's paradigm says whose ranks they are. A task is not an MPI rank: OTF2 wants an MPI
// rank's location to be in the location group of that number (OTF2_GROUP_TYPE_COMM_LOCATIONS),
// and a process's tasks share their process's group. So the messages are in a paradigm of
// their own, OTF2_PARADIGM_USER, and nothing in the archive claims OTF2_PARADIGM_MPI (a wait's
// region, named after its MPI call, is USER too), so that no tool applies MPI's rules to
// them. The USER paradigm's ranks are the tasks: its COMM_LOCATIONS group lists every task's
// location in vrank order, rank i being the i-th task (its vrank, when no process is
// missing). A message is an MpiSend on the sending task's location, naming the receiving
// task's rank, and an MpiRecv on the receiving task's location, naming the sender's, each
// with the message's tag and size. Every communicator of the program a message was sent on
// is a communicator here, by name (two of the same name are one), whose group
// (OTF2_GROUP_TYPE_COMM_GROUP, OTF2_GROUP_FLAG_GLOBAL_MEMBERS) is every task, for the trace
// does not say which tasks a communicator has: ranks in the events are the tasks' ranks
// above, not their ranks in that communicator. A reader pairs the n-th send from one rank to
// another with a tag on a communicator with the n-th such receive, as the merge paired them
// (trace/merge.cpp); sends and receives at the same time are written in their partners'
// order, so that the pairs come out as the model has them.
#include "trace/otf2_writer.hpp"

#if BAMBOO_HAVE_OTF2

#include <otf2/otf2.h>

#include <algorithm>
#include <cstdint>
#include <filesystem>
#include <limits>
#include <map>
#include <memory>
#include <tuple>
#include <vector>

namespace bamboo::trace {
namespace {

// An error of the writer: thrown where it happens, caught by write_otf2, which abandons the
// archive.
struct Failure {
    std::string message;
};

void check(OTF2_ErrorCode code, const char* call) {
    if (code != OTF2_SUCCESS) {
        throw Failure{std::string(call) + ": " + OTF2_Error_GetDescription(code) + " (" +
                      OTF2_Error_GetName(code) + ")"};
    }
}

// OTF2's calls that give a handle give none on failure, and say why on stderr.
template <typename Handle>
Handle* check(Handle* handle, const std::string& call) {
    if (!handle) throw Failure{call + " failed"};
    return handle;
}

std::string lane_name(const Lane& lane) {
    switch (lane.kind) {
    case LaneKind::worker: return "worker " + std::to_string(lane.index);
    case LaneKind::engine: return "comm engine";
    case LaneKind::task: return "vrank " + std::to_string(lane.index);
    }
    return "lane";
}

std::string where(const Lane& lane) {
    return "lane '" + lane_name(lane) + "' of process " + std::to_string(lane.process);
}

// The paradigm of every region and of the tasks' ranks, and the groups of those ranks (see
// above).
constexpr OTF2_Paradigm kParadigm = OTF2_PARADIGM_USER;
constexpr OTF2_GroupRef kTaskLocations = 0;  // COMM_LOCATIONS: rank i is the i-th task
constexpr OTF2_GroupRef kAllTasks = 1;       // COMM_GROUP: every rank

// One event of a location.
struct Record {
    enum class Type : std::uint8_t { enter, leave, send, receive };
    Type type;
    OTF2_TimeStamp time;
    // enter, leave: the region; send, receive: the other end's rank.
    std::uint32_t ref;
    // send, receive: the communicator, tag and size, and when the other end happened.
    OTF2_CommRef comm = 0;
    std::uint32_t tag = 0;
    std::uint64_t bytes = 0;
    OTF2_TimeStamp partner = 0;
};

struct Location {
    OTF2_StringRef name;
    OTF2_LocationGroupRef group;
    std::vector<Record> spans;     // Enter and Leave, in time order
    std::vector<Record> messages;  // sends and receives, in any order

    std::uint64_t events() const { return spans.size() + messages.size(); }
};

struct Group {
    OTF2_LocationGroupRef ref;  // the process's number
    OTF2_StringRef name;
};

struct Region {
    OTF2_StringRef name;
    OTF2_RegionRole role;
};

// Regions are told apart by name alone; a wait's role is that of its call's first wait, which
// every wait in that call shares.
OTF2_RegionRole wait_role(WaitKind kind) {
    switch (kind) {
    case WaitKind::receive:
    case WaitKind::send: return OTF2_REGION_ROLE_POINT2POINT;
    case WaitKind::collective: return OTF2_REGION_ROLE_COLL_OTHER;
    default: return OTF2_REGION_ROLE_FUNCTION;
    }
}

// Everything the archive will hold, numbered as OTF2 refers to it: each vector but groups is
// indexed by its definitions' references.
class Layout {
public:
    explicit Layout(const JobTrace& job) {
        empty = string("");
        machine = string("machine");
        tasks_name = string("bamboo tasks");
        for (const ProcessSummary& process : job.processes) add_process(process);
        // The tasks' ranks, in vrank order.
        for (const auto& [vrank, ref] : task_vranks_) {
            ranks_[ref] = static_cast<std::uint32_t>(tasks.size());
            tasks.push_back(ref);
        }
        for (const Span& span : job.spans) add_span(span);
        for (const Message& message : job.messages)
            if (!message.rma) add_message(message);  // one-sided operations: not in the archive (docs/tracing.md)
    }

    std::vector<std::string> strings;
    std::vector<Region> regions;
    std::vector<Group> groups;                // the processes, in the job's order
    std::vector<Location> locations;
    std::vector<OTF2_LocationRef> tasks;      // by rank: the tasks' locations, in vrank order
    std::vector<OTF2_StringRef> comms;        // the communicators' names
    OTF2_StringRef empty, machine, tasks_name;
    OTF2_TimeStamp length = 0;  // the last event's time

private:
    OTF2_StringRef string(const std::string& text) {
        auto ref = static_cast<OTF2_StringRef>(strings.size());
        auto [it, added] = string_refs_.try_emplace(text, ref);
        if (added) strings.push_back(text);
        return it->second;
    }

    OTF2_RegionRef region(const std::string& name, OTF2_RegionRole role) {
        auto ref = static_cast<OTF2_RegionRef>(regions.size());
        auto [it, added] = region_refs_.try_emplace(name, ref);
        if (added) regions.push_back({string(name), role});
        return it->second;
    }

    OTF2_RegionRef region(const Span& span) {
        switch (span.kind) {
        case SpanKind::task: return region("vrank " + std::to_string(span.vrank), OTF2_REGION_ROLE_FUNCTION);
        case SpanKind::idle: return region("idle", OTF2_REGION_ROLE_ARTIFICIAL);
        case SpanKind::engine: return region("progress", OTF2_REGION_ROLE_FUNCTION);
        case SpanKind::wait: break;
        }
        return region(span.call, wait_role(span.wait));
    }

    OTF2_CommRef comm(const std::string& name) {
        auto ref = static_cast<OTF2_CommRef>(comms.size());
        auto [it, added] = comm_refs_.try_emplace(name, ref);
        if (added) comms.push_back(string(name.empty() ? "unnamed communicator" : name));
        return it->second;
    }

    void add_location(const Lane& lane, OTF2_LocationGroupRef group) {
        auto [it, added] = location_refs_.try_emplace(key(lane), locations.size());
        if (!added) throw Failure{"the job's processes list " + where(lane) + " twice"};
        locations.push_back({string(lane_name(lane)), group, {}, {}});
    }

    void add_process(const ProcessSummary& process) {
        if (process.process < 0) throw Failure{"a process numbered " + std::to_string(process.process)};
        auto group = static_cast<OTF2_LocationGroupRef>(process.process);
        for (const Group& other : groups) {
            if (other.ref == group) throw Failure{"the job lists process " + std::to_string(process.process) + " twice"};
        }
        groups.push_back({group, string("process " + std::to_string(process.process))});
        for (int worker = 0; worker < process.workers; ++worker)
            add_location({process.process, LaneKind::worker, worker}, group);
        add_location({process.process, LaneKind::engine, 0}, group);
        for (int vrank : process.vranks) {
            add_location({process.process, LaneKind::task, vrank}, group);
            if (!task_vranks_.try_emplace(vrank, locations.size() - 1).second)
                throw Failure{"the job's processes list vrank " + std::to_string(vrank) + " twice"};
        }
    }

    OTF2_LocationRef location(const Lane& lane) const {
        auto it = location_refs_.find(key(lane));
        if (it == location_refs_.end())
            throw Failure{where(lane) + " is not one of the job's processes' lanes"};
        return it->second;
    }

    // The rank of the task whose lane this is.
    std::uint32_t rank(const Lane& lane) const {
        if (lane.kind != LaneKind::task) throw Failure{"a message ends on " + where(lane) + ", not a task's"};
        return ranks_.at(location(lane));
    }

    OTF2_TimeStamp time(std::int64_t ns, const Lane& lane) {
        if (ns < 0) {
            throw Failure{"an event at " + std::to_string(ns) + " ns on " + where(lane) +
                          ", before the job began"};
        }
        length = std::max(length, static_cast<OTF2_TimeStamp>(ns));
        return static_cast<OTF2_TimeStamp>(ns);
    }

    void add_span(const Span& span) {
        Location& on = locations[location(span.lane)];
        OTF2_TimeStamp begin = time(span.begin, span.lane), end = time(span.end, span.lane);
        // OTF2 wants a location's events in time order, and its regions nested.
        if (end < begin || (!on.spans.empty() && begin < on.spans.back().time)) {
            throw Failure{"spans on " + where(span.lane) + " overlap or are out of order at " +
                          std::to_string(span.begin) + " ns"};
        }
        OTF2_RegionRef entered = region(span);
        on.spans.push_back({Record::Type::enter, begin, entered});
        on.spans.push_back({Record::Type::leave, end, entered});
    }

    // A message goes from its sending task, whichever lane sent it, to its receiving task.
    void add_message(const Message& message) {
        Lane from{message.sent_on.process, LaneKind::task, message.from_vrank};
        const Lane& to = message.arrived_on;
        OTF2_CommRef on = comm(message.comm);
        // MPI tags are never negative, the runtime's own may be: OTF2's are unsigned, and keep
        // the bits.
        auto tag = static_cast<std::uint32_t>(message.tag);
        OTF2_TimeStamp sent = time(message.sent, message.sent_on), arrived = time(message.arrived, to);
        locations[location(from)].messages.push_back(
            {Record::Type::send, sent, rank(to), on, tag, message.bytes, arrived});
        locations[location(to)].messages.push_back(
            {Record::Type::receive, arrived, rank(from), on, tag, message.bytes, sent});
    }

    static std::tuple<int, LaneKind, int> key(const Lane& lane) {
        return {lane.process, lane.kind, lane.index};
    }

    std::map<std::string, OTF2_StringRef> string_refs_;
    std::map<std::string, OTF2_RegionRef> region_refs_;
    std::map<std::string, OTF2_CommRef> comm_refs_;
    std::map<std::tuple<int, LaneKind, int>, OTF2_LocationRef> location_refs_;
    std::map<int, OTF2_LocationRef> task_vranks_;             // by vrank
    std::map<OTF2_LocationRef, std::uint32_t> ranks_;         // the tasks' ranks
};

// A location's events in time order: its spans' Enters and Leaves, with its sends and
// receives among them. At the very time a span begins or ends, a receive goes inside it (a
// wait ends with its message) and a send outside (the task sent it before it waited, or
// after). Sends and receives at the same time go in their other ends' order (see the top of
// this file).
std::vector<Record> in_time_order(const Location& location) {
    std::vector<Record> sends, receives;
    for (const Record& r : location.messages) (r.type == Record::Type::send ? sends : receives).push_back(r);
    auto by_time = [](const Record& a, const Record& b) {
        return std::tie(a.time, a.partner) < std::tie(b.time, b.partner);
    };
    std::stable_sort(sends.begin(), sends.end(), by_time);
    std::stable_sort(receives.begin(), receives.end(), by_time);
    std::vector<Record> out;
    out.reserve(location.spans.size() + location.messages.size());
    auto send = sends.begin(), receive = receives.begin();
    // Emits the sends and receives before `until`, and those at `until` where sends_at or
    // receives_at says so.
    auto emit = [&](OTF2_TimeStamp until, bool sends_at, bool receives_at) {
        auto before = [until](const Record& r, bool at) { return r.time < until || (at && r.time == until); };
        for (;;) {
            bool s = send != sends.end() && before(*send, sends_at);
            bool r = receive != receives.end() && before(*receive, receives_at);
            if (!s && !r) return;
            if (s && (!r || send->time <= receive->time)) out.push_back(*send++);
            else out.push_back(*receive++);
        }
    };
    for (const Record& edge : location.spans) {
        bool leave = edge.type == Record::Type::leave;
        emit(edge.time, !leave, leave);
        out.push_back(edge);
    }
    emit(std::numeric_limits<OTF2_TimeStamp>::max(), true, true);
    return out;
}

void write_events(OTF2_EvtWriter* writer, const Location& location) {
    for (const Record& r : in_time_order(location)) {
        switch (r.type) {
        case Record::Type::enter:
            check(OTF2_EvtWriter_Enter(writer, nullptr, r.time, r.ref), "OTF2_EvtWriter_Enter");
            break;
        case Record::Type::leave:
            check(OTF2_EvtWriter_Leave(writer, nullptr, r.time, r.ref), "OTF2_EvtWriter_Leave");
            break;
        case Record::Type::send:
            check(OTF2_EvtWriter_MpiSend(writer, nullptr, r.time, r.ref, r.comm, r.tag, r.bytes),
                  "OTF2_EvtWriter_MpiSend");
            break;
        case Record::Type::receive:
            check(OTF2_EvtWriter_MpiRecv(writer, nullptr, r.time, r.ref, r.comm, r.tag, r.bytes),
                  "OTF2_EvtWriter_MpiRecv");
            break;
        }
    }
}

void write_definitions(OTF2_GlobalDefWriter* defs, const Layout& layout) {
    // The model's times are nanoseconds since the job's first event.
    check(OTF2_GlobalDefWriter_WriteClockProperties(defs, 1'000'000'000, 0, layout.length,
                                                    OTF2_UNDEFINED_TIMESTAMP),
          "OTF2_GlobalDefWriter_WriteClockProperties");
    for (OTF2_StringRef ref = 0; ref < layout.strings.size(); ++ref) {
        check(OTF2_GlobalDefWriter_WriteString(defs, ref, layout.strings[ref].c_str()),
              "OTF2_GlobalDefWriter_WriteString");
    }
    // The trace does not say which node each process ran on: one node, the machine, holds
    // them all.
    constexpr OTF2_SystemTreeNodeRef node = 0;
    check(OTF2_GlobalDefWriter_WriteSystemTreeNode(defs, node, layout.machine, layout.machine,
                                                   OTF2_UNDEFINED_SYSTEM_TREE_NODE),
          "OTF2_GlobalDefWriter_WriteSystemTreeNode");
    check(OTF2_GlobalDefWriter_WriteSystemTreeNodeDomain(defs, node, OTF2_SYSTEM_TREE_DOMAIN_MACHINE),
          "OTF2_GlobalDefWriter_WriteSystemTreeNodeDomain");
    for (const Group& group : layout.groups) {
        check(OTF2_GlobalDefWriter_WriteLocationGroup(defs, group.ref, group.name,
                                                      OTF2_LOCATION_GROUP_TYPE_PROCESS, node,
                                                      OTF2_UNDEFINED_LOCATION_GROUP),
              "OTF2_GlobalDefWriter_WriteLocationGroup");
    }
    // Workers, comm engines and tasks alike (see the top of this file).
    for (OTF2_LocationRef ref = 0; ref < layout.locations.size(); ++ref) {
        const Location& location = layout.locations[ref];
        check(OTF2_GlobalDefWriter_WriteLocation(defs, ref, location.name, OTF2_LOCATION_TYPE_CPU_THREAD,
                                                 location.events(), location.group),
              "OTF2_GlobalDefWriter_WriteLocation");
    }
    for (OTF2_RegionRef ref = 0; ref < layout.regions.size(); ++ref) {
        const Region& region = layout.regions[ref];
        check(OTF2_GlobalDefWriter_WriteRegion(defs, ref, region.name, region.name, layout.empty,
                                               region.role, kParadigm, OTF2_REGION_FLAG_NONE,
                                               layout.empty, 0, 0),
              "OTF2_GlobalDefWriter_WriteRegion");
    }
    // The tasks' ranks, and the communicators, each of every task (see the top of this file).
    std::vector<std::uint64_t> members(layout.tasks.begin(), layout.tasks.end());
    auto size = static_cast<std::uint32_t>(members.size());
    check(OTF2_GlobalDefWriter_WriteGroup(defs, kTaskLocations, layout.tasks_name, OTF2_GROUP_TYPE_COMM_LOCATIONS,
                                          kParadigm, OTF2_GROUP_FLAG_NONE, size, members.data()),
          "OTF2_GlobalDefWriter_WriteGroup");
    for (std::size_t rank = 0; rank < members.size(); ++rank) members[rank] = rank;
    check(OTF2_GlobalDefWriter_WriteGroup(defs, kAllTasks, layout.tasks_name, OTF2_GROUP_TYPE_COMM_GROUP,
                                          kParadigm, OTF2_GROUP_FLAG_GLOBAL_MEMBERS, size, members.data()),
          "OTF2_GlobalDefWriter_WriteGroup");
    for (OTF2_CommRef ref = 0; ref < layout.comms.size(); ++ref) {
        check(OTF2_GlobalDefWriter_WriteComm(defs, ref, layout.comms[ref], kAllTasks, OTF2_UNDEFINED_COMM,
                                             OTF2_COMM_FLAG_NONE),
              "OTF2_GlobalDefWriter_WriteComm");
    }
}

OTF2_FlushType flush_always(void*, OTF2_FileType, OTF2_LocationRef, void*, bool) { return OTF2_FLUSH; }

// No post-flush callback: OTF2 would stamp a flush record with its time into the events, and
// this writer's flushes are no events of the job.
OTF2_FlushCallbacks flush_callbacks = {flush_always, nullptr};

struct CloseArchive {
    void operator()(OTF2_Archive* archive) const { OTF2_Archive_Close(archive); }
};

// The archive's files in `directory`: its anchor, its global definitions and the folder of
// its locations' files.
constexpr const char* kArchive = "traces";
constexpr const char* kArchiveFiles[] = {"traces.otf2", "traces.def", "traces"};

// A directory for the archive: OTF2 writes into no archive that is already there, and the
// trace of an earlier run with the same file name gives way, as that run's JSON does.
void make_room(const std::string& directory) {
    namespace fs = std::filesystem;
    std::error_code failed;
    fs::create_directories(directory, failed);
    if (failed) throw Failure{"cannot create " + directory + ": " + failed.message()};
    for (const char* name : kArchiveFiles) {
        fs::path earlier = fs::path(directory) / name;
        fs::remove_all(earlier, failed);
        if (failed) throw Failure{"cannot remove the earlier " + earlier.string() + ": " + failed.message()};
    }
}

void write(const Layout& layout, const std::string& directory) {
    make_room(directory);
    // Chunks of 1 MiB of events and 4 MiB of definitions, as OTF2's own examples.
    OTF2_Archive* archive = check(OTF2_Archive_Open(directory.c_str(), kArchive, OTF2_FILEMODE_WRITE,
                                                    1 << 20, 4 << 20, OTF2_SUBSTRATE_POSIX,
                                                    OTF2_COMPRESSION_NONE),
                                  "OTF2_Archive_Open(" + directory + ")");
    // Closed on an error too, unchecked: the error thrown is the one to report.
    std::unique_ptr<OTF2_Archive, CloseArchive> owner(archive);
    check(OTF2_Archive_SetFlushCallbacks(archive, &flush_callbacks, nullptr),
          "OTF2_Archive_SetFlushCallbacks");
    check(OTF2_Archive_SetSerialCollectiveCallbacks(archive), "OTF2_Archive_SetSerialCollectiveCallbacks");
    check(OTF2_Archive_SetCreator(archive, "Bamboo (--bamboo-trace)"), "OTF2_Archive_SetCreator");

    check(OTF2_Archive_OpenEvtFiles(archive), "OTF2_Archive_OpenEvtFiles");
    for (OTF2_LocationRef ref = 0; ref < layout.locations.size(); ++ref) {
        OTF2_EvtWriter* writer = check(OTF2_Archive_GetEvtWriter(archive, ref), "OTF2_Archive_GetEvtWriter");
        write_events(writer, layout.locations[ref]);
        check(OTF2_Archive_CloseEvtWriter(archive, writer), "OTF2_Archive_CloseEvtWriter");
    }
    check(OTF2_Archive_CloseEvtFiles(archive), "OTF2_Archive_CloseEvtFiles");

    // A location's local definitions map its own references to the global ones; these are
    // global already, and each location's are empty.
    check(OTF2_Archive_OpenDefFiles(archive), "OTF2_Archive_OpenDefFiles");
    for (OTF2_LocationRef ref = 0; ref < layout.locations.size(); ++ref) {
        OTF2_DefWriter* writer = check(OTF2_Archive_GetDefWriter(archive, ref), "OTF2_Archive_GetDefWriter");
        check(OTF2_Archive_CloseDefWriter(archive, writer), "OTF2_Archive_CloseDefWriter");
    }
    check(OTF2_Archive_CloseDefFiles(archive), "OTF2_Archive_CloseDefFiles");

    write_definitions(check(OTF2_Archive_GetGlobalDefWriter(archive), "OTF2_Archive_GetGlobalDefWriter"),
                      layout);
    check(OTF2_Archive_Close(owner.release()), "OTF2_Archive_Close");
}

}  // namespace

bool write_otf2(const JobTrace& job, const std::string& directory, std::string* error) {
    try {
        write(Layout(job), directory);
        return true;
    } catch (const Failure& failure) {
        *error = failure.message;
        return false;
    }
}

}  // namespace bamboo::trace

#else  // !BAMBOO_HAVE_OTF2

namespace bamboo::trace {

bool write_otf2(const JobTrace&, const std::string&, std::string* error) {
    *error = "this runtime was built without libotf2 (install libotf2-trace-dev and rebuild)";
    return false;
}

}  // namespace bamboo::trace

#endif
