// Intercommunicators: two disjoint groups joined (communicators/communicator.hpp). Making one is
// collective over both groups: each group agrees within itself, over the intracommunicator
// of its own, and the two leaders (rank 0 of each group, or the leaders the program names)
// trade what their groups agreed.
#include <mpi.h>

#include <algorithm>
#include <memory>
#include <string>
#include <vector>

#include "bamboo.h"
#include "collectives/algorithms.hpp"
#include "collectives/channel.hpp"
#include "collectives/structure.hpp"
#include "messaging/rank.hpp"
#include "messaging/routes.hpp"
#include "messaging/send_receive.hpp"
#include "mpi/api.hpp"
#include "mpi/communicators.hpp"
#include "util/errors.hpp"

namespace bamboo {
namespace {

// What a group's leader tells the other's.
struct Side {
    int next_context;  // the largest next free context in the group
    int size;
    int high;          // MPI_Intercomm_merge
    int leader_vrank;
};

// An intercommunicator between the calling task's group (`local_vranks`) and `remote_vranks`,
// on context pairs `context` (its own) and `context` + 2 (its group's intracommunicator).
MPI_Comm adopt_inter(Rank& self, int context, const std::vector<int>& local_vranks, std::vector<int> remote_vranks,
                     const CommLocal& parent, const char* call, bamboo_site at) {
    int vf = self.routes().vf;
    std::string name = made_by(call, at);
    auto group = std::make_shared<Communicator>(context + 2, local_vranks, vf, "the group of " + name);
    auto inter = std::make_shared<Communicator>(context, local_vranks, vf, name);
    inter->join_remote_group(std::move(remote_vranks), group);
    int rank = static_cast<int>(std::find(local_vranks.begin(), local_vranks.end(), self.vrank()) - local_vranks.begin());
    return adopt_communicator(self, std::move(inter), rank, parent);
}

// The calling task's view of an intercommunicator's group.
CommView group_view(const CommView& inter) { return CommView{inter.comm->local(), inter.rank}; }

const CommView& checked_inter(const Rank& self, const CommView& view, const char* call, bamboo_site at) {
    if (!view.comm->is_inter())
        call_error(MPI_ERR_COMM, self.vrank(), call, at, "%s is not an intercommunicator", view.comm->name().c_str());
    return view;
}

// Between the two groups' leaders, over `inter`: this side's leader sends `mine` and returns
// the other's, which every member of this group then has.
Side trade_sides(CollectiveChannel& across, CollectiveChannel& group, const Side& mine) {
    Side theirs{};
    if (group.rank() == 0) {
        across.send(0, tag::kInterLeaders, &mine, sizeof mine);
        across.receive(0, tag::kInterLeaders, &theirs, sizeof theirs);
    }
    collectives::bcast(group, 0, &theirs, sizeof theirs);
    return theirs;
}

// A blocking point-to-point message between the leaders of MPI_Intercomm_create, on the
// program's peer communicator with the program's tag, as MPI has it.
void send_to_leader(Rank& self, const CommView& peer, int dest, int tag, const void* data, std::size_t bytes,
                    const char* call, bamboo_site at) {
    Request request;
    if (start_send(self, SendMode::standard, peer, dest, tag, raw_bytes(data, bytes), request, call, at))
        self.wait_for(request, call, at);
}

void receive_from_leader(Rank& self, const CommView& peer, int source, int tag, void* data, std::size_t bytes,
                         const char* call, bamboo_site at) {
    Request request;
    start_receive(self, *peer.comm, Pattern{source, tag, peer.context()}, raw_bytes(data, bytes), request, call, at);
    self.wait_for(request, call, at);
    if (request.bytes != bytes)
        call_error(MPI_ERR_ARG, self.vrank(), call, at,
                   "the remote leader's message has %zu bytes where %zu were expected", request.bytes, bytes);
}

// Both groups' proposals, each in its group's rank order: every member of both has them.
struct BothSides {
    Agreement ours;
    std::vector<Proposal> theirs;
};

BothSides agree_on_both_sides(CollectiveChannel& across, CollectiveChannel& group, int color, int key) {
    BothSides both;
    both.ours = agree(group, color, key);
    Side mine{both.ours.first_context, group.size(), 0, 0};
    Side other = trade_sides(across, group, mine);
    both.theirs.resize(static_cast<std::size_t>(other.size));
    if (group.rank() == 0) {
        across.send(0, tag::kInterLeaders, both.ours.proposals.data(), both.ours.proposals.size() * sizeof(Proposal));
        across.receive(0, tag::kInterLeaders, both.theirs.data(), both.theirs.size() * sizeof(Proposal));
    }
    collectives::bcast(group, 0, both.theirs.data(), both.theirs.size() * sizeof(Proposal));
    both.ours.first_context = std::max(both.ours.first_context, other.next_context);
    return both;
}

// The members of `vranks` whose proposal has `color`, ordered by key, then by rank.
std::vector<int> with_color(const std::vector<int>& vranks, const std::vector<Proposal>& proposals, int color) {
    std::vector<int> ranks;
    for (std::size_t r = 0; r < proposals.size(); ++r)
        if (proposals[r].color == color) ranks.push_back(static_cast<int>(r));
    std::stable_sort(ranks.begin(), ranks.end(), [&](int a, int b) {
        return proposals[static_cast<std::size_t>(a)].key < proposals[static_cast<std::size_t>(b)].key;
    });
    std::vector<int> out;
    for (int r : ranks) out.push_back(vranks[static_cast<std::size_t>(r)]);
    return out;
}

}  // namespace

MPI_Comm split_intercomm(Rank& self, const CommView& inter, const CommLocal& parent, int color, int key,
                         const char* call, bamboo_site at) {
    if (color < 0 && color != MPI_UNDEFINED)
        call_error(MPI_ERR_ARG, self.vrank(), call, at, "the color %d is negative (and not MPI_UNDEFINED)", color);
    CollectiveChannel across(self, inter, call, at);
    CollectiveChannel group(self, group_view(inter), call, at);
    BothSides both = agree_on_both_sides(across, group, color, key);
    // A new intercommunicator for each color both groups have: two context pairs each.
    std::vector<int> colors;
    for (const Proposal& p : both.ours.proposals)
        if (p.color != MPI_UNDEFINED) colors.push_back(p.color);
    for (const Proposal& p : both.theirs)
        if (p.color != MPI_UNDEFINED) colors.push_back(p.color);
    std::sort(colors.begin(), colors.end());
    colors.erase(std::unique(colors.begin(), colors.end()), colors.end());
    take_contexts(group, both.ours, 2 * static_cast<int>(colors.size()));
    if (color == MPI_UNDEFINED) return MPI_COMM_NULL;
    std::vector<int> local = with_color(inter.comm->vranks(), both.ours.proposals, color);
    std::vector<int> remote = with_color(inter.comm->peer_vranks(), both.theirs, color);
    if (remote.empty()) return MPI_COMM_NULL;  // MPI: no intercommunicator without a remote group
    int index = static_cast<int>(std::lower_bound(colors.begin(), colors.end(), color) - colors.begin());
    return adopt_inter(self, both.ours.first_context + 4 * index, local, std::move(remote), parent, call, at);
}

MPI_Comm create_intercomm(Rank& self, const CommView& inter, const CommLocal& parent, const Group& members,
                          const char* call, bamboo_site at) {
    // A split in which the group's members take color 0, ordered as the group orders them.
    auto me = std::find(members.begin(), members.end(), self.vrank());
    bool member = me != members.end();
    return split_intercomm(self, inter, parent, member ? 0 : MPI_UNDEFINED,
                           member ? static_cast<int>(me - members.begin()) : 0, call, at);
}

MPI_Comm dup_intercomm(Rank& self, const CommView& inter, const CommLocal& parent, const char* call, bamboo_site at) {
    CollectiveChannel across(self, inter, call, at);
    CollectiveChannel group(self, group_view(inter), call, at);
    Agreement agreement = agree(group, 0, 0);
    Side theirs = trade_sides(across, group, Side{agreement.first_context, inter.size(), 0, 0});
    agreement.first_context = std::max(agreement.first_context, theirs.next_context);
    take_contexts(group, agreement, 2);
    return adopt_inter(self, agreement.first_context, inter.comm->vranks(), inter.comm->peer_vranks(), parent, call,
                       at);
}

}  // namespace bamboo

