// The second reader of OTF2 archives (otf2_read.hpp).
#include "otf2_read.hpp"

#include <otf2/otf2.h>

#include <algorithm>
#include <regex>
#include <set>
#include <tuple>

namespace otf2_read {
namespace {

// What the callbacks fill: the archive, and the names still to look up once every string is
// known (OTF2 does not say that a string is defined before what names it).
struct Reading {
    Archive* archive;
    std::map<std::uint32_t, std::string> strings;
    std::vector<std::pair<std::string*, std::uint32_t>> names;
    std::size_t groups = 0;

    void name(std::string* into, OTF2_StringRef ref) { names.emplace_back(into, ref); }
};

Reading& reading(void* data) { return *static_cast<Reading*>(data); }

OTF2_CallbackCode on_clock(void* data, std::uint64_t resolution, std::uint64_t offset, std::uint64_t length,
                           std::uint64_t) {
    Archive& a = *reading(data).archive;
    if (a.has_clock) a.errors.push_back("two ClockProperties definitions");
    a.has_clock = true;
    a.resolution = resolution;
    a.offset = offset;
    a.length = length;
    return OTF2_CALLBACK_SUCCESS;
}

OTF2_CallbackCode on_string(void* data, OTF2_StringRef self, const char* string) {
    if (!reading(data).strings.emplace(self, string).second)
        reading(data).archive->errors.push_back("string " + std::to_string(self) + " defined twice");
    return OTF2_CALLBACK_SUCCESS;
}

// Adds a definition to `into`, or says that its reference is taken.
template <typename Map>
typename Map::mapped_type* define(Reading& r, Map& into, typename Map::key_type self, const char* what) {
    auto [it, added] = into.try_emplace(self);
    if (!added) {
        r.archive->errors.push_back(std::string(what) + " " + std::to_string(self) + " defined twice");
        return nullptr;
    }
    return &it->second;
}

OTF2_CallbackCode on_node(void* data, OTF2_SystemTreeNodeRef self, OTF2_StringRef name, OTF2_StringRef class_name,
                          OTF2_SystemTreeNodeRef parent) {
    Reading& r = reading(data);
    if (Node* node = define(r, r.archive->nodes, self, "system tree node")) {
        r.name(&node->name, name);
        r.name(&node->class_name, class_name);
        node->parent = parent;
    }
    return OTF2_CALLBACK_SUCCESS;
}

OTF2_CallbackCode on_node_domain(void* data, OTF2_SystemTreeNodeRef node, OTF2_SystemTreeDomain domain) {
    Archive& a = *reading(data).archive;
    auto it = a.nodes.find(node);
    if (it == a.nodes.end()) a.errors.push_back("a domain of undefined system tree node " + std::to_string(node));
    else it->second.domains.push_back(domain);
    return OTF2_CALLBACK_SUCCESS;
}

OTF2_CallbackCode on_location_group(void* data, OTF2_LocationGroupRef self, OTF2_StringRef name,
                                    OTF2_LocationGroupType type, OTF2_SystemTreeNodeRef parent,
                                    OTF2_LocationGroupRef creator) {
    Reading& r = reading(data);
    if (LocationGroup* group = define(r, r.archive->location_groups, self, "location group")) {
        r.name(&group->name, name);
        group->type = type;
        group->parent = parent;
        group->creator = creator;
    }
    return OTF2_CALLBACK_SUCCESS;
}

OTF2_CallbackCode on_location(void* data, OTF2_LocationRef self, OTF2_StringRef name, OTF2_LocationType type,
                              std::uint64_t events, OTF2_LocationGroupRef group) {
    Reading& r = reading(data);
    if (Location* location = define(r, r.archive->locations, self, "location")) {
        r.name(&location->name, name);
        location->type = type;
        location->events = events;
        location->group = group;
    }
    return OTF2_CALLBACK_SUCCESS;
}

OTF2_CallbackCode on_region(void* data, OTF2_RegionRef self, OTF2_StringRef name, OTF2_StringRef, OTF2_StringRef,
                            OTF2_RegionRole role, OTF2_Paradigm paradigm, OTF2_RegionFlag, OTF2_StringRef,
                            std::uint32_t, std::uint32_t) {
    Reading& r = reading(data);
    if (Region* region = define(r, r.archive->regions, self, "region")) {
        r.name(&region->name, name);
        region->role = role;
        region->paradigm = paradigm;
    }
    return OTF2_CALLBACK_SUCCESS;
}

OTF2_CallbackCode on_group(void* data, OTF2_GroupRef self, OTF2_StringRef name, OTF2_GroupType type,
                           OTF2_Paradigm paradigm, OTF2_GroupFlag flags, std::uint32_t size,
                           const std::uint64_t* members) {
    Reading& r = reading(data);
    if (Group* group = define(r, r.archive->groups, self, "group")) {
        r.name(&group->name, name);
        group->type = type;
        group->paradigm = paradigm;
        group->flags = flags;
        group->members.assign(members, members + size);
        group->order = r.groups;
    }
    ++r.groups;
    return OTF2_CALLBACK_SUCCESS;
}

OTF2_CallbackCode on_comm(void* data, OTF2_CommRef self, OTF2_StringRef name, OTF2_GroupRef group, OTF2_CommRef,
                          OTF2_CommFlag) {
    Reading& r = reading(data);
    if (Comm* comm = define(r, r.archive->comms, self, "communicator")) {
        r.name(&comm->name, name);
        comm->group = group;
    }
    return OTF2_CALLBACK_SUCCESS;
}

void add(void* data, OTF2_LocationRef location, Event event) {
    reading(data).archive->events[location].push_back(event);
}

OTF2_CallbackCode on_enter(OTF2_LocationRef location, OTF2_TimeStamp time, void* data, OTF2_AttributeList*,
                           OTF2_RegionRef region) {
    add(data, location, {Event::Type::enter, time, region});
    return OTF2_CALLBACK_SUCCESS;
}

OTF2_CallbackCode on_leave(OTF2_LocationRef location, OTF2_TimeStamp time, void* data, OTF2_AttributeList*,
                           OTF2_RegionRef region) {
    add(data, location, {Event::Type::leave, time, region});
    return OTF2_CALLBACK_SUCCESS;
}

OTF2_CallbackCode on_send(OTF2_LocationRef location, OTF2_TimeStamp time, void* data, OTF2_AttributeList*,
                          std::uint32_t receiver, OTF2_CommRef comm, std::uint32_t tag, std::uint64_t bytes) {
    add(data, location, {Event::Type::send, time, receiver, comm, tag, bytes});
    return OTF2_CALLBACK_SUCCESS;
}

OTF2_CallbackCode on_receive(OTF2_LocationRef location, OTF2_TimeStamp time, void* data, OTF2_AttributeList*,
                             std::uint32_t sender, OTF2_CommRef comm, std::uint32_t tag, std::uint64_t bytes) {
    add(data, location, {Event::Type::receive, time, sender, comm, tag, bytes});
    return OTF2_CALLBACK_SUCCESS;
}

bool ok(Archive& archive, OTF2_ErrorCode code, const char* call) {
    if (code == OTF2_SUCCESS) return true;
    archive.errors.push_back(std::string(call) + ": " + OTF2_Error_GetName(code) + " (" +
                             OTF2_Error_GetDescription(code) + ")");
    return false;
}

void read_definitions(OTF2_Reader* reader, Reading& r) {
    Archive& a = *r.archive;
    OTF2_GlobalDefReader* defs = OTF2_Reader_GetGlobalDefReader(reader);
    if (!defs) {
        a.errors.push_back("no global definitions");
        return;
    }
    OTF2_GlobalDefReaderCallbacks* callbacks = OTF2_GlobalDefReaderCallbacks_New();
    OTF2_GlobalDefReaderCallbacks_SetClockPropertiesCallback(callbacks, on_clock);
    OTF2_GlobalDefReaderCallbacks_SetStringCallback(callbacks, on_string);
    OTF2_GlobalDefReaderCallbacks_SetSystemTreeNodeCallback(callbacks, on_node);
    OTF2_GlobalDefReaderCallbacks_SetSystemTreeNodeDomainCallback(callbacks, on_node_domain);
    OTF2_GlobalDefReaderCallbacks_SetLocationGroupCallback(callbacks, on_location_group);
    OTF2_GlobalDefReaderCallbacks_SetLocationCallback(callbacks, on_location);
    OTF2_GlobalDefReaderCallbacks_SetRegionCallback(callbacks, on_region);
    OTF2_GlobalDefReaderCallbacks_SetGroupCallback(callbacks, on_group);
    OTF2_GlobalDefReaderCallbacks_SetCommCallback(callbacks, on_comm);
    ok(a, OTF2_Reader_RegisterGlobalDefCallbacks(reader, defs, callbacks, &r), "OTF2_Reader_RegisterGlobalDefCallbacks");
    OTF2_GlobalDefReaderCallbacks_Delete(callbacks);
    std::uint64_t read = 0;
    ok(a, OTF2_Reader_ReadAllGlobalDefinitions(reader, defs, &read), "OTF2_Reader_ReadAllGlobalDefinitions");
    OTF2_Reader_CloseGlobalDefReader(reader, defs);
    for (auto [into, ref] : r.names) {
        auto it = r.strings.find(ref);
        if (it == r.strings.end()) a.errors.push_back("a name refers to undefined string " + std::to_string(ref));
        else *into = it->second;
    }
}

void read_events(OTF2_Reader* reader, Reading& r) {
    Archive& a = *r.archive;
    for (const auto& [location, _] : a.locations) ok(a, OTF2_Reader_SelectLocation(reader, location), "OTF2_Reader_SelectLocation");
    // A location's local definitions (its mappings onto the global ones) are read before its
    // events; an archive may have none.
    bool local_definitions = OTF2_Reader_OpenDefFiles(reader) == OTF2_SUCCESS;
    if (!ok(a, OTF2_Reader_OpenEvtFiles(reader), "OTF2_Reader_OpenEvtFiles")) return;
    for (const auto& [location, _] : a.locations) {
        if (local_definitions) {
            if (OTF2_DefReader* defs = OTF2_Reader_GetDefReader(reader, location)) {
                std::uint64_t read = 0;
                ok(a, OTF2_Reader_ReadAllLocalDefinitions(reader, defs, &read), "OTF2_Reader_ReadAllLocalDefinitions");
                OTF2_Reader_CloseDefReader(reader, defs);
            }
        }
        if (!OTF2_Reader_GetEvtReader(reader, location))
            a.errors.push_back("no event reader for location " + std::to_string(location));
    }
    if (local_definitions) OTF2_Reader_CloseDefFiles(reader);

    OTF2_GlobalEvtReader* events = OTF2_Reader_GetGlobalEvtReader(reader);
    if (!events) {
        a.errors.push_back("no global event reader");
        OTF2_Reader_CloseEvtFiles(reader);
        return;
    }
    OTF2_GlobalEvtReaderCallbacks* callbacks = OTF2_GlobalEvtReaderCallbacks_New();
    OTF2_GlobalEvtReaderCallbacks_SetEnterCallback(callbacks, on_enter);
    OTF2_GlobalEvtReaderCallbacks_SetLeaveCallback(callbacks, on_leave);
    OTF2_GlobalEvtReaderCallbacks_SetMpiSendCallback(callbacks, on_send);
    OTF2_GlobalEvtReaderCallbacks_SetMpiRecvCallback(callbacks, on_receive);
    ok(a, OTF2_Reader_RegisterGlobalEvtCallbacks(reader, events, callbacks, &r), "OTF2_Reader_RegisterGlobalEvtCallbacks");
    OTF2_GlobalEvtReaderCallbacks_Delete(callbacks);
    ok(a, OTF2_Reader_ReadAllGlobalEvents(reader, events, &a.events_read), "OTF2_Reader_ReadAllGlobalEvents");
    OTF2_Reader_CloseGlobalEvtReader(reader, events);
    OTF2_Reader_CloseEvtFiles(reader);
}

std::string str(std::uint64_t n) { return std::to_string(n); }

std::string location_name(const Archive& a, std::uint64_t ref) {
    auto it = a.locations.find(ref);
    return "location " + str(ref) + (it == a.locations.end() ? "" : " ('" + it->second.name + "')");
}

// Problems, up to a hundred: an archive broken throughout need not list every event.
struct Problems {
    std::vector<std::string> list;
    void operator()(const std::string& problem) {
        if (list.size() < 100) list.push_back(problem);
        else if (list.size() == 100) list.push_back("(and more)");
    }
};

// The ranks of a communicator, as locations: rank -> location, and back.
struct Ranks {
    bool valid = false;
    std::map<std::uint32_t, std::uint64_t> location;       // by rank
    std::map<std::uint64_t, std::uint32_t> rank;           // by location
    std::map<std::uint32_t, std::uint32_t> group_rank;     // by location group: its first rank
};

// The COMM_LOCATIONS group of a paradigm, if any.
const Group* comm_locations(const Archive& a, std::uint8_t paradigm) {
    for (const auto& [ref, group] : a.groups) {
        if (group.type == OTF2_GROUP_TYPE_COMM_LOCATIONS && group.paradigm == paradigm) return &group;
    }
    return nullptr;
}

Ranks ranks_of(const Archive& a, const Comm& comm) {
    Ranks ranks;
    auto g = a.groups.find(comm.group);
    if (g == a.groups.end() || g->second.type != OTF2_GROUP_TYPE_COMM_GROUP) return ranks;
    const Group& group = g->second;
    const Group* all = comm_locations(a, group.paradigm);
    if (!all) return ranks;
    bool global = group.flags & OTF2_GROUP_FLAG_GLOBAL_MEMBERS;
    for (std::size_t i = 0; i < group.members.size(); ++i) {
        std::uint64_t index = group.members[i];
        if (index >= all->members.size()) return ranks;
        auto rank = static_cast<std::uint32_t>(global ? index : i);
        std::uint64_t location = all->members[index];
        ranks.location[rank] = location;
        ranks.rank.emplace(location, rank);
        auto l = a.locations.find(location);
        if (l != a.locations.end()) ranks.group_rank.emplace(l->second.group, rank);
    }
    ranks.valid = true;
    return ranks;
}

}  // namespace

Archive read(const std::string& anchor) {
    Archive archive;
    OTF2_Reader* reader = OTF2_Reader_Open(anchor.c_str());
    if (!reader) {
        archive.errors.push_back("OTF2_Reader_Open(" + anchor + ") failed");
        return archive;
    }
    Reading r{&archive, {}, {}};
    if (ok(archive, OTF2_Reader_SetSerialCollectiveCallbacks(reader), "OTF2_Reader_SetSerialCollectiveCallbacks")) {
        read_definitions(reader, r);
        std::uint64_t locations = 0;
        ok(archive, OTF2_Reader_GetNumberOfLocations(reader, &locations), "OTF2_Reader_GetNumberOfLocations");
        if (locations != archive.locations.size()) {
            archive.errors.push_back("the anchor file counts " + str(locations) + " locations, the definitions " +
                                     str(archive.locations.size()));
        }
        read_events(reader, r);
    }
    ok(archive, OTF2_Reader_Close(reader), "OTF2_Reader_Close");
    return archive;
}

std::vector<std::string> otf2_problems(const Archive& a, std::vector<Pair>* pairs) {
    Problems problem;
    for (const std::string& error : a.errors) problem("reading: " + error);

    if (!a.has_clock) problem("no ClockProperties");
    else if (a.resolution == 0) problem("a clock of 0 ticks per second");

    // The system tree, and the location groups in it.
    bool root = false;
    for (const auto& [ref, node] : a.nodes) {
        if (node.parent == OTF2_UNDEFINED_SYSTEM_TREE_NODE) root = true;
        else if (!a.nodes.count(node.parent)) problem("system tree node " + str(ref) + "'s parent is undefined");
    }
    if (!root) problem("no root system tree node");
    std::map<std::uint32_t, std::map<std::uint8_t, int>> location_types;  // by group
    for (const auto& [ref, location] : a.locations) {
        ++location_types[location.group][location.type];
        if (!a.location_groups.count(location.group))
            problem(location_name(a, ref) + " is in undefined location group " + str(location.group));
    }
    for (const auto& [ref, group] : a.location_groups) {
        std::string which = "location group " + str(ref) + " ('" + group.name + "')";
        if (!a.nodes.count(group.parent)) problem(which + " is under undefined system tree node " + str(group.parent));
        std::map<std::uint8_t, int>& types = location_types[ref];
        auto creator = a.location_groups.find(group.creator);
        bool creator_process = creator != a.location_groups.end() && creator->second.type == OTF2_LOCATION_GROUP_TYPE_PROCESS;
        switch (group.type) {
        case OTF2_LOCATION_GROUP_TYPE_PROCESS:
            // OTF2 3.0: at least one CPU thread, any metric locations, no accelerator streams.
            if (types[OTF2_LOCATION_TYPE_CPU_THREAD] == 0) problem(which + ", a process, has no CPU thread location");
            if (types[OTF2_LOCATION_TYPE_ACCELERATOR_STREAM] > 0) problem(which + ", a process, has an accelerator stream");
            if (group.creator != OTF2_UNDEFINED_LOCATION_GROUP && !creator_process)
                problem(which + ", a process, was created by a location group that is no process");
            break;
        case OTF2_LOCATION_GROUP_TYPE_ACCELERATOR:
            if (types[OTF2_LOCATION_TYPE_ACCELERATOR_STREAM] == 0) problem(which + ", an accelerator, has no stream");
            if (types[OTF2_LOCATION_TYPE_CPU_THREAD] > 0) problem(which + ", an accelerator, has a CPU thread");
            if (!creator_process) problem(which + ", an accelerator, was not created by a process");
            break;
        default: problem(which + " is of unknown type " + str(group.type));
        }
    }

    // Every location's events: as many as its definition says, in time order, within the
    // trace's length, regions defined, entered and left in turn.
    std::uint64_t known = 0;
    for (const auto& [ref, events] : a.events) {
        if (!a.locations.count(ref)) problem("events of undefined " + location_name(a, ref));
    }
    for (const auto& [ref, location] : a.locations) {
        std::string where = location_name(a, ref);
        auto it = a.events.find(ref);
        static const std::vector<Event> none;
        const std::vector<Event>& events = it == a.events.end() ? none : it->second;
        known += events.size();
        if (events.size() != location.events)
            problem(where + " has " + str(events.size()) + " events, its definition says " + str(location.events));
        std::vector<std::uint32_t> open;
        std::uint64_t last = 0;
        for (const Event& e : events) {
            std::string at = where + " at " + str(e.time);
            if (e.time < last) problem(at + ": before the event ahead of it, at " + str(last));
            last = std::max(last, e.time);
            if (e.time < a.offset || e.time - a.offset > a.length) problem(at + ": outside the trace's length");
            if (e.type != Event::Type::enter && e.type != Event::Type::leave) continue;
            if (!a.regions.count(e.ref)) problem(at + ": undefined region " + str(e.ref));
            if (e.type == Event::Type::enter) {
                open.push_back(e.ref);
            } else if (open.empty()) {
                problem(at + ": leaves region " + str(e.ref) + ", entered nowhere");
            } else if (open.back() != e.ref) {
                problem(at + ": leaves region " + str(e.ref) + " inside region " + str(open.back()));
                open.pop_back();
            } else {
                open.pop_back();
            }
        }
        if (!open.empty()) problem(where + " never leaves " + str(open.size()) + " region(s) it entered");
    }
    if (known != a.events_read)
        problem(str(a.events_read) + " events read, of which " + str(a.events_read - known) + " neither Enter, Leave, MpiSend nor MpiRecv");

    // Groups and communicators.
    std::set<std::uint8_t> paradigms;
    for (const auto& [ref, group] : a.groups) {
        std::string which = "group " + str(ref) + " ('" + group.name + "')";
        if (group.type == OTF2_GROUP_TYPE_COMM_LOCATIONS) {
            if (!paradigms.insert(group.paradigm).second) problem(which + ": a second COMM_LOCATIONS of its paradigm");
            std::set<std::uint64_t> seen;
            for (std::uint64_t member : group.members) {
                if (!a.locations.count(member)) problem(which + ": member " + str(member) + " is no location");
                if (!seen.insert(member).second) problem(which + ": " + location_name(a, member) + " twice");
            }
            // The MPI convention: an MPI rank's CPU thread is in the location group of its number,
            // where all are processes.
            bool processes = std::all_of(a.location_groups.begin(), a.location_groups.end(), [](const auto& g) {
                return g.second.type == OTF2_LOCATION_GROUP_TYPE_PROCESS;
            });
            if (group.paradigm == OTF2_PARADIGM_MPI && processes) {
                for (std::size_t rank = 0; rank < group.members.size(); ++rank) {
                    auto l = a.locations.find(group.members[rank]);
                    if (l != a.locations.end() && l->second.type == OTF2_LOCATION_TYPE_CPU_THREAD && l->second.group != rank)
                        problem("MPI rank " + str(rank) + " is " + location_name(a, l->first) + ", of location group " +
                                str(l->second.group));
                }
            }
        } else if (group.type == OTF2_GROUP_TYPE_COMM_GROUP) {
            const Group* all = comm_locations(a, group.paradigm);
            if (!all || all->order > group.order) {
                problem(which + ": a COMM_GROUP before, or without, a COMM_LOCATIONS of its paradigm");
                continue;
            }
            for (std::uint64_t member : group.members) {
                if (member >= all->members.size()) problem(which + ": member " + str(member) + " is no rank of its paradigm");
            }
        }
    }
    std::map<std::uint32_t, Ranks> ranks;
    for (const auto& [ref, comm] : a.comms) {
        ranks[ref] = ranks_of(a, comm);
        if (!ranks[ref].valid) problem("communicator " + str(ref) + " ('" + comm.name + "') has no valid COMM_GROUP");
    }

    // Messages: the n-th send from one rank to another with a tag on a communicator is the
    // n-th such receive. A send is from the rank whose location it is on, or else from the
    // rank of a location of its location group (a process's other thread); a receive is by
    // the same token.
    using Stream = std::tuple<std::uint32_t, std::uint32_t, std::uint32_t, std::uint32_t>;  // comm, from, to, tag
    struct End {
        std::uint64_t location;
        const Event* event;
    };
    std::map<Stream, std::vector<End>> sends, receives;
    for (const auto& [ref, events] : a.events) {
        auto l = a.locations.find(ref);
        for (const Event& e : events) {
            if (e.type != Event::Type::send && e.type != Event::Type::receive) continue;
            std::string at = location_name(a, ref) + " at " + str(e.time);
            auto r = ranks.find(e.comm);
            if (r == ranks.end() || !r->second.valid) {
                problem(at + ": a message on undefined or invalid communicator " + str(e.comm));
                continue;
            }
            const Ranks& comm = r->second;
            std::uint32_t own;
            if (auto it = comm.rank.find(ref); it != comm.rank.end()) {
                own = it->second;
            } else if (auto it = l == a.locations.end() ? comm.group_rank.end() : comm.group_rank.find(l->second.group);
                       it != comm.group_rank.end()) {
                own = it->second;
            } else {
                problem(at + ": a message from or to no rank of communicator " + str(e.comm));
                continue;
            }
            if (!comm.location.count(e.ref)) {
                problem(at + ": a message from or to rank " + str(e.ref) + ", not in communicator " + str(e.comm));
                continue;
            }
            if (e.type == Event::Type::send) sends[{e.comm, own, e.ref, e.tag}].push_back({ref, &e});
            else receives[{e.comm, e.ref, own, e.tag}].push_back({ref, &e});
        }
    }
    auto by_time = [](const End& x, const End& y) { return x.event->time < y.event->time; };
    std::set<Stream> streams;
    for (auto* ends_of : {&sends, &receives}) {
        for (auto& [stream, ends] : *ends_of) {
            streams.insert(stream);
            std::stable_sort(ends.begin(), ends.end(), by_time);
        }
    }
    for (const Stream& stream : streams) {
        const std::vector<End>& sent = sends[stream];
        const std::vector<End>& received = receives[stream];
        auto [comm, from, to, tag] = stream;
        std::string which = "communicator " + str(comm) + ", rank " + str(from) + " to rank " + str(to) + ", tag " + str(tag);
        if (sent.size() != received.size())
            problem(which + ": " + str(sent.size()) + " sends, " + str(received.size()) + " receives");
        for (std::size_t i = 0; i < std::min(sent.size(), received.size()); ++i) {
            const Event& s = *sent[i].event;
            const Event& r = *received[i].event;
            if (s.bytes != r.bytes) {
                problem(which + ": message " + str(i) + " sent with " + str(s.bytes) + " bytes, received with " +
                        str(r.bytes));
            }
            if (pairs) pairs->push_back({sent[i].location, received[i].location, comm, tag, s.bytes, s.time, r.time});
        }
    }
    return problem.list;
}

std::vector<std::string> bamboo_problems(const Archive& a) {
    Problems problem;
    for (const auto& [ref, group] : a.location_groups) {
        std::string which = "location group " + str(ref) + " ('" + group.name + "')";
        if (group.type != OTF2_LOCATION_GROUP_TYPE_PROCESS) problem(which + " is no process");
        if (group.name != "process " + str(ref)) problem(which + " is not named 'process " + str(ref) + "'");
        auto node = a.nodes.find(group.parent);
        if (node != a.nodes.end()) {
            const std::vector<std::uint8_t>& domains = node->second.domains;
            if (node->second.parent != OTF2_UNDEFINED_SYSTEM_TREE_NODE ||
                std::find(domains.begin(), domains.end(), OTF2_SYSTEM_TREE_DOMAIN_MACHINE) == domains.end())
                problem(which + " is not under a root system tree node of domain MACHINE");
        }
    }
    static const std::regex lane(R"(worker \d+|comm engine|vrank (\d+))");
    std::map<std::uint32_t, std::set<std::string>> names;  // by location group
    std::map<long, std::uint64_t> tasks;                   // by vrank
    std::smatch m;
    for (const auto& [ref, location] : a.locations) {
        std::string which = location_name(a, ref);
        if (location.type != OTF2_LOCATION_TYPE_CPU_THREAD) problem(which + " is no CPU thread");
        if (!names[location.group].insert(location.name).second) problem(which + ": a second of that name in its process");
        if (!std::regex_match(location.name, m, lane)) problem(which + " is named as no lane");
        else if (m[1].matched && !tasks.emplace(std::stol(m[1]), ref).second) problem(which + ": a second of that vrank");
    }
    for (const auto& [ref, names_in] : names) {
        auto group = a.location_groups.find(ref);
        std::string which = "location group " + str(ref) + (group == a.location_groups.end() ? "" : " ('" + group->second.name + "')");
        if (!names_in.count("comm engine")) problem(which + " has no comm engine");
    }
    for (const auto& [ref, region] : a.regions) {
        if (region.paradigm != OTF2_PARADIGM_USER) problem("region " + str(ref) + " ('" + region.name + "') is not of paradigm USER");
    }
    for (const auto& [ref, group] : a.groups) {
        if (group.paradigm != OTF2_PARADIGM_USER) problem("group " + str(ref) + " ('" + group.name + "') is not of paradigm USER");
    }
    // The tasks are the USER paradigm's ranks, in vrank order; every communicator has them all.
    const Group* all = comm_locations(a, OTF2_PARADIGM_USER);
    std::vector<std::uint64_t> in_order;
    for (const auto& [vrank, ref] : tasks) in_order.push_back(ref);
    if (!all) {
        if (!a.comms.empty()) problem("communicators, but no COMM_LOCATIONS group of paradigm USER");
    } else if (all->members != in_order) {
        problem("the COMM_LOCATIONS group is not the tasks' locations in vrank order");
    }
    for (const auto& [ref, comm] : a.comms) {
        auto g = a.groups.find(comm.group);
        if (g == a.groups.end()) continue;
        std::vector<std::uint64_t> every(in_order.size());
        for (std::size_t i = 0; i < every.size(); ++i) every[i] = i;
        if (!(g->second.flags & OTF2_GROUP_FLAG_GLOBAL_MEMBERS) || g->second.members != every)
            problem("communicator " + str(ref) + " ('" + comm.name + "') does not have every task, by its global rank");
    }
    // Messages go from a task's location to a task's, and arrive no earlier than they leave.
    std::vector<Pair> pairs;
    otf2_problems(a, &pairs);
    auto task = [&](std::uint64_t ref) {
        auto l = a.locations.find(ref);
        return l != a.locations.end() && l->second.name.rfind("vrank ", 0) == 0;
    };
    for (const auto& [ref, events] : a.events) {
        if (task(ref)) continue;
        for (const Event& e : events) {
            if (e.type == Event::Type::send || e.type == Event::Type::receive)
                problem(location_name(a, ref) + " at " + str(e.time) + ": a message on a lane that is no task's");
        }
    }
    for (const Pair& p : pairs) {
        if (p.received < p.sent) {
            problem("a message from " + location_name(a, p.from) + " at " + str(p.sent) + " received by " +
                    location_name(a, p.to) + " at " + str(p.received) + ", before");
        }
    }
    return problem.list;
}

namespace {

using namespace bamboo::trace;

std::string lane_name(const Lane& lane) {
    switch (lane.kind) {
    case LaneKind::worker: return "worker " + std::to_string(lane.index);
    case LaneKind::engine: return "comm engine";
    case LaneKind::task: return "vrank " + std::to_string(lane.index);
    }
    return "?";
}

std::string region_name(const Span& span) {
    switch (span.kind) {
    case SpanKind::task: return "vrank " + std::to_string(span.vrank);
    case SpanKind::idle: return "idle";
    case SpanKind::engine: return "progress";
    case SpanKind::wait: return span.call;
    }
    return "?";
}

// A lane's Enters and Leaves, as (Enter?, time, region).
using Edges = std::vector<std::tuple<bool, std::uint64_t, std::string>>;

std::string show(const Edges& edges) {
    std::string out;
    for (const auto& [enter, time, region] : edges)
        out += std::string(out.empty() ? "" : ", ") + (enter ? "enter " : "leave ") + region + " at " + str(time);
    return "[" + out + "]";
}

// A message as the model has it: from (process, vrank) to (process, vrank), communicator,
// tag, size, sent, received.
using Sent = std::tuple<int, int, int, int, std::string, std::uint32_t, std::uint64_t, std::uint64_t, std::uint64_t>;

std::string show(const Sent& m) {
    auto [from_p, from, to_p, to, comm, tag, bytes, sent, received] = m;
    return "vrank " + std::to_string(from) + " (process " + std::to_string(from_p) + ") to vrank " + std::to_string(to) +
           " (process " + std::to_string(to_p) + "), " + comm + ", tag " + str(tag) + ", " + str(bytes) + " bytes, " +
           str(sent) + " to " + str(received);
}

}  // namespace

std::vector<std::string> model_differences(const Archive& a, const JobTrace& job) {
    Problems problem;
    // The processes and their lanes.
    std::map<std::uint32_t, std::string> processes;
    for (const ProcessSummary& p : job.processes) processes[static_cast<std::uint32_t>(p.process)] = "process " + std::to_string(p.process);
    std::map<std::uint32_t, std::string> groups;
    for (const auto& [ref, group] : a.location_groups) groups[ref] = group.name;
    if (groups != processes) problem("the location groups are not the job's processes");
    std::map<std::pair<std::uint32_t, std::string>, std::uint64_t> located;  // (group, name) -> location
    for (const auto& [ref, location] : a.locations) located[{location.group, location.name}] = ref;
    std::set<std::pair<std::uint32_t, std::string>> lanes;
    for (const ProcessSummary& p : job.processes) {
        auto group = static_cast<std::uint32_t>(p.process);
        for (int w = 0; w < p.workers; ++w) lanes.insert({group, lane_name({p.process, LaneKind::worker, w})});
        lanes.insert({group, "comm engine"});
        for (int v : p.vranks) lanes.insert({group, lane_name({p.process, LaneKind::task, v})});
    }
    for (const auto& lane : lanes) {
        if (!located.count(lane)) problem("no location '" + lane.second + "' in process " + str(lane.first));
    }
    for (const auto& [lane, ref] : located) {
        if (!lanes.count(lane)) problem(location_name(a, ref) + " is no lane of process " + str(lane.first));
    }

    // The spans on each lane.
    std::map<std::uint64_t, Edges> expected;
    for (const Span& s : job.spans) {
        auto it = located.find({static_cast<std::uint32_t>(s.lane.process), lane_name(s.lane)});
        if (it == located.end()) continue;
        expected[it->second].emplace_back(true, s.begin, region_name(s));
        expected[it->second].emplace_back(false, s.end, region_name(s));
    }
    for (const auto& [ref, location] : a.locations) {
        Edges read;
        auto events = a.events.find(ref);
        if (events != a.events.end()) {
            for (const Event& e : events->second) {
                if (e.type != Event::Type::enter && e.type != Event::Type::leave) continue;
                auto region = a.regions.find(e.ref);
                read.emplace_back(e.type == Event::Type::enter, e.time, region == a.regions.end() ? "?" : region->second.name);
            }
        }
        if (read != expected[ref]) problem(location_name(a, ref) + ": spans " + show(read) + ", the model's " + show(expected[ref]));
    }

    // The messages.
    std::multiset<Sent> model, paired;
    for (const Message& m : job.messages) {
        model.insert({m.sent_on.process, m.from_vrank, m.arrived_on.process, m.arrived_on.index,
                      m.comm.empty() ? "unnamed communicator" : m.comm, static_cast<std::uint32_t>(m.tag), m.bytes,
                      static_cast<std::uint64_t>(m.sent), static_cast<std::uint64_t>(m.arrived)});
    }
    std::vector<Pair> pairs;
    otf2_problems(a, &pairs);
    auto task = [&](std::uint64_t ref) -> std::pair<int, int> {
        auto l = a.locations.find(ref);
        if (l == a.locations.end() || l->second.name.rfind("vrank ", 0) != 0) return {-1, -1};
        return {static_cast<int>(l->second.group), std::stoi(l->second.name.substr(6))};
    };
    for (const Pair& p : pairs) {
        auto [from_p, from] = task(p.from);
        auto [to_p, to] = task(p.to);
        auto comm = a.comms.find(p.comm);
        paired.insert({from_p, from, to_p, to, comm == a.comms.end() ? "?" : comm->second.name, p.tag, p.bytes, p.sent,
                       p.received});
    }
    for (auto m = model.begin(); m != model.end(); m = model.upper_bound(*m)) {
        if (paired.count(*m) < model.count(*m)) problem("the model's message " + show(*m) + " is not in the archive");
    }
    for (auto m = paired.begin(); m != paired.end(); m = paired.upper_bound(*m)) {
        if (model.count(*m) < paired.count(*m)) problem("the archive's message " + show(*m) + " is not the model's");
    }
    return problem.list;
}

}  // namespace otf2_read
