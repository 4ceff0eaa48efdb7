// Windows (MPI_Win_create, MPI_Win_allocate, MPI_Win_allocate_shared, MPI_Win_create_dynamic): made and freed
// collectively over a communicator, with names and cached attributes like communicators'. Each window has a
// communicator of its own, a duplicate of the one given, whose context its one-sided
// messages carry (messaging/one_sided.hpp) and whose collectives its fences run.
#include "mpi/windows.hpp"

#include <mpi.h>

#include <cstdlib>
#include <cstring>
#include <memory>
#include <vector>

#include "bamboo.h"
#include "collectives/algorithms.hpp"
#include "collectives/channel.hpp"
#include "messaging/rank.hpp"
#include "messaging/routes.hpp"
#include "mpi/api.hpp"
#include "mpi/communicators.hpp"
#include "util/errors.hpp"
#include "util/host_memory.hpp"
#include "util/mpi_guard.hpp"

namespace bamboo {

WindowEntry& window_of(Rank& self, MPI_Win win, const char* call, bamboo_site at) {
    if (win == MPI_WIN_NULL) call_error(MPI_ERR_WIN, self.vrank(), call, at, "the window is MPI_WIN_NULL");
    WindowEntry* entry = self.windows.find(win);
    if (!entry) call_error(MPI_ERR_WIN, self.vrank(), call, at, "invalid window (freed, or not made by this task)");
    return *entry;
}

namespace {

// Collective over `comm`: the task's part of a new window of `size` bytes at `base`, reachable
// by the other members once this returns.
WindowEntry make_window(Rank& self, MPI_Comm comm, void* base, MPI_Aint size, int disp_unit, int flavor,
                        const char* call, bamboo_site at) {
    CommView view = resolve_comm(self, comm, call, at);
    intra_only(self, view, call, at);
    if (size < 0) call_error(MPI_ERR_SIZE, self.vrank(), call, at, "the size %ld is negative", static_cast<long>(size));
    if (disp_unit <= 0)
        call_error(MPI_ERR_DISP, self.vrank(), call, at, "the displacement unit %d is not positive", disp_unit);
    CollectiveChannel parent(self, view, call, at);
    Agreement agreement = agree(parent, 0, 0);
    take_contexts(parent, agreement, 1);
    auto window_comm = std::make_shared<const Communicator>(agreement.first_context, view.comm->vranks(),
                                                            self.routes().vf, made_by(call, at));
    self.restart_collective_numbers(window_comm->collective_context());
    WindowEntry entry;
    entry.comm = window_comm;
    entry.rank = view.rank;
    entry.local.base = base;
    entry.local.size = size;
    entry.local.disp_unit = disp_unit;
    entry.local.flavor = flavor;
    entry.part = std::make_shared<WindowPart>(self, window_comm, view.rank, base, size, disp_unit,
                                              flavor == MPI_WIN_FLAVOR_DYNAMIC);
    WindowPart& part = *entry.part;
    // Registered before the exchange below, so every member's part is found once it is over.
    self.routes().windows.add(part);
    CollectiveChannel ch(self, CommView{window_comm.get(), view.rank}, call, at);
    part.shapes = collectives::allgather_value(ch, PartShape{size, disp_unit});
    part.local_parts.resize(part.shapes.size());
    for (int r = 0; r < view.size(); ++r)
        if (self.routes().local(window_comm->vrank_of(r)))
            part.local_parts[static_cast<std::size_t>(r)] =
                self.routes().windows.find(window_comm->vrank_of(r), window_comm->context());
    return entry;
}

// What MPI_Win_allocate and MPI_Win_allocate_shared check before their first collective.
void check_allocation(Rank& self, MPI_Aint size, int disp_unit, void* baseptr, MPI_Win* win, const char* call,
                      bamboo_site at) {
    check_not_null(self, win, "the window pointer", call, at);
    check_not_null(self, baseptr, "the base pointer", call, at);
    if (size < 0) call_error(MPI_ERR_SIZE, self.vrank(), call, at, "the size %ld is negative", static_cast<long>(size));
    if (disp_unit <= 0)
        call_error(MPI_ERR_DISP, self.vrank(), call, at, "the displacement unit %d is not positive", disp_unit);
}

// Whether `info` gives `key` the value "true" (MPI_INFO_NULL gives nothing).
bool info_says_true(MPI_Info info, const char* key) {
    if (info == MPI_INFO_NULL) return false;
    char value[8] = {};
    int flag = 0;
    MpiGuard guard;
    MPI_Info_get(info, key, static_cast<int>(sizeof value - 1), value, &flag);
    return flag && std::strcmp(value, "true") == 0;
}

// Collective over `comm`, for MPI_Win_allocate_shared: one block for the whole window, every
// member's part in it in rank order, back to back as MPI has them by default (with the
// alloc_shared_noncontig hint too). The members must share a host; the block is
// made by rank 0 and found by the others by its name. Returns the block, `offset` set to the
// caller's part's place in it.
std::shared_ptr<HostMemory> host_block(Rank& self, const CommView& view, MPI_Aint size, MPI_Aint* offset,
                                       const char* call, bamboo_site at) {
    struct Member {
        MPI_Aint size;
        int host;
        int process;
    };
    const Member mine{size, self.routes().host, self.routes().process};
    CollectiveChannel ch(self, view, call, at);
    const std::vector<Member> members = collectives::allgather_value(ch, mine);
    MPI_Aint total = 0;
    bool other_processes = false;
    for (int r = 0; r < view.size(); ++r) {
        const Member& member = members[static_cast<std::size_t>(r)];
        if (member.host != mine.host)
            call_error(MPI_ERR_RMA_SHARED, self.vrank(), call, at,
                       "rank %d of the communicator is on another host than rank %d: the ranks of a shared "
                       "window must share memory (MPI_Comm_split_type with MPI_COMM_TYPE_SHARED gives such a "
                       "communicator)", r, view.rank);
        other_processes = other_processes || member.process != mine.process;
        if (r == view.rank) *offset = total;
        total += member.size;
    }
    // The block's name, from rank 0 to the others; the size they map is the total above.
    char name[64] = {};
    std::string error;
    std::shared_ptr<HostMemory> block;
    if (view.rank == 0) {
        block = HostMemory::create(static_cast<std::size_t>(total), other_processes, &error);
        if (block) std::strncpy(name, block->name().c_str(), sizeof name - 1);
    }
    collectives::bcast(ch, 0, name, sizeof name);
    if (!name[0])
        call_error(MPI_ERR_NO_MEM, self.vrank(), call, at, "rank 0 could not allocate the window's %ld bytes%s%s",
                   static_cast<long>(total), error.empty() ? "" : ": ", error.c_str());
    if (!block) block = HostMemory::open(name, static_cast<std::size_t>(total), &error);
    if (!block)
        call_error(MPI_ERR_NO_MEM, self.vrank(), call, at, "cannot reach the window's memory: %s", error.c_str());
    return block;
}

WinKeyval* find_win_keyval(Rank& self, int keyval) {
    if (keyval < kFirstUserKeyval) return nullptr;
    std::size_t index = static_cast<std::size_t>(keyval - kFirstUserKeyval);
    return index < self.win_keyvals.size() ? &self.win_keyvals[index] : nullptr;
}

WinKeyval& user_win_keyval(Rank& self, int keyval, const char* call, bamboo_site at) {
    WinKeyval* key = find_win_keyval(self, keyval);
    if (!key || key->freed)
        call_error(MPI_ERR_KEYVAL, self.vrank(), call, at,
                   "invalid window keyval %d (freed, predefined, or not made by this task's MPI calls)", keyval);
    return *key;
}

void run_delete_callback(Rank& self, MPI_Win win, int keyval, void* value, const char* call, bamboo_site at) {
    const WinKeyval& key = *find_win_keyval(self, keyval);
    if (!key.remove) return;  // MPICH's MPI_WIN_NULL_DELETE_FN is a null pointer
    int code = key.remove(win, keyval, value, key.extra_state);
    if (code != MPI_SUCCESS)
        call_error(code, self.vrank(), call, at, "the delete callback of keyval %d returned %d", keyval, code);
}

// The task's part of `win`, a window made by MPI_Win_create_dynamic (MPI_Win_attach, _detach).
WindowPart& dynamic_part(Rank& self, MPI_Win win, const char* call, bamboo_site at) {
    WindowPart& part = *window_of(self, win, call, at).part;
    if (!part.dynamic)
        call_error(MPI_ERR_RMA_FLAVOR, self.vrank(), call, at, "the window was not made by MPI_Win_create_dynamic");
    return part;
}

// The place of a predefined attribute's value, or nullptr if `key` is none.
void* predefined_attribute(WindowEntry& window, int key) {
    WindowLocal& w = window.local;
    if (key == MPI_WIN_BASE) return w.base;  // the base itself, as MPI has it
    if (key == MPI_WIN_SIZE) return &w.size;
    if (key == MPI_WIN_DISP_UNIT) return &w.disp_unit;
    if (key == MPI_WIN_CREATE_FLAVOR) return &w.flavor;
    if (key == MPI_WIN_MODEL) return &w.model;
    return nullptr;
}

}  // namespace
}  // namespace bamboo

