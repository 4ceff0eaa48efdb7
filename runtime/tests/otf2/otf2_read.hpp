// A second reader of the OTF2 archives trace/otf2_writer writes, beside otf2-print: it reads
// an archive with libotf2's own reader API (OTF2_Reader, its global definition and global
// event readers) and says what in it breaks OTF2 3.0's rules (OTF2_Definitions.h) or Bamboo's
// mapping of a job onto them (trace/otf2_writer.cpp, docs/tracing.md), and, given the job's
// model, what differs from it. Used by unit/otf2_reader_test.cpp and by otf2_check, which
// checks the archive of a real run.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "trace/job_trace.hpp"

namespace otf2_read {

struct Node {
    std::string name, class_name;
    std::uint32_t parent = 0;  // OTF2_UNDEFINED_SYSTEM_TREE_NODE for a root
    std::vector<std::uint8_t> domains;
};

struct LocationGroup {
    std::string name;
    std::uint8_t type = 0;
    std::uint32_t parent = 0;   // a system tree node
    std::uint32_t creator = 0;  // a location group, or OTF2_UNDEFINED_LOCATION_GROUP
};

struct Location {
    std::string name;
    std::uint8_t type = 0;
    std::uint64_t events = 0;  // as its definition counts them
    std::uint32_t group = 0;
};

struct Region {
    std::string name;
    std::uint8_t role = 0, paradigm = 0;
};

struct Group {
    std::string name;
    std::uint8_t type = 0, paradigm = 0;
    std::uint32_t flags = 0;
    std::vector<std::uint64_t> members;
    std::size_t order = 0;  // its place among the group definitions, from 0
};

struct Comm {
    std::string name;
    std::uint32_t group = 0;
};

struct Event {
    enum class Type : std::uint8_t { enter, leave, send, receive };
    Type type;
    std::uint64_t time = 0;
    std::uint32_t ref = 0;  // enter, leave: the region; send: the receiver's rank; receive: the sender's
    std::uint32_t comm = 0, tag = 0;
    std::uint64_t bytes = 0;
};

// An archive as read: its global definitions, every location's events in their order, and
// what went wrong reading it.
struct Archive {
    bool has_clock = false;
    std::uint64_t resolution = 0, offset = 0, length = 0;
    std::map<std::uint32_t, Node> nodes;
    std::map<std::uint32_t, LocationGroup> location_groups;
    std::map<std::uint64_t, Location> locations;
    std::map<std::uint32_t, Region> regions;
    std::map<std::uint32_t, Group> groups;
    std::map<std::uint32_t, Comm> comms;
    std::map<std::uint64_t, std::vector<Event>> events;  // by location
    std::uint64_t events_read = 0;  // every event record, whatever its type
    std::vector<std::string> errors;
};

// Reads the archive whose anchor file is `anchor` (DIR/traces.otf2).
Archive read(const std::string& anchor);

// A message as a reader pairs it: a send and the receive it matches.
struct Pair {
    std::uint64_t from, to;  // the sending and receiving locations
    std::uint32_t comm, tag;
    std::uint64_t bytes;
    std::uint64_t sent, received;
};

// What breaks OTF2's rules: the clock; the system tree; each location group's type and
// locations; each location's group; every location's events in time order, with as many as
// its definition says, Enters and Leaves nested and balanced; communicators and their groups;
// every send matched by a receive, and every receive by a send, a reader pairing them in
// order for each (communicator, sender, receiver, tag) as MPI's order rule has it. The pairs
// go to *pairs.
std::vector<std::string> otf2_problems(const Archive& archive, std::vector<Pair>* pairs = nullptr);

// What breaks Bamboo's mapping of a job (trace/otf2_writer.cpp): groups that are processes
// ("process N", numbered N) under a system tree node of domain MACHINE; CPU thread locations
// named as lanes; no MPI paradigm; the tasks' locations as the ranks of the messages'
// paradigm, in vrank order; a message sent from a task's location to a task's, received no
// earlier than sent.
std::vector<std::string> bamboo_problems(const Archive& archive);

// What differs from the job's model: the processes, their lanes, the spans on each lane, and
// the messages (from and to which task, communicator, tag, size, when sent and received).
std::vector<std::string> model_differences(const Archive& archive, const bamboo::trace::JobTrace& job);

}  // namespace otf2_read
