// Communicator names, cached attributes and info hints. Both belong to the task: a rank is a process to
// MPI, and callbacks run in the task that makes the call that runs them.
#include "mpi/attributes.hpp"

#include <mpi.h>

#include <algorithm>
#include <climits>
#include <cstring>

#include "bamboo.h"
#include "messaging/routes.hpp"
#include "mpi/api.hpp"
#include "util/errors.hpp"
#include "util/mpi_guard.hpp"

namespace bamboo {
namespace {

// The values of the predefined attributes, alike for every task of the job.
struct PredefinedValues {
    int tag_ub;
    int host;
    int io;
    int wtime_is_global;
    int universe_size;
    int appnum;
    int lastusedcode;
};

// The library's own answer for `key` on its MPI_COMM_WORLD, or `otherwise` when it has none.
int library_attribute(int key, int otherwise) {
    int* value = nullptr;
    int flag = 0;
    MPI_Comm_get_attr(MPI_COMM_WORLD, key, &value, &flag);
    return flag ? *value : otherwise;
}

const PredefinedValues& predefined_values(int vf) {
    static const PredefinedValues values = [vf] {
        MpiGuard guard;
        int universe = library_attribute(MPI_UNIVERSE_SIZE, 0);
        return PredefinedValues{
            INT_MAX,  // tags are ints; the runtime takes any that is not negative
            MPI_PROC_NULL,  // no task is a host
            MPI_ANY_SOURCE,  // every task may do I/O
            library_attribute(MPI_WTIME_IS_GLOBAL, 0),  // MPI_Wtime is the library's clock
            universe > 0 ? universe * vf : 0,  // each of the library's processes hosts VF tasks
            library_attribute(MPI_APPNUM, 0),
            library_attribute(MPI_LASTUSEDCODE, MPI_ERR_LASTCODE),
        };
    }();
    return values;
}

// The place of a predefined attribute's value, or nullptr if `key` is none.
const int* predefined_attribute(const Rank& self, int key) {
    const PredefinedValues& values = predefined_values(self.routes().vf);
    if (key == MPI_TAG_UB) return &values.tag_ub;
    if (key == MPI_HOST) return &values.host;
    if (key == MPI_IO) return &values.io;
    if (key == MPI_WTIME_IS_GLOBAL) return &values.wtime_is_global;
    if (key == MPI_UNIVERSE_SIZE) return &values.universe_size;
    if (key == MPI_APPNUM) return &values.appnum;
    if (key == MPI_LASTUSEDCODE) return &values.lastusedcode;
    return nullptr;
}

Keyval* find_keyval(Rank& self, int keyval) {
    if (keyval < kFirstUserKeyval) return nullptr;
    std::size_t index = static_cast<std::size_t>(keyval - kFirstUserKeyval);
    return index < self.keyvals.size() ? &self.keyvals[index] : nullptr;
}

// A key the program may still name.
Keyval& user_keyval(Rank& self, int keyval, const char* call, bamboo_site at) {
    Keyval* key = find_keyval(self, keyval);
    if (!key || key->freed)
        call_error(MPI_ERR_KEYVAL, self.vrank(), call, at,
                   "invalid keyval %d (freed, predefined, or not made by this task's MPI calls)", keyval);
    return *key;
}

void run_delete_callback(Rank& self, MPI_Comm handle, int keyval, void* value, const char* call,
                         bamboo_site at) {
    const Keyval& key = *find_keyval(self, keyval);
    if (!key.remove) return;  // MPICH's MPI_COMM_NULL_DELETE_FN is a null pointer
    int code = key.remove(handle, keyval, value, key.extra_state);
    if (code != MPI_SUCCESS)
        call_error(code, self.vrank(), call, at, "the delete callback of keyval %d returned %d", keyval, code);
}

void forget_order(CommLocal& local, int keyval) {
    local.set_order.erase(std::remove(local.set_order.begin(), local.set_order.end(), keyval), local.set_order.end());
}

int create_keyval(const char* call, bamboo_site at, MPI_Comm_copy_attr_function* copy,
                  MPI_Comm_delete_attr_function* remove, int* keyval, void* extra_state) {
    return checked_call(MPI_COMM_WORLD, [&]() -> int {
        Rank& self = calling_rank(call, at);
        check_not_null(self, keyval, "the keyval pointer", call, at);
        self.keyvals.push_back(Keyval{copy, remove, extra_state});
        *keyval = kFirstUserKeyval + static_cast<int>(self.keyvals.size() - 1);
        return MPI_SUCCESS;
    });
}

int free_keyval(const char* call, bamboo_site at, int* keyval) {
    return checked_call(MPI_COMM_WORLD, [&]() -> int {
        Rank& self = calling_rank(call, at);
        check_not_null(self, keyval, "the keyval pointer", call, at);
        user_keyval(self, *keyval, call, at).freed = true;
        *keyval = MPI_KEYVAL_INVALID;
        return MPI_SUCCESS;
    });
}

int set_attr(const char* call, bamboo_site at, MPI_Comm comm, int keyval, void* value) {
    return checked_call(comm, [&]() -> int {
        Rank& self = calling_rank(call, at);
        CommLocal& local = comm_local(self, comm, call, at);
        user_keyval(self, keyval, call, at);
        auto old = local.attributes.find(keyval);
        if (old != local.attributes.end()) run_delete_callback(self, comm, keyval, old->second, call, at);
        local.attributes[keyval] = value;
        forget_order(local, keyval);
        local.set_order.push_back(keyval);
        return MPI_SUCCESS;
    });
}

int get_attr(const char* call, bamboo_site at, MPI_Comm comm, int keyval, void* value, int* flag) {
    return checked_call(comm, [&]() -> int {
        Rank& self = calling_rank(call, at);
        CommLocal& local = comm_local(self, comm, call, at);
        check_not_null(self, value, "the attribute pointer", call, at);
        check_not_null(self, flag, "the flag pointer", call, at);
        bool found;
        void* attribute = nullptr;
        if (const int* predefined = predefined_attribute(self, keyval)) {
            found = local.predefined_attributes;
            attribute = const_cast<int*>(predefined);
        } else {
            user_keyval(self, keyval, call, at);
            auto cached = local.attributes.find(keyval);
            found = cached != local.attributes.end();
            if (found) attribute = cached->second;
        }
        *flag = found;
        // `value` is a void** in disguise (the C binding's void*).
        if (found) std::memcpy(value, &attribute, sizeof attribute);
        return MPI_SUCCESS;
    });
}

int delete_attr(const char* call, bamboo_site at, MPI_Comm comm, int keyval) {
    return checked_call(comm, [&]() -> int {
        Rank& self = calling_rank(call, at);
        CommLocal& local = comm_local(self, comm, call, at);
        user_keyval(self, keyval, call, at);
        auto attribute = local.attributes.find(keyval);
        if (attribute == local.attributes.end())
            call_error(MPI_ERR_KEYVAL, self.vrank(), call, at, "keyval %d has no attribute on this communicator",
                       keyval);
        run_delete_callback(self, comm, keyval, attribute->second, call, at);
        local.attributes.erase(keyval);
        forget_order(local, keyval);
        return MPI_SUCCESS;
    });
}

}  // namespace

void forget_info(CommLocal& comm) {
    if (comm.info == MPI_INFO_NULL) return;
    MpiGuard guard;
    MPI_Info_free(&comm.info);
}

void copy_attributes(Rank& self, MPI_Comm parent_handle, const CommLocal& parent, CommLocal& child,
                     const char* call, bamboo_site at) {
    child.predefined_attributes = parent.predefined_attributes;
    for (int keyval : parent.set_order) {
        void* value = parent.attributes.at(keyval);
        const Keyval& key = *find_keyval(self, keyval);
        if (!key.copy) continue;  // MPICH's MPI_COMM_NULL_COPY_FN is a null pointer
        void* copy = nullptr;
        int flag = 0;
        int code = key.copy(parent_handle, keyval, key.extra_state, value, &copy, &flag);
        if (code != MPI_SUCCESS)
            call_error(code, self.vrank(), call, at, "the copy callback of keyval %d returned %d", keyval, code);
        if (!flag) continue;
        child.attributes[keyval] = copy;
        child.set_order.push_back(keyval);
    }
}

void delete_attributes(Rank& self, MPI_Comm handle, CommLocal& comm, const char* call, bamboo_site at) {
    // Last set, first deleted: what MPI requires of MPI_COMM_SELF's at MPI_Finalize.
    while (!comm.set_order.empty()) {
        int keyval = comm.set_order.back();
        comm.set_order.pop_back();
        void* value = comm.attributes[keyval];
        comm.attributes.erase(keyval);
        run_delete_callback(self, handle, keyval, value, call, at);
    }
}

}  // namespace bamboo

