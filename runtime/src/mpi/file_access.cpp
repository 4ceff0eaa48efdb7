// Reading and writing files, and their file pointers: each task's access goes through its own
// handle of the MPI library (mpi/files.cpp), whose view and datatype engine place the data.
//
//   explicit offsets, the individual file pointer   the library's call on the task's handle
//   collective (_all, _at_all, their split and nonblocking forms)   the same, each task on its
//            own: collective I/O is an optimization in MPI's semantics, which the library
//            would make by aggregating the members' accesses; here none is aggregated
//   the shared file pointer (_shared)   moved by the access's size in etypes
//            (communicators/shared_file_pointer.hpp), then the library's explicit-offset call
//   ordered (_ordered)   collective: rank 0 moves the shared file pointer past every member's
//            part, each member's offset follows the parts of the ranks below it
//
// Nonblocking calls (MPI_File_iread...) do their I/O at the call: their request is complete at
// once, and the waits and tests of mpi/point_to_point.cpp retire it with the access's status.
// Split collectives likewise do theirs at the _begin. An access blocks its task's worker
// until the library returns.
#include <mpi.h>

#include <cerrno>
#include <cstring>
#include <vector>

#include "bamboo.h"
#include "collectives/algorithms.hpp"
#include "collectives/channel.hpp"
#include "messaging/rank.hpp"
#include "mpi/api.hpp"
#include "mpi/files.hpp"
#include "util/errors.hpp"
#include "util/mpi_guard.hpp"

