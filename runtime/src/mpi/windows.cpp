// Windows (MPI_Win_create): made and freed collectively over a communicator, with names and
// cached attributes like communicators'. The one-sided operations on them (MPI_Put, MPI_Get,
// MPI_Win_fence...) are not in the runtime yet: a program that calls one gets a translation
// error naming it.
#include <mpi.h>

#include <cstring>

#include "bamboo.h"
#include "collectives/algorithms.hpp"
#include "collectives/channel.hpp"
#include "messaging/rank.hpp"
#include "messaging/routes.hpp"
#include "mpi/api.hpp"
#include "util/errors.hpp"

namespace bamboo {
namespace {

WindowEntry& window_of(Rank& self, MPI_Win win, const char* call, bamboo_site at) {
    if (win == MPI_WIN_NULL) call_error(MPI_ERR_WIN, self.vrank(), call, at, "the window is MPI_WIN_NULL");
    WindowEntry* entry = self.windows.find(win);
    if (!entry) call_error(MPI_ERR_WIN, self.vrank(), call, at, "invalid window (freed, or not made by this task)");
    return *entry;
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
        CommView view = resolve_comm(self, comm, call, at);
        intra_only(self, view, call, at);
        if (size < 0) call_error(MPI_ERR_SIZE, self.vrank(), call, at, "the size %ld is negative", static_cast<long>(size));
        if (disp_unit <= 0) call_error(MPI_ERR_DISP, self.vrank(), call, at, "the displacement unit %d is not positive",
                                       disp_unit);
        // Collective, as MPI has it: no member goes on before all have made their part.
        CollectiveChannel ch(self, view, call, at);
        collectives::barrier(ch);
        WindowEntry entry;
        entry.comm = shared_comm(self, comm);
        entry.rank = view.rank;
        entry.local.base = base;
        entry.local.size = size;
        entry.local.disp_unit = disp_unit;
        *win = self.windows.insert(std::move(entry));
        return MPI_SUCCESS;
    });
}

int bamboo_win_free(bamboo_site at, MPI_Win* win) {
    const char* call = "MPI_Win_free";
    return checked_call(MPI_COMM_WORLD, [&]() -> int {
        Rank& self = calling_rank(call, at);
        check_not_null(self, win, "the window pointer", call, at);
        WindowEntry& window = window_of(self, *win, call, at);
        while (!window.local.attributes.empty()) {
            auto [keyval, value] = *window.local.attributes.begin();
            window.local.attributes.erase(window.local.attributes.begin());
            run_delete_callback(self, *win, keyval, value, call, at);
        }
        CollectiveChannel ch(self, CommView{window.comm.get(), window.rank}, call, at);
        collectives::barrier(ch);
        self.windows.erase(*win);
        *win = MPI_WIN_NULL;
        return MPI_SUCCESS;
    });
}

int bamboo_win_get_group(bamboo_site at, MPI_Win win, MPI_Group* group) {
    const char* call = "MPI_Win_get_group";
    return checked_call(MPI_COMM_WORLD, [&]() -> int {
        Rank& self = calling_rank(call, at);
        check_not_null(self, group, "the group pointer", call, at);
        *group = self.groups.insert(window_of(self, win, call, at).comm->vranks());
        return MPI_SUCCESS;
    });
}

int bamboo_win_set_name(bamboo_site at, MPI_Win win, const char* name) {
    const char* call = "MPI_Win_set_name";
    return checked_call(MPI_COMM_WORLD, [&]() -> int {
        Rank& self = calling_rank(call, at);
        check_not_null(self, name, "the name", call, at);
        window_of(self, win, call, at).local.name.assign(name, strnlen(name, MPI_MAX_OBJECT_NAME - 1));
        return MPI_SUCCESS;
    });
}

int bamboo_win_get_name(bamboo_site at, MPI_Win win, char* name, int* length) {
    const char* call = "MPI_Win_get_name";
    return checked_call(MPI_COMM_WORLD, [&]() -> int {
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
    return checked_call(MPI_COMM_WORLD, [&]() -> int {
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
    return checked_call(MPI_COMM_WORLD, [&]() -> int {
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
    return checked_call(MPI_COMM_WORLD, [&]() -> int {
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