using namespace bamboo;

extern "C" {

int bamboo_intercomm_create(bamboo_site at, MPI_Comm local_comm, int local_leader, MPI_Comm peer_comm,
                            int remote_leader, int tag, MPI_Comm* newintercomm) {
    return checked_call(local_comm, [&]() -> int {
        const char* call = "MPI_Intercomm_create";
        Rank& self = calling_rank(call, at);
        checked_out(self, newintercomm, call, at);
        CommView local = resolve_comm(self, local_comm, call, at);
        intra_only(self, local, call, at);
        check_rank(self, local, local_leader, "the local leader", MPI_ERR_RANK, call, at);
        CollectiveChannel group(self, local, call, at);
        Agreement agreement = agree(group, 0, 0);
        Side theirs{};
        std::vector<int> remote;
        if (local.rank == local_leader) {
            CommView peer = resolve_comm(self, peer_comm, call, at);
            check_destination(self, peer, remote_leader, call, at);
            if (tag < 0) call_error(MPI_ERR_TAG, self.vrank(), call, at, "the tag %d is negative", tag);
            Side mine{agreement.first_context, local.size(), 0, self.vrank()};
            send_to_leader(self, peer, remote_leader, tag, &mine, sizeof mine, call, at);
            send_to_leader(self, peer, remote_leader, tag, local.comm->vranks().data(),
                           local.comm->vranks().size() * sizeof(int), call, at);
            receive_from_leader(self, peer, remote_leader, tag, &theirs, sizeof theirs, call, at);
            remote.resize(static_cast<std::size_t>(theirs.size));
            receive_from_leader(self, peer, remote_leader, tag, remote.data(), remote.size() * sizeof(int), call, at);
        }
        collectives::bcast(group, local_leader, &theirs, sizeof theirs);
        remote.resize(static_cast<std::size_t>(theirs.size));
        collectives::bcast(group, local_leader, remote.data(), remote.size() * sizeof(int));
        for (int vrank : remote)
            if (std::find(local.comm->vranks().begin(), local.comm->vranks().end(), vrank) != local.comm->vranks().end())
                call_error(MPI_ERR_COMM, self.vrank(), call, at, "the two groups overlap (vrank %d is in both)", vrank);
        agreement.first_context = std::max(agreement.first_context, theirs.next_context);
        take_contexts(group, agreement, 2);
        *newintercomm = adopt_inter(self, agreement.first_context, local.comm->vranks(), std::move(remote),
                                    comm_local(self, local_comm, call, at), call, at);
        return MPI_SUCCESS;
    });
}

int bamboo_intercomm_merge(bamboo_site at, MPI_Comm intercomm, int high, MPI_Comm* newintracomm) {
    return checked_call(intercomm, [&]() -> int {
        const char* call = "MPI_Intercomm_merge";
        Rank& self = calling_rank(call, at);
        checked_out(self, newintracomm, call, at);
        const CommView inter = checked_inter(self, resolve_comm(self, intercomm, call, at), call, at);
        CollectiveChannel across(self, inter, call, at);
        CollectiveChannel group(self, group_view(inter), call, at);
        Agreement agreement = agree(group, high ? 1 : 0, 0);
        int our_high = agreement.proposals[0].color;  // the leader's: MPI has the group give one value
        const std::vector<int>& ours = inter.comm->vranks();
        Side theirs = trade_sides(across, group, Side{agreement.first_context, inter.size(), our_high, ours[0]});
        // The group that said `high` goes after the other; if both said the same, the group of
        // the lower leader goes first, which both groups compute alike.
        bool we_go_first = our_high != theirs.high ? !our_high : ours[0] < theirs.leader_vrank;
        const std::vector<int>& others = inter.comm->peer_vranks();
        std::vector<int> vranks = we_go_first ? ours : others;
        const std::vector<int>& second = we_go_first ? others : ours;
        vranks.insert(vranks.end(), second.begin(), second.end());
        agreement.first_context = std::max(agreement.first_context, theirs.next_context);
        take_contexts(group, agreement, 1);
        *newintracomm = adopt(self, agreement.first_context, std::move(vranks), comm_local(self, intercomm, call, at), call,
                              at);
        return MPI_SUCCESS;
    });
}

int bamboo_comm_test_inter(bamboo_site at, MPI_Comm comm, int* flag) {
    return checked_call(comm, [&]() -> int {
        Rank& self = calling_rank("MPI_Comm_test_inter", at);
        check_not_null(self, flag, "the flag pointer", "MPI_Comm_test_inter", at);
        *flag = resolve_comm(self, comm, "MPI_Comm_test_inter", at).comm->is_inter();
        return MPI_SUCCESS;
    });
}

int bamboo_comm_remote_size(bamboo_site at, MPI_Comm comm, int* size) {
    return checked_call(comm, [&]() -> int {
        const char* call = "MPI_Comm_remote_size";
        Rank& self = calling_rank(call, at);
        check_not_null(self, size, "the size pointer", call, at);
        *size = checked_inter(self, resolve_comm(self, comm, call, at), call, at).comm->peer_count();
        return MPI_SUCCESS;
    });
}

int bamboo_comm_remote_group(bamboo_site at, MPI_Comm comm, MPI_Group* group) {
    return checked_call(comm, [&]() -> int {
        const char* call = "MPI_Comm_remote_group";
        Rank& self = calling_rank(call, at);
        check_not_null(self, group, "the group pointer", call, at);
        *group = new_group(self, checked_inter(self, resolve_comm(self, comm, call, at), call, at).comm->peer_vranks());
        return MPI_SUCCESS;
    });
}

}  // extern "C"
