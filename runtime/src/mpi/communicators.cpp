// Communicators and groups over virtual ranks.
//
// Making a communicator is collective over its parent: the members exchange what they want
// (an allgather of a small record), and all compute the same new communicators from it.
#include <mpi.h>

#include <algorithm>
#include <climits>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "bamboo.h"
#include "collectives/algorithms.hpp"
#include "collectives/channel.hpp"
#include "collectives/structure.hpp"
#include "messaging/rank.hpp"
#include "messaging/routes.hpp"
#include "mpi/api.hpp"
#include "mpi/communicators.hpp"
#include "mpi/attributes.hpp"
#include "mpi/errhandlers.hpp"
#include "util/errors.hpp"
#include "util/mpi_guard.hpp"

namespace bamboo {

Agreement agree(CollectiveChannel& ch, int color, int key) {
    Agreement agreement;
    Proposal mine{color, key, ch.caller().next_context};
    // Nonblocking duplicates (MPI_Comm_idup) agree while the task goes on and may start more:
    // each proposal reserves a context pair, so that the next agreement's is larger on every
    // member and the two never take the same contexts.
    ch.caller().next_context += 2;
    agreement.proposals = collectives::allgather_value(ch, mine);
    for (const Proposal& p : agreement.proposals)
        agreement.first_context = std::max(agreement.first_context, p.next_context);
    return agreement;
}

void take_contexts(CollectiveChannel& ch, const Agreement& agreement, int count) {
    if (agreement.first_context > INT_MAX - 2 * count)
        ch.fail("the runtime has run out of communicator contexts");
    ch.caller().next_context = std::max(ch.caller().next_context, agreement.first_context + 2 * count);
}

std::string made_by(const char* call, bamboo_site at) {
    std::string name = std::string("the communicator from ") + call;
    if (at.file) name += std::string(" at ") + at.file + ":" + std::to_string(at.line);
    return name;
}

MPI_Comm adopt_communicator(Rank& self, std::shared_ptr<const Communicator> comm, int rank, const CommLocal& parent) {
    self.restart_collective_numbers(comm->collective_context());
    if (const Communicator* group = comm->local()) self.restart_collective_numbers(group->collective_context());
    CommEntry entry;
    entry.comm = std::move(comm);
    entry.rank = rank;
    entry.local.errhandler = parent.errhandler;
    retain_errhandler(self, parent.errhandler);
    return self.comms.insert(std::move(entry));
}

MPI_Comm adopt(Rank& self, int context, std::vector<int> vranks, const CommLocal& parent, const char* call,
               bamboo_site at, std::optional<Topology> topology) {
    int rank = static_cast<int>(std::find(vranks.begin(), vranks.end(), self.vrank()) - vranks.begin());
    auto comm = std::make_shared<Communicator>(context, std::move(vranks), self.routes().vf,
                                               made_by(call, at), std::move(topology));
    return adopt_communicator(self, std::move(comm), rank, parent);
}

MPI_Comm split(Rank& self, CollectiveChannel& ch, const CommView& parent, const CommLocal& parent_local,
               int color, int key, const char* call, bamboo_site at, std::optional<Topology> topology) {
    if (color < 0 && color != MPI_UNDEFINED)
        call_error(MPI_ERR_ARG, self.vrank(), call, at, "the color %d is negative (and not MPI_UNDEFINED)", color);
    Agreement agreement = agree(ch, color, key);
    std::vector<int> colors;
    for (const Proposal& p : agreement.proposals)
        if (p.color != MPI_UNDEFINED) colors.push_back(p.color);
    std::sort(colors.begin(), colors.end());
    colors.erase(std::unique(colors.begin(), colors.end()), colors.end());
    take_contexts(ch, agreement, static_cast<int>(colors.size()));
    if (color == MPI_UNDEFINED) return MPI_COMM_NULL;

    std::vector<int> members;  // parent ranks
    for (int r = 0; r < parent.size(); ++r)
        if (agreement.proposals[static_cast<std::size_t>(r)].color == color) members.push_back(r);
    std::stable_sort(members.begin(), members.end(), [&](int a, int b) {
        return agreement.proposals[static_cast<std::size_t>(a)].key < agreement.proposals[static_cast<std::size_t>(b)].key;
    });
    std::vector<int> vranks;
    for (int r : members) vranks.push_back(parent.comm->vrank_of(r));
    int index = static_cast<int>(std::lower_bound(colors.begin(), colors.end(), color) - colors.begin());
    return adopt(self, agreement.first_context + 2 * index, std::move(vranks), parent_local, call, at,
                 std::move(topology));
}

MPI_Comm* checked_out(const Rank& self, MPI_Comm* out, const char* call, bamboo_site at) {
    check_not_null(self, out, "the new communicator's pointer", call, at);
    return out;
}

// ---- Groups ----

const Group& group_of(Rank& self, MPI_Group handle, const char* call, bamboo_site at) {
    static const Group empty;
    if (handle == MPI_GROUP_EMPTY) return empty;
    if (handle == MPI_GROUP_NULL) call_error(MPI_ERR_GROUP, self.vrank(), call, at, "the group is MPI_GROUP_NULL");
    const Group* group = self.groups.find(handle);
    if (!group) call_error(MPI_ERR_GROUP, self.vrank(), call, at, "invalid group (freed, or not made by this task's MPI calls)");
    return *group;
}

MPI_Group new_group(Rank& self, Group group) {
    if (group.empty()) return MPI_GROUP_EMPTY;
    return self.groups.insert(std::move(group));
}

namespace {

// The ranks of `group` that `n` and `ranks` name, each valid and none twice.
std::vector<int> chosen_ranks(const Rank& self, const Group& group, int n, const int ranks[],
                              const char* call, bamboo_site at) {
    check_count(self, n, "the count", call, at);
    if (n > 0) check_not_null(self, ranks, "the ranks array", call, at);
    std::vector<bool> seen(group.size(), false);
    std::vector<int> out;
    for (int i = 0; i < n; ++i) {
        int r = ranks[i];
        if (r < 0 || r >= static_cast<int>(group.size()))
            call_error(MPI_ERR_RANK, self.vrank(), call, at, "rank %d is out of range (0..%zu)", r, group.size() - 1);
        if (seen[static_cast<std::size_t>(r)]) call_error(MPI_ERR_RANK, self.vrank(), call, at, "rank %d is listed twice", r);
        seen[static_cast<std::size_t>(r)] = true;
        out.push_back(r);
    }
    return out;
}

// The ranks of `group` that MPI_Group_range_incl's and _excl's triplets (first, last, stride)
// name, in the order the triplets list them; each valid and none twice.
std::vector<int> ranks_in_ranges(const Rank& self, const Group& group, int n, int ranges[][3], const char* call,
                                 bamboo_site at) {
    check_count(self, n, "the count", call, at);
    if (n > 0) check_not_null(self, ranges, "the ranges array", call, at);
    std::vector<int> listed;
    for (int i = 0; i < n; ++i) {
        int first = ranges[i][0], last = ranges[i][1], stride = ranges[i][2];
        if (stride == 0) call_error(MPI_ERR_ARG, self.vrank(), call, at, "range %d has stride 0", i);
        if ((last - first) / stride < 0)
            call_error(MPI_ERR_ARG, self.vrank(), call, at, "range %d (%d, %d, %d) runs away from its last rank", i,
                       first, last, stride);
        for (long long r = first; stride > 0 ? r <= last : r >= last; r += stride) listed.push_back(static_cast<int>(r));
    }
    return chosen_ranks(self, group, static_cast<int>(listed.size()), listed.data(), call, at);
}

// The members of `a` and `b` that `keep` accepts, in the order MPI gives the union, intersection
// and difference: those of `a` in `a`'s order, then those of `b` that are not in `a`.
template <class Keep>
Group combine(const Group& a, const Group& b, Keep keep) {
    auto in = [](const Group& g, int vrank) { return std::find(g.begin(), g.end(), vrank) != g.end(); };
    Group out;
    for (int vrank : a)
        if (keep(true, in(b, vrank))) out.push_back(vrank);
    for (int vrank : b)
        if (!in(a, vrank) && keep(false, true)) out.push_back(vrank);
    return out;
}

// MPI_IDENT, MPI_SIMILAR or MPI_UNEQUAL for two lists of tasks (MPI_CONGRUENT is the
// caller's: communicators that are not one object but list the same tasks in order).
int compare_members(const std::vector<int>& a, const std::vector<int>& b) {
    if (a == b) return MPI_IDENT;
    std::vector<int> sa = a, sb = b;
    std::sort(sa.begin(), sa.end());
    std::sort(sb.begin(), sb.end());
    return sa == sb ? MPI_SIMILAR : MPI_UNEQUAL;
}

}  // namespace
}  // namespace bamboo