using namespace bamboo;

extern "C" {

int bamboo_win_create(bamboo_site at, void* base, MPI_Aint size, int disp_unit, MPI_Info, MPI_Comm comm,
                      MPI_Win* win) {
    const char* call = "MPI_Win_create";
    return checked_call(comm, [&]() -> int {
        Rank& self = calling_rank(call, at);
        check_not_null(self, win, "the window pointer", call, at);
        *win = self.windows.insert(make_window(self, comm, base, size, disp_unit, MPI_WIN_FLAVOR_CREATE, call, at));
        return MPI_SUCCESS;
    });
}

int bamboo_win_allocate(bamboo_site at, MPI_Aint size, int disp_unit, MPI_Info, MPI_Comm comm, void* baseptr,
                        MPI_Win* win) {
    const char* call = "MPI_Win_allocate";
    return checked_call(comm, [&]() -> int {
        Rank& self = calling_rank(call, at);
        check_allocation(self, size, disp_unit, baseptr, win, call, at);
        // At least one byte, so that every part has an address of its own.
        std::shared_ptr<char> memory(static_cast<char*>(std::calloc(static_cast<std::size_t>(size) + 1, 1)), std::free);
        if (!memory)
            call_error(MPI_ERR_NO_MEM, self.vrank(), call, at, "cannot allocate %ld bytes", static_cast<long>(size));
        WindowEntry entry = make_window(self, comm, memory.get(), size, disp_unit, MPI_WIN_FLAVOR_ALLOCATE, call, at);
        entry.allocated = std::move(memory);
        void* base = entry.allocated.get();
        std::memcpy(baseptr, &base, sizeof base);  // `baseptr` is a void** in disguise
        *win = self.windows.insert(std::move(entry));
        return MPI_SUCCESS;
    });
}

int bamboo_win_allocate_shared(bamboo_site at, MPI_Aint size, int disp_unit, MPI_Info info, MPI_Comm comm,
                               void* baseptr, MPI_Win* win) {
    const char* call = "MPI_Win_allocate_shared";
    return checked_call(comm, [&]() -> int {
        Rank& self = calling_rank(call, at);
        check_allocation(self, size, disp_unit, baseptr, win, call, at);
        CommView view = resolve_comm(self, comm, call, at);
        intra_only(self, view, call, at);
        MPI_Aint offset = 0;
        std::shared_ptr<HostMemory> block = host_block(self, view, size, &offset, call, at);
        const bool empty_parts_null = info_says_true(info, "alloc_shared_noncontig");
        char* base = size == 0 && empty_parts_null ? nullptr : block->data() + offset;
        WindowEntry entry = make_window(self, comm, base, size, disp_unit, MPI_WIN_FLAVOR_SHARED, call, at);
        // Every member has mapped the block by now (each did before its part of make_window's
        // exchange, which rank 0 has seen whole): its name may go.
        if (view.rank == 0) block->unlink();
        entry.allocated = std::shared_ptr<char>(block, block->data());
        entry.empty_parts_null = empty_parts_null;
        std::memcpy(baseptr, &base, sizeof base);  // `baseptr` is a void** in disguise
        *win = self.windows.insert(std::move(entry));
        return MPI_SUCCESS;
    });
}

int bamboo_win_shared_query(bamboo_site at, MPI_Win win, int rank, MPI_Aint* size, int* disp_unit, void* baseptr) {
    const char* call = "MPI_Win_shared_query";
    return checked_call(WindowHandle{win}, [&]() -> int {
        Rank& self = calling_rank(call, at);
        check_not_null(self, size, "the size pointer", call, at);
        check_not_null(self, disp_unit, "the displacement unit pointer", call, at);
        check_not_null(self, baseptr, "the base pointer", call, at);
        WindowEntry& window = window_of(self, win, call, at);
        if (window.local.flavor != MPI_WIN_FLAVOR_SHARED)
            call_error(MPI_ERR_RMA_FLAVOR, self.vrank(), call, at,
                       "the window was not made by MPI_Win_allocate_shared");
        const std::vector<PartShape>& shapes = window.part->shapes;
        const int members = static_cast<int>(shapes.size());
        if (rank != MPI_PROC_NULL && (rank < 0 || rank >= members))
            call_error(MPI_ERR_RANK, self.vrank(), call, at, "rank %d is not in the window's group of %d", rank,
                       members);
        // MPI_PROC_NULL: the lowest rank whose part is not empty (rank 0's if all are).
        int which = rank;
        if (rank == MPI_PROC_NULL) {
            which = 0;
            while (which < members - 1 && shapes[static_cast<std::size_t>(which)].size == 0) ++which;
            if (shapes[static_cast<std::size_t>(which)].size == 0) which = 0;
        }
        MPI_Aint offset = 0;
        for (int r = 0; r < which; ++r) offset += shapes[static_cast<std::size_t>(r)].size;
        *size = shapes[static_cast<std::size_t>(which)].size;
        *disp_unit = shapes[static_cast<std::size_t>(which)].disp_unit;
        void* base = *size == 0 && window.empty_parts_null ? nullptr : window.allocated.get() + offset;
        std::memcpy(baseptr, &base, sizeof base);  // `baseptr` is a void** in disguise
        return MPI_SUCCESS;
    });
}

int bamboo_win_create_dynamic(bamboo_site at, MPI_Info, MPI_Comm comm, MPI_Win* win) {
    const char* call = "MPI_Win_create_dynamic";
    return checked_call(comm, [&]() -> int {
        Rank& self = calling_rank(call, at);
        check_not_null(self, win, "the window pointer", call, at);
        // MPI_WIN_BASE is MPI_BOTTOM and MPI_WIN_SIZE 0; displacements are addresses.
        *win = self.windows.insert(make_window(self, comm, nullptr, 0, 1, MPI_WIN_FLAVOR_DYNAMIC, call, at));
        return MPI_SUCCESS;
    });
}

int bamboo_win_attach(bamboo_site at, MPI_Win win, void* base, MPI_Aint size) {
    const char* call = "MPI_Win_attach";
    return checked_call(WindowHandle{win}, [&]() -> int {
        Rank& self = calling_rank(call, at);
        WindowPart& part = dynamic_part(self, win, call, at);
        if (size < 0) call_error(MPI_ERR_SIZE, self.vrank(), call, at, "the size %ld is negative", static_cast<long>(size));
        const char* first = static_cast<const char*>(base);
        if (size > 0 && part.overlaps_attached(first, size))
            call_error(MPI_ERR_RMA_ATTACH, self.vrank(), call, at,
                       "bytes %p to %p overlap memory attached to the window already", base,
                       static_cast<const void*>(first + size));
        if (size > 0) part.attach(first, size);
        return MPI_SUCCESS;
    });
}

int bamboo_win_detach(bamboo_site at, MPI_Win win, const void* base) {
    const char* call = "MPI_Win_detach";
    return checked_call(WindowHandle{win}, [&]() -> int {
        Rank& self = calling_rank(call, at);
        WindowPart& part = dynamic_part(self, win, call, at);
        if (!part.detach(static_cast<const char*>(base)))
            call_error(MPI_ERR_RMA_ATTACH, self.vrank(), call, at, "no memory attached to the window starts at %p",
                       base);
        return MPI_SUCCESS;
    });
}

// Called by generated code on a window and rank its MPI_Put or MPI_Get just took: nothing to
// report to the program, so anything wrong ends the job.
int bamboo_win_disp_unit_of(MPI_Win win, int rank) {
    const char* call = "bamboo_win_disp_unit_of";
    Rank& self = calling_rank(call, kNoSite);
    const WindowEntry* window = self.windows.find(win);
    if (!window || rank < 0 || rank >= static_cast<int>(window->part->shapes.size()))
        fatal("task vrank %d: %s: no window, or no rank %d in it", self.vrank(), call, rank);
    return window->part->shapes[static_cast<std::size_t>(rank)].disp_unit;
}

int bamboo_win_free(bamboo_site at, MPI_Win* win) {
    const char* call = "MPI_Win_free";
    return checked_call(WindowHandle{win ? *win : MPI_WIN_NULL}, [&]() -> int {
        Rank& self = calling_rank(call, at);
        check_not_null(self, win, "the window pointer", call, at);
        WindowEntry& window = window_of(self, *win, call, at);
        while (!window.local.attributes.empty()) {
            auto [keyval, value] = *window.local.attributes.begin();
            window.local.attributes.erase(window.local.attributes.begin());
            run_delete_callback(self, *win, keyval, value, call, at);
        }
        complete_operations(self, window, call, at);
        CollectiveChannel ch(self, CommView{window.comm.get(), window.rank}, call, at);
        collectives::barrier(ch);  // no member reaches this part any more
        self.routes().windows.remove(*window.part);
        self.windows.erase(*win);
        *win = MPI_WIN_NULL;
        return MPI_SUCCESS;
    });
}

int bamboo_win_get_group(bamboo_site at, MPI_Win win, MPI_Group* group) {
    const char* call = "MPI_Win_get_group";
    return checked_call(WindowHandle{win}, [&]() -> int {
        Rank& self = calling_rank(call, at);
        check_not_null(self, group, "the group pointer", call, at);
        *group = self.groups.insert(window_of(self, win, call, at).comm->vranks());
        return MPI_SUCCESS;
    });
}

int bamboo_win_set_name(bamboo_site at, MPI_Win win, const char* name) {
    const char* call = "MPI_Win_set_name";
    return checked_call(WindowHandle{win}, [&]() -> int {
        Rank& self = calling_rank(call, at);
        check_not_null(self, name, "the name", call, at);
        window_of(self, win, call, at).local.name.assign(name, strnlen(name, MPI_MAX_OBJECT_NAME - 1));
        return MPI_SUCCESS;
    });
}

int bamboo_win_get_name(bamboo_site at, MPI_Win win, char* name, int* length) {
    const char* call = "MPI_Win_get_name";
    return checked_call(WindowHandle{win}, [&]() -> int {
        Rank& self = calling_rank(call, at);
        check_not_null(self, name, "the name", call, at);
        check_not_null(self, length, "the length pointer", call, at);
        const std::string& own = window_of(self, win, call, at).local.name;
        std::memcpy(name, own.c_str(), own.size() + 1);
        *length = static_cast<int>(own.size());
        return MPI_SUCCESS;
    });
}

int bamboo_win_create_keyval(bamboo_site at, MPI_Win_copy_attr_function* copy, MPI_Win_delete_attr_function* remove,
                             int* keyval, void* extra_state) {
    const char* call = "MPI_Win_create_keyval";
    return checked_call(MPI_COMM_WORLD, [&]() -> int {
        Rank& self = calling_rank(call, at);
        check_not_null(self, keyval, "the keyval pointer", call, at);
        self.win_keyvals.push_back(WinKeyval{copy, remove, extra_state});
        *keyval = kFirstUserKeyval + static_cast<int>(self.win_keyvals.size() - 1);
        return MPI_SUCCESS;
    });
}

int bamboo_win_free_keyval(bamboo_site at, int* keyval) {
    const char* call = "MPI_Win_free_keyval";
    return checked_call(MPI_COMM_WORLD, [&]() -> int {
        Rank& self = calling_rank(call, at);
        check_not_null(self, keyval, "the keyval pointer", call, at);
        user_win_keyval(self, *keyval, call, at).freed = true;
        *keyval = MPI_KEYVAL_INVALID;
        return MPI_SUCCESS;
    });
}

int bamboo_win_set_attr(bamboo_site at, MPI_Win win, int keyval, void* value) {
    const char* call = "MPI_Win_set_attr";
    return checked_call(WindowHandle{win}, [&]() -> int {
        Rank& self = calling_rank(call, at);
        WindowEntry& window = window_of(self, win, call, at);
        user_win_keyval(self, keyval, call, at);
        auto old = window.local.attributes.find(keyval);
        if (old != window.local.attributes.end()) run_delete_callback(self, win, keyval, old->second, call, at);
        window.local.attributes[keyval] = value;
        return MPI_SUCCESS;
    });
}

int bamboo_win_get_attr(bamboo_site at, MPI_Win win, int keyval, void* value, int* flag) {
    const char* call = "MPI_Win_get_attr";
    return checked_call(WindowHandle{win}, [&]() -> int {
        Rank& self = calling_rank(call, at);
        WindowEntry& window = window_of(self, win, call, at);
        check_not_null(self, value, "the attribute pointer", call, at);
        check_not_null(self, flag, "the flag pointer", call, at);
        void* attribute = predefined_attribute(window, keyval);
        bool found = attribute != nullptr || keyval == MPI_WIN_BASE;
        if (!found) {
            user_win_keyval(self, keyval, call, at);
            auto cached = window.local.attributes.find(keyval);
            found = cached != window.local.attributes.end();
            if (found) attribute = cached->second;
        }
        *flag = found;
        if (found) std::memcpy(value, &attribute, sizeof attribute);  // `value` is a void** in disguise
        return MPI_SUCCESS;
    });
}

int bamboo_win_delete_attr(bamboo_site at, MPI_Win win, int keyval) {
    const char* call = "MPI_Win_delete_attr";
    return checked_call(WindowHandle{win}, [&]() -> int {
        Rank& self = calling_rank(call, at);
        WindowEntry& window = window_of(self, win, call, at);
        user_win_keyval(self, keyval, call, at);
        auto attribute = window.local.attributes.find(keyval);
        if (attribute == window.local.attributes.end())
            call_error(MPI_ERR_KEYVAL, self.vrank(), call, at, "keyval %d has no attribute on this window", keyval);
        run_delete_callback(self, win, keyval, attribute->second, call, at);
        window.local.attributes.erase(attribute);
        return MPI_SUCCESS;
    });
}

}  // extern "C"