using namespace bamboo;

extern "C" {

int bamboo_comm_set_name(bamboo_site at, MPI_Comm comm, const char* name) {
    const char* call = "MPI_Comm_set_name";
    return checked_call(comm, [&]() -> int {
        Rank& self = calling_rank(call, at);
        CommLocal& local = comm_local(self, comm, call, at);
        check_not_null(self, name, "the name", call, at);
        local.name.assign(name, strnlen(name, MPI_MAX_OBJECT_NAME - 1));
        return MPI_SUCCESS;
    });
}

int bamboo_comm_get_name(bamboo_site at, MPI_Comm comm, char* name, int* length) {
    const char* call = "MPI_Comm_get_name";
    return checked_call(comm, [&]() -> int {
        Rank& self = calling_rank(call, at);
        const CommLocal& local = comm_local(self, comm, call, at);
        check_not_null(self, name, "the name", call, at);
        check_not_null(self, length, "the length pointer", call, at);
        std::memcpy(name, local.name.c_str(), local.name.size() + 1);
        *length = static_cast<int>(local.name.size());
        return MPI_SUCCESS;
    });
}

int bamboo_comm_create_keyval(bamboo_site at, MPI_Comm_copy_attr_function* copy,
                              MPI_Comm_delete_attr_function* remove, int* keyval, void* extra_state) {
    return create_keyval("MPI_Comm_create_keyval", at, copy, remove, keyval, extra_state);
}

int bamboo_keyval_create(bamboo_site at, MPI_Comm_copy_attr_function* copy,
                         MPI_Comm_delete_attr_function* remove, int* keyval, void* extra_state) {
    return create_keyval("MPI_Keyval_create", at, copy, remove, keyval, extra_state);
}

int bamboo_comm_free_keyval(bamboo_site at, int* keyval) {
    return free_keyval("MPI_Comm_free_keyval", at, keyval);
}

int bamboo_keyval_free(bamboo_site at, int* keyval) { return free_keyval("MPI_Keyval_free", at, keyval); }

int bamboo_comm_set_attr(bamboo_site at, MPI_Comm comm, int keyval, void* value) {
    return set_attr("MPI_Comm_set_attr", at, comm, keyval, value);
}

int bamboo_attr_put(bamboo_site at, MPI_Comm comm, int keyval, void* value) {
    return set_attr("MPI_Attr_put", at, comm, keyval, value);
}

int bamboo_comm_get_attr(bamboo_site at, MPI_Comm comm, int keyval, void* value, int* flag) {
    return get_attr("MPI_Comm_get_attr", at, comm, keyval, value, flag);
}

int bamboo_attr_get(bamboo_site at, MPI_Comm comm, int keyval, void* value, int* flag) {
    return get_attr("MPI_Attr_get", at, comm, keyval, value, flag);
}

int bamboo_comm_delete_attr(bamboo_site at, MPI_Comm comm, int keyval) {
    return delete_attr("MPI_Comm_delete_attr", at, comm, keyval);
}

int bamboo_attr_delete(bamboo_site at, MPI_Comm comm, int keyval) {
    return delete_attr("MPI_Attr_delete", at, comm, keyval);
}

int bamboo_comm_set_info(bamboo_site at, MPI_Comm comm, MPI_Info info) {
    const char* call = "MPI_Comm_set_info";
    return checked_call(comm, [&]() -> int {
        Rank& self = calling_rank(call, at);
        CommLocal& local = comm_local(self, comm, call, at);
        // The runtime takes no hints; it keeps them to give back, as MPI_Comm_get_info must.
        MPI_Info kept = MPI_INFO_NULL;
        if (info != MPI_INFO_NULL) {
            MpiGuard guard;
            check_library(self, MPI_Info_dup(info, &kept), call, at);
        }
        forget_info(local);
        local.info = kept;
        return MPI_SUCCESS;
    });
}

int bamboo_comm_get_info(bamboo_site at, MPI_Comm comm, MPI_Info* info_used) {
    const char* call = "MPI_Comm_get_info";
    return checked_call(comm, [&]() -> int {
        Rank& self = calling_rank(call, at);
        const CommLocal& local = comm_local(self, comm, call, at);
        check_not_null(self, info_used, "the info pointer", call, at);
        MpiGuard guard;
        int code = local.info == MPI_INFO_NULL ? MPI_Info_create(info_used) : MPI_Info_dup(local.info, info_used);
        check_library(self, code, call, at);
        return MPI_SUCCESS;
    });
}

}  // extern "C"
