// The OTF2 writer (trace/otf2_writer.hpp).
//
// OTF2 is made to be written while a program runs, each process writing its own locations
// and the processes agreeing through collective callbacks. Here one process writes the whole
// job after the fact: the archive gets OTF2's serial collectives (a job of one writer), every
// location's events are written from the model, and the global definitions, which count each
// location's events, come last.
//
// Messages. OTF2 knows messages as MPI ones: a send names its receiver, and a receive its
// sender, by rank in a communicator, whose group maps ranks to locations. A task sends on its
// worker's lane and receives on its own, so the ranks here are lanes' ranks, not vranks: one
// communicator, "bamboo messages", has every location as a member, and a location's rank in
// it is its location number. A message is then an MpiSend on the sending task's worker,
// naming the receiving task's lane, and an MpiRecv on that lane, naming the worker: Vampir
// draws the line between the two. The message's own sender and receiver vranks are in the
// task spans around it. (OTF2 advises that an MPI rank's location be in the location group
// of the same number; here a process's lanes share its group, as its threads would.)
#include "trace/otf2_writer.hpp"

#if BAMBOO_HAVE_OTF2

#include <otf2/otf2.h>

#include <algorithm>
#include <cstdint>
#include <filesystem>
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

// The only communicator, and its two groups (see above).
constexpr OTF2_CommRef kMessages = 0;
constexpr OTF2_GroupRef kMessageLocations = 0;
constexpr OTF2_GroupRef kMessageRanks = 1;

// One event of a location.
struct Record {
    enum class Type : std::uint8_t { enter, leave, send, receive };
    Type type;
    OTF2_TimeStamp time;
    // enter, leave: the region; send, receive: the other end's rank in kMessages.
    std::uint32_t ref;
    std::uint32_t tag = 0;
    std::uint64_t bytes = 0;
};

struct Location {
    OTF2_StringRef name;
    OTF2_LocationGroupRef group;
    std::vector<Record> spans;     // Enter and Leave, in time order
    std::vector<Record> messages;  // sends and receives, in any order

    std::uint64_t events() const { return spans.size() + messages.size(); }
};

struct Region {
    OTF2_StringRef name;
    OTF2_RegionRole role;
    OTF2_Paradigm paradigm;
};

// Regions are told apart by name alone; a wait's role and paradigm are those of its call's
// first wait, which every wait in that call shares.
OTF2_RegionRole wait_role(WaitKind kind) {
    switch (kind) {
    case WaitKind::receive:
    case WaitKind::send: return OTF2_REGION_ROLE_POINT2POINT;
    case WaitKind::collective: return OTF2_REGION_ROLE_COLL_OTHER;
    default: return OTF2_REGION_ROLE_FUNCTION;
    }
}

// Everything the archive will hold, numbered as OTF2 refers to it: each vector is indexed by
// its definitions' references.
class Layout {
public:
    explicit Layout(const JobTrace& job) {
        empty = string("");
        machine = string("machine");
        comm_name = string("bamboo messages");
        for (std::size_t group = 0; group < job.processes.size(); ++group)
            add_process(job.processes[group], group);
        for (const Span& span : job.spans) add_span(span);
        for (const Message& message : job.messages)
            if (!message.rma) add_message(message);  // one-sided operations: not in the archive (docs/tracing.md)
    }

    std::vector<std::string> strings;
    std::vector<Region> regions;
    std::vector<OTF2_StringRef> groups;  // the processes' names
    std::vector<Location> locations;     // a location's number is also its rank in kMessages
    OTF2_StringRef empty, machine, comm_name;
    OTF2_TimeStamp length = 0;  // the last event's time

private:
    OTF2_StringRef string(const std::string& text) {
        auto ref = static_cast<OTF2_StringRef>(strings.size());
        auto [it, added] = string_refs_.try_emplace(text, ref);
        if (added) strings.push_back(text);
        return it->second;
    }

    OTF2_RegionRef region(const std::string& name, OTF2_RegionRole role, OTF2_Paradigm paradigm) {
        auto ref = static_cast<OTF2_RegionRef>(regions.size());
        auto [it, added] = region_refs_.try_emplace(name, ref);
        if (added) regions.push_back({string(name), role, paradigm});
        return it->second;
    }

    OTF2_RegionRef region(const Span& span) {
        switch (span.kind) {
        case SpanKind::task:
            return region("vrank " + std::to_string(span.vrank), OTF2_REGION_ROLE_FUNCTION,
                          OTF2_PARADIGM_USER);
        case SpanKind::idle: return region("idle", OTF2_REGION_ROLE_ARTIFICIAL, OTF2_PARADIGM_USER);
        case SpanKind::engine: return region("progress", OTF2_REGION_ROLE_FUNCTION, OTF2_PARADIGM_USER);
        case SpanKind::wait: break;
        }
        bool mpi = span.call.rfind("MPI_", 0) == 0;
        return region(span.call, wait_role(span.wait), mpi ? OTF2_PARADIGM_MPI : OTF2_PARADIGM_USER);
    }

    void add_location(const Lane& lane, OTF2_LocationGroupRef group) {
        auto [it, added] = location_refs_.try_emplace(key(lane), locations.size());
        if (!added) throw Failure{"the job's processes list " + where(lane) + " twice"};
        locations.push_back({string(lane_name(lane)), group, {}, {}});
    }

    void add_process(const ProcessSummary& process, OTF2_LocationGroupRef group) {
        groups.push_back(string("process " + std::to_string(process.process)));
        for (int worker = 0; worker < process.workers; ++worker)
            add_location({process.process, LaneKind::worker, worker}, group);
        add_location({process.process, LaneKind::engine, 0}, group);
        for (int vrank : process.vranks) add_location({process.process, LaneKind::task, vrank}, group);
    }

