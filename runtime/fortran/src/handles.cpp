// The tables from Fortran integers to the runtime's C handles, and the sentinels.
#include <algorithm>
#include <cstring>
#include <mutex>
#include <set>
#include <string>

#include "binding.hpp"
#include "predefined.hpp"

extern "C" {
MPI_Fint bamboo_fortran_status_ignore_[bamboo::fortran::kStatusSize];
MPI_Fint bamboo_fortran_statuses_ignore_[bamboo::fortran::kStatusSize];
MPI_Fint bamboo_fortran_in_place_;
MPI_Fint bamboo_fortran_bottom_;
}

namespace bamboo::fortran {
namespace {

// Integers of one kind of handle. Entry 0 is the null handle, then the predefined ones in
// predefined.hpp's order; the others are handed out as the C interface returns handles and
// reused once freed. Tasks of a process share the table, from several workers.
template <typename Handle>
class HandleTable {
public:
    HandleTable(Handle null, std::initializer_list<Handle> predefined) : null_(null) {
        slots_.push_back(null);
        slots_.insert(slots_.end(), predefined);
        fixed_ = slots_.size();
    }

    Handle get(Fint handle) {
        std::lock_guard<std::mutex> lock(mutex_);
        if (handle < 0 || static_cast<std::size_t>(handle) >= slots_.size()) return null_;
        return slots_[static_cast<std::size_t>(handle)];
    }

    Fint add(Handle handle) {
        if (handle == null_) return 0;
        std::lock_guard<std::mutex> lock(mutex_);
        for (std::size_t i = 1; i < fixed_; ++i)
            if (slots_[i] == handle) return static_cast<Fint>(i);
        if (!free_.empty()) {
            std::size_t slot = free_.back();
            free_.pop_back();
            slots_[slot] = handle;
            return static_cast<Fint>(slot);
        }
        slots_.push_back(handle);
        return static_cast<Fint>(slots_.size() - 1);
    }

    // The integer already naming `handle`, or a new one.
    Fint find_or_add(Handle handle) {
        {
            std::lock_guard<std::mutex> lock(mutex_);
            for (std::size_t i = 1; i < slots_.size(); ++i)
                if (slots_[i] == handle && handle != null_) return static_cast<Fint>(i);
        }
        return add(handle);
    }

    void set(Fint handle, Handle value) {
        std::lock_guard<std::mutex> lock(mutex_);
        if (handle > 0 && static_cast<std::size_t>(handle) < slots_.size()) slots_[static_cast<std::size_t>(handle)] = value;
    }