namespace bamboo {
namespace {

enum class Direction { read, write };

// Where an access starts.
enum class Positioning {
    individual,  // the task's individual file pointer
    explicit_offset,
    shared,      // the shared file pointer, independently
    ordered,     // the shared file pointer, collectively in rank order
};

// One access through the library's blocking calls.
struct Access {
    Direction direction;
    Positioning positioning;
    MPI_Offset offset;  // explicit_offset only: in etypes of the view
    void* buf;
    int count;
    MPI_Datatype type;
};

// The access's size in etypes of the file's view: how far it moves a file pointer.
MPI_Offset etypes_of(const Rank& self, const FileEntry& file, const Access& access, const char* call,
                     bamboo_site at) {
    check_count(self, access.count, "the count", call, at);
    int size = 0;
    call_library(self, call, at, [&] { return MPI_Type_size(access.type, &size); });
    return static_cast<MPI_Offset>(access.count) * size / file.etype_size;
}

// MPI_File_read_ordered and MPI_File_write_ordered: where this member's part starts, after
// the parts of the ranks below it, from the shared file pointer, which rank 0 moves past all.
MPI_Offset ordered_offset(Rank& self, const FileEntry& file, MPI_Offset etypes, const char* call, bamboo_site at) {
    CommView comm = file_comm(file);
    std::vector<MPI_Offset> parts = allgather_value(self, comm, etypes, call, at);
    MPI_Offset below = 0, total = 0;
    for (int r = 0; r < comm.size(); ++r) {
        if (r < comm.rank) below += parts[r];
        total += parts[r];
    }
    struct {
        int error;  // rank 0's errno, if the shared file pointer failed
        MPI_Offset position;
    } start{0, 0};
    if (comm.rank == 0 && !file.shared->fetch_add(total, &start.position)) start.error = errno;
    bcast_value(self, comm, &start, call, at);
    if (start.error) shared_pointer_failed(self, file, start.error, call, at);
    return start.position + below;
}

// The access at `offset`, or at the individual file pointer for nullptr.
int library_access(const FileEntry& file, const Access& access, const MPI_Offset* offset, MPI_Status* status) {
    MpiGuard guard;
    if (access.direction == Direction::read)
        return offset ? MPI_File_read_at(file.library, *offset, access.buf, access.count, access.type, status)
                      : MPI_File_read(file.library, access.buf, access.count, access.type, status);
    return offset ? MPI_File_write_at(file.library, *offset, access.buf, access.count, access.type, status)
                  : MPI_File_write(file.library, access.buf, access.count, access.type, status);
}

// Does `access` on `file`, filling `status` (which may be MPI_STATUS_IGNORE).
void perform(Rank& self, FileEntry& file, const Access& access, MPI_Status* status, const char* call, bamboo_site at) {
    MPI_Offset offset = access.offset;
    switch (access.positioning) {
    case Positioning::individual:
        call_library(self, call, at, [&] { return library_access(file, access, nullptr, status); });
        return;
    case Positioning::explicit_offset:
        break;
    case Positioning::shared:
        if (!file.shared->fetch_add(etypes_of(self, file, access, call, at), &offset))
            shared_pointer_failed(self, file, errno, call, at);
        break;
    case Positioning::ordered:
        offset = ordered_offset(self, file, etypes_of(self, file, access, call, at), call, at);
        break;
    }
    call_library(self, call, at, [&] { return library_access(file, access, &offset, status); });
}

int blocking_access(const char* call, bamboo_site at, MPI_File fh, const Access& access, MPI_Status* status) {
    return checked_call(fh, [&]() -> int {
        Rank& self = calling_rank(call, at);
        perform(self, file_of(self, fh, call, at), access, status, call, at);
        return MPI_SUCCESS;
    });
}

// A nonblocking access, done now: its request is complete, with the access's byte count.
int nonblocking_access(const char* call, bamboo_site at, MPI_File fh, const Access& access, MPI_Request* request) {
    return checked_call(fh, [&]() -> int {
        Rank& self = calling_rank(call, at);
        FileEntry& file = file_of(self, fh, call, at);
        check_not_null(self, request, "the request pointer", call, at);
        MPI_Status status;
        perform(self, file, access, &status, call, at);
        MPI_Count bytes = 0;
        {
            MpiGuard guard;
            MPI_Get_elements_x(&status, MPI_BYTE, &bytes);
        }
        Request* r = new_request(self, request, call, at);
        r->kind = Request::Kind::file;
        r->owner = &self;
        r->call = call;
        r->site = at;
        r->source = MPI_ANY_SOURCE;
        r->tag = MPI_ANY_TAG;
        r->bytes = static_cast<std::size_t>(bytes);
        r->complete.store(true);
        return MPI_SUCCESS;
    });
}

// A split collective's _begin: the access, its status kept for the _end.
int begin_split(const char* call, bamboo_site at, MPI_File fh, const Access& access) {
    return checked_call(fh, [&]() -> int {
        Rank& self = calling_rank(call, at);
        FileEntry& file = file_of(self, fh, call, at);
        if (file.split_begun)
            call_error(MPI_ERR_IO, self.vrank(), call, at, "%s on this file has not been ended yet", file.split_begun);
        perform(self, file, access, &file.split_status, call, at);
        file.split_begun = call;
        return MPI_SUCCESS;
    });
}

// A split collective's _end, of the _begin named `begun_by`.
int end_split(const char* call, bamboo_site at, MPI_File fh, const char* begun_by, MPI_Status* status) {
    return checked_call(fh, [&]() -> int {
        Rank& self = calling_rank(call, at);
        FileEntry& file = file_of(self, fh, call, at);
        if (!file.split_begun || std::strcmp(file.split_begun, begun_by) != 0)
            call_error(MPI_ERR_IO, self.vrank(), call, at, "no %s on this file is waiting for its end", begun_by);
        if (status != MPI_STATUS_IGNORE) *status = file.split_status;
        file.split_begun = nullptr;
        return MPI_SUCCESS;
    });
}

Access reading(Positioning positioning, MPI_Offset offset, void* buf, int count, MPI_Datatype type) {
    return Access{Direction::read, positioning, offset, buf, count, type};
}

Access writing(Positioning positioning, MPI_Offset offset, const void* buf, int count, MPI_Datatype type) {
    return Access{Direction::write, positioning, offset, const_cast<void*>(buf), count, type};
}

// MPI_File_seek_shared at rank 0: the shared file pointer `offset` from where `whence` says,
// or the library's error.
SharedMove seek_shared_at_rank_zero(const FileEntry& file, MPI_Offset offset, int whence) {
    SharedMove move{MPI_SUCCESS, 0};
    if (whence == MPI_SEEK_SET) {
        move.position = offset;
    } else if (whence == MPI_SEEK_CUR) {
        if (!file.shared->load(&move.position)) move.code = MPI_ERR_IO;
        move.position += offset;
    } else {
        // The end of the file in the view's etypes, as the library's seek of the individual
        // file pointer finds it (which is put back after), or its error for a bad `whence`.
        MpiGuard guard;
        MPI_Offset individual = 0;
        MPI_File_get_position(file.library, &individual);
        move.code = MPI_File_seek(file.library, offset, whence);
        if (move.code != MPI_SUCCESS) return move;
        MPI_File_get_position(file.library, &move.position);
        MPI_File_seek(file.library, individual, MPI_SEEK_SET);
    }
    if (move.code == MPI_SUCCESS && move.position < 0) move.code = MPI_ERR_ARG;
    return move;
}

}  // namespace
}  // namespace bamboo

