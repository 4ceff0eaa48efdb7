// Communicators over virtual ranks and their groups.
//
// A communicator is an ordered list of member tasks (rank r is world vrank vranks[r]) and a
// context: the number its messages carry, so that they match only receives on the same
// communicator. Collectives use the context + 1, so that their messages never match the
// program's own point-to-point receives.
//
// An intercommunicator (MPI_Intercomm_create) joins two disjoint groups: its members are its
// own group, and the ranks its point-to-point calls name are those of the other, remote
// group. Its collectives run over the intracommunicator of each group (local()) and between
// the two groups' leaders (rank 0 of each).
//
// Contexts are agreed when a communicator is made: MPI_Comm_split and the others are
// collective over the parent, and the new communicator takes the largest "next free context"
// among the parent's members. So a context is unique among the communicators of any one task,
// which is all matching needs (a message is matched in its receiving task's mailbox), and
// none is ever used twice by a task.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "communicators/local_state.hpp"
#include "communicators/topology.hpp"

namespace bamboo {

constexpr int kWorldContext = 0;
constexpr int kSelfContext = 2;
// The comm directives' communicator (bamboo_comm_world): MPI_COMM_WORLD's tasks, a context of
// its own that every task knows without agreeing on it.
constexpr int kDirectivesContext = 4;
constexpr int kFirstFreeContext = 6;

class Communicator {
public:
    // `vf` tells which process hosts each member (vrank / vf), for the collectives.
    Communicator(int context, std::vector<int> vranks, int vf, std::string name,
                 std::optional<Topology> topology = std::nullopt);

    // An intercommunicator between this communicator's group and `remote` (world vranks);
    // `local` is the intracommunicator of this group, on a context of its own.
    void join_remote_group(std::vector<int> remote, std::shared_ptr<const Communicator> local);

    int context() const { return context_; }
    int collective_context() const { return context_ + 1; }
    int size() const { return static_cast<int>(vranks_.size()); }
    int vrank_of(int rank) const { return vranks_[static_cast<std::size_t>(rank)]; }
    const std::vector<int>& vranks() const { return vranks_; }

    bool is_inter() const { return local_ != nullptr; }
    // The group point-to-point calls name: the remote group of an intercommunicator, else
    // the members.
    const std::vector<int>& peer_vranks() const { return is_inter() ? remote_vranks_ : vranks_; }
    int peer_count() const { return static_cast<int>(peer_vranks().size()); }
    int peer_vrank(int rank) const { return peer_vranks()[static_cast<std::size_t>(rank)]; }
    const Communicator* local() const { return local_.get(); }  // intercommunicators only
    // What reports call it: "MPI_COMM_WORLD", "the communicator from MPI_Comm_split at x.c:12".
    const std::string& name() const { return name_; }
    const Topology* topology() const { return topology_ ? &*topology_ : nullptr; }
    const CartTopology* cart() const { return topology_ ? std::get_if<CartTopology>(&*topology_) : nullptr; }

    // Members grouped by the process that hosts them, for collectives that combine within a
    // process before they cross processes. Processes are numbered in the order of their
    // lowest rank; members of a process in ascending rank order.
    int process_count() const { return static_cast<int>(process_start_.size()) - 1; }
    int process_index_of(int rank) const { return process_index_[static_cast<std::size_t>(rank)]; }
    // The ranks hosted by process index `p`: [begin, end) of a sorted array.
    const int* members_begin(int p) const { return &members_[static_cast<std::size_t>(process_start_[p])]; }
    const int* members_end(int p) const { return &members_[static_cast<std::size_t>(process_start_[p + 1])]; }
    int member_count(int p) const { return process_start_[p + 1] - process_start_[p]; }

private:
    int context_;
    std::vector<int> vranks_;
    std::string name_;
    std::optional<Topology> topology_;
    std::vector<int> process_index_;  // by rank
    std::vector<int> process_start_;  // into members_, one past the end last
    std::vector<int> members_;
    std::vector<int> remote_vranks_;
    std::shared_ptr<const Communicator> local_;
};

// A communicator as a task holds it (in its table of communicators it made): the shared
// object and the task's rank in it.
struct CommEntry {
    std::shared_ptr<const Communicator> comm;
    int rank = 0;
    CommLocal local;
};

struct WindowPart;  // messaging/one_sided.hpp

// A window as a task holds it: the window's own communicator (a duplicate of the one it was
// made over), the task's rank in it, what the task keeps of it, and its part of the window as
// one-sided operations reach it.
struct WindowEntry {
    std::shared_ptr<const Communicator> comm;
    int rank = 0;
    WindowLocal local;
    std::shared_ptr<WindowPart> part;
    // The memory MPI_Win_allocate made for this part, or MPI_Win_allocate_shared for the whole
    // window (every member's part, in rank order), freed with the window.
    std::shared_ptr<char> allocated;
    // MPI_Win_allocate_shared with the alloc_shared_noncontig hint: an empty part's address is
    // NULL, as Open MPI and MPICH give it (without the hint, the address after the part before).
    bool empty_parts_null = false;
};

// A communicator as the calling task sees it.
struct CommView {
    const Communicator* comm;
    int rank;

    int size() const { return comm->size(); }
    int context() const { return comm->context(); }
};

// A group: an ordered set of tasks (world vranks), as MPI_Comm_group gives.
using Group = std::vector<int>;

// Positions of `vranks` in `group`, MPI_UNDEFINED where absent.
std::vector<int> ranks_in_group(const Group& group, const std::vector<int>& vranks);

}  // namespace bamboo