using namespace bamboo;

extern "C" {

int bamboo_comm_rank(MPI_Comm comm, int* rank) {
    return checked_call(comm, [&]() -> int {
        Rank& self = calling_rank("MPI_Comm_rank", kNoSite);
        *rank = resolve_comm(self, comm, "MPI_Comm_rank", kNoSite).rank;
        return MPI_SUCCESS;
    });
}

int bamboo_comm_size(MPI_Comm comm, int* size) {
    return checked_call(comm, [&]() -> int {
        Rank& self = calling_rank("MPI_Comm_size", kNoSite);
        *size = resolve_comm(self, comm, "MPI_Comm_size", kNoSite).size();
        return MPI_SUCCESS;
    });
}

int bamboo_comm_split(bamboo_site at, MPI_Comm comm, int color, int key, MPI_Comm* newcomm) {
    return checked_call(comm, [&]() -> int {
        const char* call = "MPI_Comm_split";
        Rank& self = calling_rank(call, at);
        checked_out(self, newcomm, call, at);
        CommView parent = resolve_comm(self, comm, call, at);
        if (parent.comm->is_inter()) {
            *newcomm = split_intercomm(self, parent, comm_local(self, comm, call, at), color, key, call, at);
            return MPI_SUCCESS;
        }
        CollectiveChannel ch(self, parent, call, at);
        *newcomm = split(self, ch, parent, comm_local(self, comm, call, at), color, key, call, at);
        return MPI_SUCCESS;
    });
}

// MPI_COMM_TYPE_SHARED groups the ranks of one host, as plain MPI does: tasks of other
// processes on the host are as near as the MPI library's shared memory makes them, and a
// program that sizes its threads or buffers by the ranks sharing the node counts them all.
int bamboo_comm_split_type(bamboo_site at, MPI_Comm comm, int split_type, int key, MPI_Info /*info*/,
                           MPI_Comm* newcomm) {
    return checked_call(comm, [&]() -> int {
        const char* call = "MPI_Comm_split_type";
        Rank& self = calling_rank(call, at);
        checked_out(self, newcomm, call, at);
        CommView parent = resolve_comm(self, comm, call, at);
        intra_only(self, parent, call, at);
        if (split_type != MPI_COMM_TYPE_SHARED && split_type != MPI_UNDEFINED)
            call_error(MPI_ERR_ARG, self.vrank(), call, at,
                       "the split type %d is neither MPI_COMM_TYPE_SHARED nor MPI_UNDEFINED", split_type);
        int color = split_type == MPI_UNDEFINED ? MPI_UNDEFINED : self.routes().host;
        CollectiveChannel ch(self, parent, call, at);
        *newcomm = split(self, ch, parent, comm_local(self, comm, call, at), color, key, call, at);
        return MPI_SUCCESS;
    });
}

int bamboo_comm_dup(bamboo_site at, MPI_Comm comm, MPI_Comm* newcomm) {
    return checked_call(comm, [&]() -> int {
        const char* call = "MPI_Comm_dup";
        Rank& self = calling_rank(call, at);
        checked_out(self, newcomm, call, at);
        CommView parent = resolve_comm(self, comm, call, at);
        CommLocal parent_local = comm_local(self, comm, call, at);  // a copy: adopt may move the table
        if (parent.comm->is_inter()) {
            *newcomm = dup_intercomm(self, parent, parent_local, call, at);
        } else {
            CollectiveChannel ch(self, parent, call, at);
            Agreement agreement = agree(ch, 0, 0);
            take_contexts(ch, agreement, 1);
            std::optional<Topology> topology;
            if (parent.comm->topology()) topology = *parent.comm->topology();
            *newcomm = adopt(self, agreement.first_context, parent.comm->vranks(), parent_local, call, at,
                             std::move(topology));
        }
        copy_attributes(self, comm, parent_local, self.comms.find(*newcomm)->local, call, at);
        return MPI_SUCCESS;
    });
}

int bamboo_comm_create(bamboo_site at, MPI_Comm comm, MPI_Group group, MPI_Comm* newcomm) {
    return checked_call(comm, [&]() -> int {
        const char* call = "MPI_Comm_create";
        Rank& self = calling_rank(call, at);
        checked_out(self, newcomm, call, at);
        CommView parent = resolve_comm(self, comm, call, at);
        Group members = group_of(self, group, call, at);
        for (int rank : ranks_in_group(parent.comm->vranks(), members))
            if (rank == MPI_UNDEFINED)
                call_error(MPI_ERR_GROUP, self.vrank(), call, at, "the group has a task that is not in %s", parent.comm->name().c_str());
        if (parent.comm->is_inter()) {
            *newcomm = create_intercomm(self, parent, comm_local(self, comm, call, at), members, call, at);
            return MPI_SUCCESS;
        }
        CollectiveChannel ch(self, parent, call, at);
        Agreement agreement = agree(ch, 0, 0);
        take_contexts(ch, agreement, 1);
        bool member = std::find(members.begin(), members.end(), self.vrank()) != members.end();
        *newcomm = member ? adopt(self, agreement.first_context, std::move(members), comm_local(self, comm, call, at),
                                  call, at)
                          : MPI_COMM_NULL;
        return MPI_SUCCESS;
    });
}

int bamboo_comm_create_group(bamboo_site at, MPI_Comm comm, MPI_Group group, int tag, MPI_Comm* newcomm) {
    return checked_call(comm, [&]() -> int {
        const char* call = "MPI_Comm_create_group";
        Rank& self = calling_rank(call, at);
        checked_out(self, newcomm, call, at);
        CommView parent = resolve_comm(self, comm, call, at);
        intra_only(self, parent, call, at);
        if (tag < 0) call_error(MPI_ERR_TAG, self.vrank(), call, at, "the tag %d is negative", tag);
        Group members = group_of(self, group, call, at);
        for (int rank : ranks_in_group(parent.comm->vranks(), members))
            if (rank == MPI_UNDEFINED)
                call_error(MPI_ERR_GROUP, self.vrank(), call, at, "the group has a task that is not in %s", parent.comm->name().c_str());
        auto me = std::find(members.begin(), members.end(), self.vrank());
        if (me == members.end()) call_error(MPI_ERR_GROUP, self.vrank(), call, at, "the calling task is not in the group");
        // Only the group's members call it: they agree among themselves, on the parent's
        // collective context with tags of their own, set apart by the program's tag and by the
        // group. A member may be in the next call, for another group, while others are still in
        // this one; messages of two groups must not match, as their ranks number other tasks.
        Communicator among(parent.comm->context(), members, self.routes().vf, made_by(call, at));
        std::uint32_t call_key = 2166136261u;  // FNV-1a over the tag and the members
        for (int value : members) call_key = (call_key ^ static_cast<std::uint32_t>(value)) * 16777619u;
        call_key = (call_key ^ static_cast<std::uint32_t>(tag)) * 16777619u;
        int tag_base = tag::kUnnumberedBase + static_cast<int>((call_key & tag::kNumberMask) << tag::kNumberShift);
        CollectiveChannel ch(self, CommView{&among, static_cast<int>(me - members.begin())}, call, at, tag_base);
        Agreement agreement = agree(ch, 0, 0);
        take_contexts(ch, agreement, 1);
        *newcomm = adopt(self, agreement.first_context, std::move(members), comm_local(self, comm, call, at), call, at);
        return MPI_SUCCESS;
    });
}

int bamboo_comm_dup_with_info(bamboo_site at, MPI_Comm comm, MPI_Info info, MPI_Comm* newcomm) {
    int code = bamboo_comm_dup(at, comm, newcomm);
    if (code != MPI_SUCCESS) return code;
    return bamboo_comm_set_info(at, *newcomm, info);
}

int bamboo_comm_free(bamboo_site at, MPI_Comm* comm) {
    return checked_call(comm ? *comm : MPI_COMM_WORLD, [&]() -> int {
        const char* call = "MPI_Comm_free";
        Rank& self = calling_rank(call, at);
        check_not_null(self, comm, "the communicator pointer", call, at);
        if (*comm == MPI_COMM_WORLD || *comm == MPI_COMM_SELF)
            call_error(MPI_ERR_COMM, self.vrank(), call, at, "%s cannot be freed",
                       *comm == MPI_COMM_WORLD ? "MPI_COMM_WORLD" : "MPI_COMM_SELF");
        CommEntry* entry = made_comm(self, *comm, call, at);
        delete_attributes(self, *comm, entry->local, call, at);
        release_errhandler(self, entry->local.errhandler);
        forget_info(entry->local);
        self.freed_comms.push_back(entry->comm);
        self.comms.erase(*comm);
        *comm = MPI_COMM_NULL;
        return MPI_SUCCESS;
    });
}

int bamboo_comm_compare(bamboo_site at, MPI_Comm comm1, MPI_Comm comm2, int* result) {
    return checked_call(MPI_COMM_WORLD, [&]() -> int {
        const char* call = "MPI_Comm_compare";
        Rank& self = calling_rank(call, at);
        CommView a = resolve_comm(self, comm1, call, at), b = resolve_comm(self, comm2, call, at);
        if (a.comm == b.comm) {
            *result = MPI_IDENT;
        } else {
            int members = compare_members(a.comm->vranks(), b.comm->vranks());
            *result = members == MPI_IDENT ? MPI_CONGRUENT : members;
        }
        return MPI_SUCCESS;
    });
}

int bamboo_comm_group(bamboo_site at, MPI_Comm comm, MPI_Group* group) {
    return checked_call(comm, [&]() -> int {
        const char* call = "MPI_Comm_group";
        Rank& self = calling_rank(call, at);
        check_not_null(self, group, "the group pointer", call, at);
        *group = new_group(self, resolve_comm(self, comm, call, at).comm->vranks());
        return MPI_SUCCESS;
    });
}

int bamboo_group_size(bamboo_site at, MPI_Group group, int* size) {
    return checked_call(MPI_COMM_WORLD, [&]() -> int {
        Rank& self = calling_rank("MPI_Group_size", at);
        *size = static_cast<int>(group_of(self, group, "MPI_Group_size", at).size());
        return MPI_SUCCESS;
    });
}

int bamboo_group_rank(bamboo_site at, MPI_Group group, int* rank) {
    return checked_call(MPI_COMM_WORLD, [&]() -> int {
        Rank& self = calling_rank("MPI_Group_rank", at);
        *rank = ranks_in_group(group_of(self, group, "MPI_Group_rank", at), {self.vrank()})[0];
        return MPI_SUCCESS;
    });
}

int bamboo_group_incl(bamboo_site at, MPI_Group group, int n, const int ranks[], MPI_Group* newgroup) {
    return checked_call(MPI_COMM_WORLD, [&]() -> int {
        const char* call = "MPI_Group_incl";
        Rank& self = calling_rank(call, at);
        const Group& from = group_of(self, group, call, at);
        Group chosen;
        for (int r : chosen_ranks(self, from, n, ranks, call, at)) chosen.push_back(from[static_cast<std::size_t>(r)]);
        *newgroup = new_group(self, std::move(chosen));
        return MPI_SUCCESS;
    });
}

int bamboo_group_excl(bamboo_site at, MPI_Group group, int n, const int ranks[], MPI_Group* newgroup) {
    return checked_call(MPI_COMM_WORLD, [&]() -> int {
        const char* call = "MPI_Group_excl";
        Rank& self = calling_rank(call, at);
        const Group& from = group_of(self, group, call, at);
        std::vector<bool> excluded(from.size(), false);
        for (int r : chosen_ranks(self, from, n, ranks, call, at)) excluded[static_cast<std::size_t>(r)] = true;
        Group kept;
        for (std::size_t r = 0; r < from.size(); ++r)
            if (!excluded[r]) kept.push_back(from[r]);
        *newgroup = new_group(self, std::move(kept));
        return MPI_SUCCESS;
    });
}

int bamboo_group_range_incl(bamboo_site at, MPI_Group group, int n, int ranges[][3], MPI_Group* newgroup) {
    return checked_call(MPI_COMM_WORLD, [&]() -> int {
        const char* call = "MPI_Group_range_incl";
        Rank& self = calling_rank(call, at);
        const Group& from = group_of(self, group, call, at);
        Group chosen;
        for (int r : ranks_in_ranges(self, from, n, ranges, call, at)) chosen.push_back(from[static_cast<std::size_t>(r)]);
        *newgroup = new_group(self, std::move(chosen));
        return MPI_SUCCESS;
    });
}

int bamboo_group_range_excl(bamboo_site at, MPI_Group group, int n, int ranges[][3], MPI_Group* newgroup) {
    return checked_call(MPI_COMM_WORLD, [&]() -> int {
        const char* call = "MPI_Group_range_excl";
        Rank& self = calling_rank(call, at);
        const Group& from = group_of(self, group, call, at);
        std::vector<bool> excluded(from.size(), false);
        for (int r : ranks_in_ranges(self, from, n, ranges, call, at)) excluded[static_cast<std::size_t>(r)] = true;
        Group kept;
        for (std::size_t r = 0; r < from.size(); ++r)
            if (!excluded[r]) kept.push_back(from[r]);
        *newgroup = new_group(self, std::move(kept));
        return MPI_SUCCESS;
    });
}

int bamboo_group_union(bamboo_site at, MPI_Group group1, MPI_Group group2, MPI_Group* newgroup) {
    return checked_call(MPI_COMM_WORLD, [&]() -> int {
        const char* call = "MPI_Group_union";
        Rank& self = calling_rank(call, at);
        Group both = combine(group_of(self, group1, call, at), group_of(self, group2, call, at),
                             [](bool, bool) { return true; });
        *newgroup = new_group(self, std::move(both));
        return MPI_SUCCESS;
    });
}

int bamboo_group_intersection(bamboo_site at, MPI_Group group1, MPI_Group group2, MPI_Group* newgroup) {
    return checked_call(MPI_COMM_WORLD, [&]() -> int {
        const char* call = "MPI_Group_intersection";
        Rank& self = calling_rank(call, at);
        Group common = combine(group_of(self, group1, call, at), group_of(self, group2, call, at),
                               [](bool in_a, bool in_b) { return in_a && in_b; });
        *newgroup = new_group(self, std::move(common));
        return MPI_SUCCESS;
    });
}

int bamboo_group_difference(bamboo_site at, MPI_Group group1, MPI_Group group2, MPI_Group* newgroup) {
    return checked_call(MPI_COMM_WORLD, [&]() -> int {
        const char* call = "MPI_Group_difference";
        Rank& self = calling_rank(call, at);
        Group only_first = combine(group_of(self, group1, call, at), group_of(self, group2, call, at),
                                   [](bool in_a, bool in_b) { return in_a && !in_b; });
        *newgroup = new_group(self, std::move(only_first));
        return MPI_SUCCESS;
    });
}

int bamboo_group_translate_ranks(bamboo_site at, MPI_Group group1, int n, const int ranks1[],
                                 MPI_Group group2, int ranks2[]) {
    return checked_call(MPI_COMM_WORLD, [&]() -> int {
        const char* call = "MPI_Group_translate_ranks";
        Rank& self = calling_rank(call, at);
        const Group& from = group_of(self, group1, call, at);
        const Group& to = group_of(self, group2, call, at);
        check_count(self, n, "the count", call, at);
        std::vector<int> vranks;
        for (int i = 0; i < n; ++i) {
            int r = ranks1[i];
            if (r == MPI_PROC_NULL) continue;
            if (r < 0 || r >= static_cast<int>(from.size()))
                call_error(MPI_ERR_RANK, self.vrank(), call, at, "rank %d is out of range (0..%zu)", r, from.size() - 1);
            vranks.push_back(from[static_cast<std::size_t>(r)]);
        }
        std::vector<int> translated = ranks_in_group(to, vranks);
        for (int i = 0, next = 0; i < n; ++i)
            ranks2[i] = ranks1[i] == MPI_PROC_NULL ? MPI_PROC_NULL : translated[static_cast<std::size_t>(next++)];
        return MPI_SUCCESS;
    });
}

int bamboo_group_compare(bamboo_site at, MPI_Group group1, MPI_Group group2, int* result) {
    return checked_call(MPI_COMM_WORLD, [&]() -> int {
        const char* call = "MPI_Group_compare";
        Rank& self = calling_rank(call, at);
        *result = compare_members(group_of(self, group1, call, at), group_of(self, group2, call, at));
        return MPI_SUCCESS;
    });
}

int bamboo_group_free(bamboo_site at, MPI_Group* group) {
    return checked_call(MPI_COMM_WORLD, [&]() -> int {
        const char* call = "MPI_Group_free";
        Rank& self = calling_rank(call, at);
        check_not_null(self, group, "the group pointer", call, at);
        if (*group != MPI_GROUP_EMPTY) {
            group_of(self, *group, call, at);
            self.groups.erase(*group);
        }
        *group = MPI_GROUP_NULL;
        return MPI_SUCCESS;
    });
}

// The communicator of the comm directives lowered into this program (translator/bamboo/
// comm_directives/targets.py; a plain MPI program gets it from runtime/commdir). No agreement
// is needed: its context is reserved, and each task adopts it on its own when it first asks.
MPI_Comm bamboo_comm_world(const char* file, int line) {
    Rank* self = Rank::current();
    if (!self) fatal("%s:%d: a comm directive ran outside a task", file, line);
    if (!self->initialized)
        task_error(self->vrank(), "a comm directive", bamboo_site{file, line}, "it ran before MPI_Init");
    if (self->directives_comm == MPI_COMM_NULL) {
        Routes& routes = self->routes();
        std::call_once(routes.directives_made, [&routes] {
            routes.directives = std::make_shared<Communicator>(kDirectivesContext, routes.world->vranks(), routes.vf,
                                                               "the comm directives' communicator");
        });
        self->directives_comm = adopt_communicator(*self, routes.directives, self->vrank(), self->world_local);
    }
    return self->directives_comm;
}

}  // extern "C"