    OTF2_LocationRef location(const Lane& lane) const {
        auto it = location_refs_.find(key(lane));
        if (it == location_refs_.end())
            throw Failure{where(lane) + " is not one of the job's processes' lanes"};
        return it->second;
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

    void add_message(const Message& message) {
        OTF2_LocationRef sender = location(message.sent_on);
        OTF2_LocationRef receiver = location(message.arrived_on);
        // MPI tags are never negative, the runtime's own may be: OTF2's are unsigned, and keep
        // the bits.
        auto tag = static_cast<std::uint32_t>(message.tag);
        Record send{Record::Type::send, time(message.sent, message.sent_on), rank(receiver), tag,
                    message.bytes};
        Record receive{Record::Type::receive, time(message.arrived, message.arrived_on), rank(sender),
                       tag, message.bytes};
        locations[sender].messages.push_back(send);
        locations[receiver].messages.push_back(receive);
    }

    // A location's rank in kMessages.
    static std::uint32_t rank(OTF2_LocationRef location) { return static_cast<std::uint32_t>(location); }

    static std::tuple<int, LaneKind, int> key(const Lane& lane) {
        return {lane.process, lane.kind, lane.index};
    }

    std::map<std::string, OTF2_StringRef> string_refs_;
    std::map<std::string, OTF2_RegionRef> region_refs_;
    std::map<std::tuple<int, LaneKind, int>, OTF2_LocationRef> location_refs_;
};

// A location's events in time order: its spans' Enters and Leaves, with its sends and
// receives among them. One at the very time a span begins or ends goes inside that span, so
// that a message sent as a task's span ends is still the task's.
std::vector<Record> in_time_order(const Location& location) {
    std::vector<Record> points = location.messages;
    std::stable_sort(points.begin(), points.end(),
                     [](const Record& a, const Record& b) { return a.time < b.time; });
    std::vector<Record> out;
    out.reserve(location.spans.size() + points.size());
    auto point = points.begin();
    for (const Record& edge : location.spans) {
        bool leave = edge.type == Record::Type::leave;
        for (; point != points.end() && (leave ? point->time <= edge.time : point->time < edge.time); ++point)
            out.push_back(*point);
        out.push_back(edge);
    }
    out.insert(out.end(), point, points.end());
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
            check(OTF2_EvtWriter_MpiSend(writer, nullptr, r.time, r.ref, kMessages, r.tag, r.bytes),
                  "OTF2_EvtWriter_MpiSend");
            break;
        case Record::Type::receive:
            check(OTF2_EvtWriter_MpiRecv(writer, nullptr, r.time, r.ref, kMessages, r.tag, r.bytes),
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
    // The trace does not say which node each process ran on: one node holds them all.
    constexpr OTF2_SystemTreeNodeRef node = 0;
    check(OTF2_GlobalDefWriter_WriteSystemTreeNode(defs, node, layout.machine, layout.machine,
                                                   OTF2_UNDEFINED_SYSTEM_TREE_NODE),
          "OTF2_GlobalDefWriter_WriteSystemTreeNode");
    for (OTF2_LocationGroupRef ref = 0; ref < layout.groups.size(); ++ref) {
        check(OTF2_GlobalDefWriter_WriteLocationGroup(defs, ref, layout.groups[ref],
                                                      OTF2_LOCATION_GROUP_TYPE_PROCESS, node,
                                                      OTF2_UNDEFINED_LOCATION_GROUP),
              "OTF2_GlobalDefWriter_WriteLocationGroup");
    }
    // A task is a thread of a kind: its lane is a CPU thread like a worker's.
    for (OTF2_LocationRef ref = 0; ref < layout.locations.size(); ++ref) {
        const Location& location = layout.locations[ref];
        check(OTF2_GlobalDefWriter_WriteLocation(defs, ref, location.name, OTF2_LOCATION_TYPE_CPU_THREAD,
                                                 location.events(), location.group),
              "OTF2_GlobalDefWriter_WriteLocation");
    }
    for (OTF2_RegionRef ref = 0; ref < layout.regions.size(); ++ref) {
        const Region& region = layout.regions[ref];
        check(OTF2_GlobalDefWriter_WriteRegion(defs, ref, region.name, region.name, layout.empty,
                                               region.role, region.paradigm, OTF2_REGION_FLAG_NONE,
                                               layout.empty, 0, 0),
              "OTF2_GlobalDefWriter_WriteRegion");
    }
    // The messages' communicator: rank i is location i (see the top of this file).
    std::vector<std::uint64_t> members(layout.locations.size());
    for (std::size_t i = 0; i < members.size(); ++i) members[i] = i;
    auto size = static_cast<std::uint32_t>(members.size());
    check(OTF2_GlobalDefWriter_WriteGroup(defs, kMessageLocations, layout.comm_name,
                                          OTF2_GROUP_TYPE_COMM_LOCATIONS, OTF2_PARADIGM_MPI,
                                          OTF2_GROUP_FLAG_NONE, size, members.data()),
          "OTF2_GlobalDefWriter_WriteGroup");
    check(OTF2_GlobalDefWriter_WriteGroup(defs, kMessageRanks, layout.comm_name,
                                          OTF2_GROUP_TYPE_COMM_GROUP, OTF2_PARADIGM_MPI,
                                          OTF2_GROUP_FLAG_GLOBAL_MEMBERS, size, members.data()),
          "OTF2_GlobalDefWriter_WriteGroup");
    check(OTF2_GlobalDefWriter_WriteComm(defs, kMessages, layout.comm_name, kMessageRanks,
                                         OTF2_UNDEFINED_COMM, OTF2_COMM_FLAG_NONE),
          "OTF2_GlobalDefWriter_WriteComm");
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