using namespace bamboo;

extern "C" {

// ---- Explicit offsets ----

int bamboo_file_read_at(bamboo_site at, MPI_File fh, MPI_Offset offset, void* buf, int count, MPI_Datatype type,
                        MPI_Status* status) {
    return blocking_access("MPI_File_read_at", at, fh, reading(Positioning::explicit_offset, offset, buf, count, type),
                           status);
}

int bamboo_file_write_at(bamboo_site at, MPI_File fh, MPI_Offset offset, const void* buf, int count,
                         MPI_Datatype type, MPI_Status* status) {
    return blocking_access("MPI_File_write_at", at, fh,
                           writing(Positioning::explicit_offset, offset, buf, count, type), status);
}

int bamboo_file_read_at_all(bamboo_site at, MPI_File fh, MPI_Offset offset, void* buf, int count,
                            MPI_Datatype type, MPI_Status* status) {
    return blocking_access("MPI_File_read_at_all", at, fh,
                           reading(Positioning::explicit_offset, offset, buf, count, type), status);
}

int bamboo_file_write_at_all(bamboo_site at, MPI_File fh, MPI_Offset offset, const void* buf, int count,
                             MPI_Datatype type, MPI_Status* status) {
    return blocking_access("MPI_File_write_at_all", at, fh,
                           writing(Positioning::explicit_offset, offset, buf, count, type), status);
}

int bamboo_file_iread_at(bamboo_site at, MPI_File fh, MPI_Offset offset, void* buf, int count, MPI_Datatype type,
                         MPI_Request* request) {
    return nonblocking_access("MPI_File_iread_at", at, fh,
                              reading(Positioning::explicit_offset, offset, buf, count, type), request);
}

int bamboo_file_iwrite_at(bamboo_site at, MPI_File fh, MPI_Offset offset, const void* buf, int count,
                          MPI_Datatype type, MPI_Request* request) {
    return nonblocking_access("MPI_File_iwrite_at", at, fh,
                              writing(Positioning::explicit_offset, offset, buf, count, type), request);
}

int bamboo_file_iread_at_all(bamboo_site at, MPI_File fh, MPI_Offset offset, void* buf, int count,
                             MPI_Datatype type, MPI_Request* request) {
    return nonblocking_access("MPI_File_iread_at_all", at, fh,
                              reading(Positioning::explicit_offset, offset, buf, count, type), request);
}

int bamboo_file_iwrite_at_all(bamboo_site at, MPI_File fh, MPI_Offset offset, const void* buf, int count,
                              MPI_Datatype type, MPI_Request* request) {
    return nonblocking_access("MPI_File_iwrite_at_all", at, fh,
                              writing(Positioning::explicit_offset, offset, buf, count, type), request);
}

int bamboo_file_read_at_all_begin(bamboo_site at, MPI_File fh, MPI_Offset offset, void* buf, int count,
                                  MPI_Datatype type) {
    return begin_split("MPI_File_read_at_all_begin", at, fh,
                       reading(Positioning::explicit_offset, offset, buf, count, type));
}

int bamboo_file_read_at_all_end(bamboo_site at, MPI_File fh, void*, MPI_Status* status) {
    return end_split("MPI_File_read_at_all_end", at, fh, "MPI_File_read_at_all_begin", status);
}

int bamboo_file_write_at_all_begin(bamboo_site at, MPI_File fh, MPI_Offset offset, const void* buf, int count,
                                   MPI_Datatype type) {
    return begin_split("MPI_File_write_at_all_begin", at, fh,
                       writing(Positioning::explicit_offset, offset, buf, count, type));
}

int bamboo_file_write_at_all_end(bamboo_site at, MPI_File fh, const void*, MPI_Status* status) {
    return end_split("MPI_File_write_at_all_end", at, fh, "MPI_File_write_at_all_begin", status);
}

// ---- The individual file pointer ----

int bamboo_file_read(bamboo_site at, MPI_File fh, void* buf, int count, MPI_Datatype type, MPI_Status* status) {
    return blocking_access("MPI_File_read", at, fh, reading(Positioning::individual, 0, buf, count, type), status);
}

int bamboo_file_write(bamboo_site at, MPI_File fh, const void* buf, int count, MPI_Datatype type,
                      MPI_Status* status) {
    return blocking_access("MPI_File_write", at, fh, writing(Positioning::individual, 0, buf, count, type), status);
}

int bamboo_file_read_all(bamboo_site at, MPI_File fh, void* buf, int count, MPI_Datatype type, MPI_Status* status) {
    return blocking_access("MPI_File_read_all", at, fh, reading(Positioning::individual, 0, buf, count, type), status);
}

int bamboo_file_write_all(bamboo_site at, MPI_File fh, const void* buf, int count, MPI_Datatype type,
                          MPI_Status* status) {
    return blocking_access("MPI_File_write_all", at, fh, writing(Positioning::individual, 0, buf, count, type),
                           status);
}

int bamboo_file_iread(bamboo_site at, MPI_File fh, void* buf, int count, MPI_Datatype type, MPI_Request* request) {
    return nonblocking_access("MPI_File_iread", at, fh, reading(Positioning::individual, 0, buf, count, type),
                              request);
}

int bamboo_file_iwrite(bamboo_site at, MPI_File fh, const void* buf, int count, MPI_Datatype type,
                       MPI_Request* request) {
    return nonblocking_access("MPI_File_iwrite", at, fh, writing(Positioning::individual, 0, buf, count, type),
                              request);
}

int bamboo_file_iread_all(bamboo_site at, MPI_File fh, void* buf, int count, MPI_Datatype type,
                          MPI_Request* request) {
    return nonblocking_access("MPI_File_iread_all", at, fh, reading(Positioning::individual, 0, buf, count, type),
                              request);
}

int bamboo_file_iwrite_all(bamboo_site at, MPI_File fh, const void* buf, int count, MPI_Datatype type,
                           MPI_Request* request) {
    return nonblocking_access("MPI_File_iwrite_all", at, fh, writing(Positioning::individual, 0, buf, count, type),
                              request);
}

int bamboo_file_read_all_begin(bamboo_site at, MPI_File fh, void* buf, int count, MPI_Datatype type) {
    return begin_split("MPI_File_read_all_begin", at, fh, reading(Positioning::individual, 0, buf, count, type));
}

int bamboo_file_read_all_end(bamboo_site at, MPI_File fh, void*, MPI_Status* status) {
    return end_split("MPI_File_read_all_end", at, fh, "MPI_File_read_all_begin", status);
}

int bamboo_file_write_all_begin(bamboo_site at, MPI_File fh, const void* buf, int count, MPI_Datatype type) {
    return begin_split("MPI_File_write_all_begin", at, fh, writing(Positioning::individual, 0, buf, count, type));
}

int bamboo_file_write_all_end(bamboo_site at, MPI_File fh, const void*, MPI_Status* status) {
    return end_split("MPI_File_write_all_end", at, fh, "MPI_File_write_all_begin", status);
}

int bamboo_file_seek(bamboo_site at, MPI_File fh, MPI_Offset offset, int whence) {
    return file_library_call("MPI_File_seek", at, fh,
                             [&](MPI_File library) { return MPI_File_seek(library, offset, whence); });
}

int bamboo_file_get_position(bamboo_site at, MPI_File fh, MPI_Offset* offset) {
    return file_library_call("MPI_File_get_position", at, fh,
                             [&](MPI_File library) { return MPI_File_get_position(library, offset); });
}

int bamboo_file_get_byte_offset(bamboo_site at, MPI_File fh, MPI_Offset offset, MPI_Offset* disp) {
    return file_library_call("MPI_File_get_byte_offset", at, fh,
                             [&](MPI_File library) { return MPI_File_get_byte_offset(library, offset, disp); });
}

// ---- The shared file pointer ----

int bamboo_file_read_shared(bamboo_site at, MPI_File fh, void* buf, int count, MPI_Datatype type,
                            MPI_Status* status) {
    return blocking_access("MPI_File_read_shared", at, fh, reading(Positioning::shared, 0, buf, count, type), status);
}

int bamboo_file_write_shared(bamboo_site at, MPI_File fh, const void* buf, int count, MPI_Datatype type,
                             MPI_Status* status) {
    return blocking_access("MPI_File_write_shared", at, fh, writing(Positioning::shared, 0, buf, count, type),
                           status);
}

int bamboo_file_iread_shared(bamboo_site at, MPI_File fh, void* buf, int count, MPI_Datatype type,
                             MPI_Request* request) {
    return nonblocking_access("MPI_File_iread_shared", at, fh, reading(Positioning::shared, 0, buf, count, type),
                              request);
}

int bamboo_file_iwrite_shared(bamboo_site at, MPI_File fh, const void* buf, int count, MPI_Datatype type,
                              MPI_Request* request) {
    return nonblocking_access("MPI_File_iwrite_shared", at, fh, writing(Positioning::shared, 0, buf, count, type),
                              request);
}

int bamboo_file_read_ordered(bamboo_site at, MPI_File fh, void* buf, int count, MPI_Datatype type,
                             MPI_Status* status) {
    return blocking_access("MPI_File_read_ordered", at, fh, reading(Positioning::ordered, 0, buf, count, type),
                           status);
}

int bamboo_file_write_ordered(bamboo_site at, MPI_File fh, const void* buf, int count, MPI_Datatype type,
                              MPI_Status* status) {
    return blocking_access("MPI_File_write_ordered", at, fh, writing(Positioning::ordered, 0, buf, count, type),
                           status);
}

int bamboo_file_read_ordered_begin(bamboo_site at, MPI_File fh, void* buf, int count, MPI_Datatype type) {
    return begin_split("MPI_File_read_ordered_begin", at, fh, reading(Positioning::ordered, 0, buf, count, type));
}

int bamboo_file_read_ordered_end(bamboo_site at, MPI_File fh, void*, MPI_Status* status) {
    return end_split("MPI_File_read_ordered_end", at, fh, "MPI_File_read_ordered_begin", status);
}

int bamboo_file_write_ordered_begin(bamboo_site at, MPI_File fh, const void* buf, int count, MPI_Datatype type) {
    return begin_split("MPI_File_write_ordered_begin", at, fh, writing(Positioning::ordered, 0, buf, count, type));
}

int bamboo_file_write_ordered_end(bamboo_site at, MPI_File fh, const void*, MPI_Status* status) {
    return end_split("MPI_File_write_ordered_end", at, fh, "MPI_File_write_ordered_begin", status);
}

int bamboo_file_seek_shared(bamboo_site at, MPI_File fh, MPI_Offset offset, int whence) {
    const char* call = "MPI_File_seek_shared";
    return checked_call(fh, [&]() -> int {
        Rank& self = calling_rank(call, at);
        FileEntry& file = file_of(self, fh, call, at);
        int code = move_shared_position(self, file, call, at,
                                        [&] { return seek_shared_at_rank_zero(file, offset, whence); });
        check_library(self, code, call, at);
        return MPI_SUCCESS;
    });
}

int bamboo_file_get_position_shared(bamboo_site at, MPI_File fh, MPI_Offset* offset) {
    const char* call = "MPI_File_get_position_shared";
    return checked_call(fh, [&]() -> int {
        Rank& self = calling_rank(call, at);
        check_not_null(self, offset, "the offset pointer", call, at);
        FileEntry& file = file_of(self, fh, call, at);
        if (!file.shared->load(offset)) shared_pointer_failed(self, file, errno, call, at);
        return MPI_SUCCESS;
    });
}

}  // extern "C"