    void remove(Fint handle) {
        std::lock_guard<std::mutex> lock(mutex_);
        auto slot = static_cast<std::size_t>(handle);
        if (handle <= 0 || slot < fixed_ || slot >= slots_.size() || slots_[slot] == null_) return;
        slots_[slot] = null_;
        free_.push_back(slot);
    }

private:
    Handle null_;
    std::vector<Handle> slots_;
    std::vector<std::size_t> free_;
    std::size_t fixed_ = 0;
    std::mutex mutex_;
};

#define BAMBOO_LISTED(name) name,

HandleTable<MPI_Comm>& comms() {
    static HandleTable<MPI_Comm> table(MPI_COMM_NULL, {BAMBOO_FORTRAN_COMMS(BAMBOO_LISTED)});
    return table;
}
HandleTable<MPI_Datatype>& datatypes() {
    static HandleTable<MPI_Datatype> table(MPI_DATATYPE_NULL, {BAMBOO_FORTRAN_DATATYPES(BAMBOO_LISTED)});
    return table;
}
HandleTable<MPI_Op>& ops() {
    static HandleTable<MPI_Op> table(MPI_OP_NULL, {BAMBOO_FORTRAN_OPS(BAMBOO_LISTED)});
    return table;
}
HandleTable<MPI_Group>& groups() {
    static HandleTable<MPI_Group> table(MPI_GROUP_NULL, {BAMBOO_FORTRAN_GROUPS(BAMBOO_LISTED)});
    return table;
}
HandleTable<MPI_Errhandler>& errhandlers() {
    static HandleTable<MPI_Errhandler> table(MPI_ERRHANDLER_NULL, {BAMBOO_FORTRAN_ERRHANDLERS(BAMBOO_LISTED)});
    return table;
}
HandleTable<MPI_Info>& infos() {
    static HandleTable<MPI_Info> table(MPI_INFO_NULL, {});
    return table;
}
HandleTable<MPI_File>& files() {
    static HandleTable<MPI_File> table(MPI_FILE_NULL, {});
    return table;
}
HandleTable<MPI_Win>& windows() {
    static HandleTable<MPI_Win> table(MPI_WIN_NULL, {});
    return table;
}
HandleTable<MPI_Request>& request_table() {
    static HandleTable<MPI_Request> table(MPI_REQUEST_NULL, {});
    return table;
}

}  // namespace

MPI_Comm comm(Fint handle) { return comms().get(handle); }
MPI_Datatype datatype(Fint handle) { return datatypes().get(handle); }
MPI_Op op(Fint handle) { return ops().get(handle); }
MPI_Group group(Fint handle) { return groups().get(handle); }
MPI_Errhandler errhandler(Fint handle) { return errhandlers().get(handle); }
MPI_Info info(Fint handle) { return infos().get(handle); }
MPI_File file(Fint handle) { return files().get(handle); }
MPI_Win window(Fint handle) { return windows().get(handle); }

Fint comm_handle(MPI_Comm c) { return comms().add(c); }
Fint datatype_handle(MPI_Datatype type) { return datatypes().add(type); }
Fint known_datatype_handle(MPI_Datatype type) { return datatypes().find_or_add(type); }
Fint op_handle(MPI_Op o) { return ops().add(o); }
Fint group_handle(MPI_Group g) { return groups().add(g); }
Fint errhandler_handle(MPI_Errhandler handler) { return errhandlers().add(handler); }
Fint info_handle(MPI_Info i) { return infos().add(i); }
Fint file_handle(MPI_File f) { return files().add(f); }
Fint window_handle(MPI_Win w) { return windows().add(w); }

void forget_comm(Fint handle) { comms().remove(handle); }
void forget_datatype(Fint handle) { datatypes().remove(handle); }
void forget_group(Fint handle) { groups().remove(handle); }
void forget_op(Fint handle) { ops().remove(handle); }
void forget_errhandler(Fint handle) { errhandlers().remove(handle); }
void forget_info(Fint handle) { infos().remove(handle); }
void forget_file(Fint handle) { files().remove(handle); }
void forget_window(Fint handle) { windows().remove(handle); }

std::vector<MPI_Request> requests(const Fint* handles, int count) {
    std::vector<MPI_Request> c(static_cast<std::size_t>(std::max(count, 0)));
    for (int i = 0; i < count; ++i) c[static_cast<std::size_t>(i)] = request_table().get(handles[i]);
    return c;
}

void update_requests(Fint* handles, const std::vector<MPI_Request>& after, int count) {
    for (int i = 0; i < count; ++i) {
        MPI_Request request = after[static_cast<std::size_t>(i)];
        if (handles[i] == 0) continue;
        if (request == MPI_REQUEST_NULL) {
            request_table().remove(handles[i]);
            handles[i] = 0;
        } else {
            request_table().set(handles[i], request);  // persistent: kept, maybe changed
        }
    }
}

Fint request_handle(MPI_Request request) { return request_table().add(request); }

void* buffer(const void* argument) {
    if (argument == &bamboo_fortran_in_place_) return MPI_IN_PLACE;
    if (argument == &bamboo_fortran_bottom_) return MPI_BOTTOM;
    return const_cast<void*>(argument);
}

void store_status(const MPI_Status& status, Fint* fortran) {
    std::memcpy(fortran, &status, sizeof status);
}

MPI_Status load_status(const Fint* fortran) {
    MPI_Status status;
    std::memcpy(&status, fortran, sizeof status);
    return status;
}

StatusOut::StatusOut(Fint* fortran)
    : fortran_(fortran == bamboo_fortran_status_ignore_ ? nullptr : fortran) {}

void StatusOut::store() const {
    if (fortran_) store_status(status_, fortran_);
}

StatusesOut::StatusesOut(Fint* fortran, int count)
    : fortran_(fortran == bamboo_fortran_statuses_ignore_ ? nullptr : fortran),
      statuses_(fortran_ ? static_cast<std::size_t>(std::max(count, 0)) : 0) {}

void StatusesOut::store(int count) const {
    if (!fortran_) return;
    for (int i = 0; i < count; ++i) store_status(statuses_[static_cast<std::size_t>(i)], fortran_ + i * kStatusSize);
}

void store_string(const char* text, char* fortran, std::size_t length) {
    std::size_t n = std::min(std::strlen(text), length);
    std::memcpy(fortran, text, n);
    std::memset(fortran + n, ' ', length - n);
}

const char* kept_name(const char* name, std::size_t length) {
    static std::mutex mutex;
    static std::set<std::string> names;
    std::lock_guard<std::mutex> lock(mutex);
    return names.emplace(name, length).first->c_str();
}

std::string load_string(const char* fortran, std::size_t length) {
    std::size_t begin = 0, end = length;
    while (begin < end && fortran[begin] == ' ') ++begin;
    while (end > begin && fortran[end - 1] == ' ') --end;
    return std::string(fortran + begin, end - begin);
}

}  // namespace bamboo::fortran
