// Files (MPI_File_open): opened, closed and deleted, with their views, sizes, hints and
// atomicity. Each task opens the file itself through the MPI library, on the library's
// MPI_COMM_SELF, and the library's handle does the task's I/O and applies its view, with the
// library's own datatype engine (mpi/file_access.cpp). What MPI makes collective over the
// file's communicator is made collective over its tasks here:
//
//   open     the same access mode everywhere (MPI_ERR_NOT_SAME otherwise); rank 0 opens first,
//            with MPI_MODE_CREATE and MPI_MODE_EXCL as given, the others once it has, without
//            them, so that neither a create races nor an exclusive one fails where rank 0's
//            succeeded; rank 0's error is every task's
//   close    every task closes its handle; for MPI_MODE_DELETE_ON_CLOSE rank 0 deletes the
//            file once all have closed, and no task returns before; rank 0 deletes the shared
//            file pointer's record, if it has one (communicators/shared_file_pointer.hpp)
//   set_size, preallocate   by rank 0, whose error is every task's
//   set_view every task sets its own, and the shared file pointer goes back to 0
//
// set_info, set_atomicity and sync are each task's own call on its handle: MPI asks no
// synchronization of them. Atomic mode is the library's for each task's handle; whether it
// holds between the handles of different tasks is the library's locking's to say.
#include <mpi.h>
#include <unistd.h>

#include <cstdint>
#include <cstring>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "bamboo.h"
#include "collectives/algorithms.hpp"
#include "collectives/channel.hpp"
#include "messaging/rank.hpp"
#include "mpi/api.hpp"
#include "mpi/errhandlers.hpp"
#include "mpi/files.hpp"
#include "util/errors.hpp"
#include "util/mpi_guard.hpp"

namespace bamboo {
namespace {

// Rank 0's part of MPI_File_open: whether its open succeeded, and the number that names the
// file's shared file pointer record (if its tasks span processes).
struct OpenedFirst {
    int code;
    std::uint64_t token;
};

// A member's part after rank 0's: whether its open succeeded, and, from the lowest rank of
// each process, the shared file pointer its process's tasks use.
struct Opened {
    int code;
    std::uintptr_t shared;
};

// The record of the shared file pointer of a file whose tasks span processes: beside the
// file, hidden, named after it and a number rank 0 drew at the open.
std::string shared_pointer_record(const std::string& filename, std::uint64_t token) {
    std::size_t slash = filename.rfind('/');
    std::size_t base = slash == std::string::npos ? 0 : slash + 1;
    return filename.substr(0, base) + "." + filename.substr(base) + ".bamboo-shared-pointer." + std::to_string(token);
}

int open_library_file(const char* filename, int amode, MPI_Info info, MPI_File* library) {
    MpiGuard guard;
    return MPI_File_open(MPI_COMM_SELF, filename, amode, info, library);
}

void close_library_file(MPI_File* library) {
    MpiGuard guard;
    MPI_File_close(library);
}

std::string error_text(int code) {
    char text[MPI_MAX_ERROR_STRING] = "";
    int length = 0;
    MpiGuard guard;
    MPI_Error_string(code, text, &length);
    return text;
}

void check_same_amode(Rank& self, const CommView& comm, int amode, const char* call, bamboo_site at) {
    std::vector<int> amodes = allgather_value(self, comm, amode, call, at);
    for (int r = 1; r < comm.size(); ++r)
        if (amodes[r] != amodes[0])
            call_error(MPI_ERR_NOT_SAME, self.vrank(), call, at,
                       "the access mode differs between ranks: %#x at rank 0, %#x at rank %d", amodes[0], amodes[r], r);
}

// The lowest rank of `comm` in the process of `rank`.
int lowest_in_process(const Communicator& comm, int rank) {
    return *comm.members_begin(comm.process_index_of(rank));
}

// Opens the library's handle of `file` at every member, rank 0 first; on an error at any, no
// member keeps one and every member reports the error (its own, else the first rank's).
void open_everywhere(Rank& self, FileEntry& file, MPI_Info info, const char* call, bamboo_site at) {
    CommView comm = file_comm(file);
    // The runtime deletes the file itself, once every task has closed its handle.
    int amode = file.amode & ~MPI_MODE_DELETE_ON_CLOSE;
    OpenedFirst first{MPI_SUCCESS, 0};
    if (comm.rank == 0) {
        first.code = open_library_file(file.filename.c_str(), amode, info, &file.library);
        std::random_device draw;
        first.token = (static_cast<std::uint64_t>(draw()) << 32) | draw();
    }
    bcast_value(self, comm, &first, call, at);
    if (first.code != MPI_SUCCESS)
        call_error(first.code, self.vrank(), call, at, "rank 0 could not open '%s': %s", file.filename.c_str(),
                   error_text(first.code).c_str());
    int code = first.code;
    if (comm.rank != 0)
        code = open_library_file(file.filename.c_str(), amode & ~(MPI_MODE_CREATE | MPI_MODE_EXCL), info, &file.library);
    Opened mine{code, 0};
    int lowest = lowest_in_process(*file.comm, comm.rank);
    if (code == MPI_SUCCESS && lowest == comm.rank) {
        bool in_memory = file.comm->process_count() == 1;
        file.own_shared = std::make_unique<SharedFilePointer>(
            in_memory ? std::string() : shared_pointer_record(file.filename, first.token));
        mine.shared = reinterpret_cast<std::uintptr_t>(file.own_shared.get());
    }
    std::vector<Opened> all = allgather_value(self, comm, mine, call, at);
    for (int r = 0; r < comm.size(); ++r) {
        if (all[r].code == MPI_SUCCESS) continue;
        if (code == MPI_SUCCESS) close_library_file(&file.library);
        int reported = code != MPI_SUCCESS ? code : all[r].code;
        call_error(reported, self.vrank(), call, at, "rank %d could not open '%s': %s", r, file.filename.c_str(),
                   error_text(all[r].code).c_str());
    }
    file.shared = reinterpret_cast<SharedFilePointer*>(all[lowest].shared);
}

void barrier(Rank& self, const FileEntry& file, const char* call, bamboo_site at) {
    CollectiveChannel ch(self, file_comm(file), call, at);
    collectives::barrier(ch);
}

// set_size, preallocate, the delete of MPI_MODE_DELETE_ON_CLOSE: `io` at rank 0 once every
// member has called (what each did with the file before is done), its error every member's.
template <class Io>
void at_rank_zero(Rank& self, const FileEntry& file, const char* call, bamboo_site at, Io io) {
    barrier(self, file, call, at);
    int code = MPI_SUCCESS;
    if (file.rank == 0) {
        MpiGuard guard;
        code = io();
    }
    bcast_value(self, file_comm(file), &code, call, at);
    check_library(self, code, call, at);
}

// An entry point that is `io` on rank 0's library handle of `fh`, done as at_rank_zero says.
template <class Io>
int rank_zero_call(const char* call, bamboo_site at, MPI_File fh, Io io) {
    return checked_call(fh, [&]() -> int {
        Rank& self = calling_rank(call, at);
        FileEntry& file = file_of(self, fh, call, at);
        at_rank_zero(self, file, call, at, [&] { return io(file.library); });
        return MPI_SUCCESS;
    });
}

}  // namespace

FileEntry& file_of(Rank& self, MPI_File file, const char* call, bamboo_site at) {
    if (file == MPI_FILE_NULL) call_error(MPI_ERR_FILE, self.vrank(), call, at, "the file is MPI_FILE_NULL");
    FileEntry* entry = self.files.find(file);
    if (!entry) call_error(MPI_ERR_FILE, self.vrank(), call, at, "invalid file (closed, or not opened by this task)");
    return *entry;
}

void shared_pointer_failed(const Rank& self, const FileEntry& file, int error, const char* call, bamboo_site at) {
    call_error(MPI_ERR_IO, self.vrank(), call, at, "the shared file pointer's record %s: %s",
               file.shared->record().c_str(), std::strerror(error));
}

}  // namespace bamboo

using namespace bamboo;

extern "C" {

int bamboo_file_open(bamboo_site at, MPI_Comm comm, const char* filename, int amode, MPI_Info info, MPI_File* fh) {
    const char* call = "MPI_File_open";
    return checked_call(MPI_FILE_NULL, [&]() -> int {
        Rank& self = calling_rank(call, at);
        check_not_null(self, fh, "the file pointer", call, at);
        check_not_null(self, filename, "the file name", call, at);
        CommView view = resolve_comm(self, comm, call, at);
        intra_only(self, view, call, at);
        check_same_amode(self, view, amode, call, at);
        FileEntry file;
        file.comm = shared_comm(self, comm);
        file.rank = view.rank;
        file.amode = amode;
        file.filename = filename;
        open_everywhere(self, file, info, call, at);
        file.errhandler = self.file_errhandler;
        retain_errhandler(self, file.errhandler);
        *fh = self.files.insert(std::move(file));
        return MPI_SUCCESS;
    });
}

int bamboo_file_close(bamboo_site at, MPI_File* fh) {
    const char* call = "MPI_File_close";
    Rank& self = calling_rank(call, at);
    return checked_call(fh ? *fh : MPI_FILE_NULL, [&]() -> int {
        check_not_null(self, fh, "the file pointer", call, at);
        FileEntry& file = file_of(self, *fh, call, at);
        int closed;
        {
            MpiGuard guard;
            closed = MPI_File_close(&file.library);
        }
        // Once every task has closed its handle (and none uses the shared file pointer any more).
        if (file.amode & MPI_MODE_DELETE_ON_CLOSE)
            at_rank_zero(self, file, call, at, [&] { return MPI_File_delete(file.filename.c_str(), MPI_INFO_NULL); });
        else
            barrier(self, file, call, at);
        if (file.rank == 0 && !file.shared->record().empty()) unlink(file.shared->record().c_str());
        check_library(self, closed, call, at);
        release_errhandler(self, file.errhandler);
        self.files.erase(*fh);
        *fh = MPI_FILE_NULL;
        return MPI_SUCCESS;
    });
}

int bamboo_file_delete(bamboo_site at, const char* filename, MPI_Info info) {
    const char* call = "MPI_File_delete";
    return checked_call(MPI_FILE_NULL, [&]() -> int {
        Rank& self = calling_rank(call, at);
        check_not_null(self, filename, "the file name", call, at);
        call_library(self, call, at, [&] { return MPI_File_delete(filename, info); });
        return MPI_SUCCESS;
    });
}

int bamboo_file_set_size(bamboo_site at, MPI_File fh, MPI_Offset size) {
    return rank_zero_call("MPI_File_set_size", at, fh, [&](MPI_File library) { return MPI_File_set_size(library, size); });
}

int bamboo_file_preallocate(bamboo_site at, MPI_File fh, MPI_Offset size) {
    return rank_zero_call("MPI_File_preallocate", at, fh,
                          [&](MPI_File library) { return MPI_File_preallocate(library, size); });
}

int bamboo_file_get_size(bamboo_site at, MPI_File fh, MPI_Offset* size) {
    return file_library_call("MPI_File_get_size", at, fh, [&](MPI_File library) { return MPI_File_get_size(library, size); });
}

int bamboo_file_get_group(bamboo_site at, MPI_File fh, MPI_Group* group) {
    const char* call = "MPI_File_get_group";
    return checked_call(fh, [&]() -> int {
        Rank& self = calling_rank(call, at);
        check_not_null(self, group, "the group pointer", call, at);
        *group = self.groups.insert(file_of(self, fh, call, at).comm->vranks());
        return MPI_SUCCESS;
    });
}

int bamboo_file_get_amode(bamboo_site at, MPI_File fh, int* amode) {
    const char* call = "MPI_File_get_amode";
    return checked_call(fh, [&]() -> int {
        Rank& self = calling_rank(call, at);
        check_not_null(self, amode, "the access mode pointer", call, at);
        *amode = file_of(self, fh, call, at).amode;
        return MPI_SUCCESS;
    });
}

int bamboo_file_set_info(bamboo_site at, MPI_File fh, MPI_Info info) {
    return file_library_call("MPI_File_set_info", at, fh, [&](MPI_File library) { return MPI_File_set_info(library, info); });
}

int bamboo_file_get_info(bamboo_site at, MPI_File fh, MPI_Info* info_used) {
    return file_library_call("MPI_File_get_info", at, fh,
                             [&](MPI_File library) { return MPI_File_get_info(library, info_used); });
}

int bamboo_file_set_view(bamboo_site at, MPI_File fh, MPI_Offset disp, MPI_Datatype etype, MPI_Datatype filetype,
                         const char* datarep, MPI_Info info) {
    const char* call = "MPI_File_set_view";
    return checked_call(fh, [&]() -> int {
        Rank& self = calling_rank(call, at);
        FileEntry& file = file_of(self, fh, call, at);
        int etype_size = 0;
        int code = MPI_SUCCESS;
        {
            MpiGuard guard;
            // MPI_DISPLACEMENT_CURRENT (sequential files) starts the view where the shared file
            // pointer is, which the library's handle does not know: its byte offset instead.
            MPI_Offset displacement = disp;
            if (disp == MPI_DISPLACEMENT_CURRENT)
                code = file.shared->load(&displacement)
                           ? MPI_File_get_byte_offset(file.library, displacement, &displacement)
                           : MPI_ERR_IO;
            if (code == MPI_SUCCESS) code = MPI_File_set_view(file.library, displacement, etype, filetype, datarep, info);
            if (code == MPI_SUCCESS) MPI_Type_size(etype, &etype_size);
        }
        // The shared file pointer goes back to 0 with the view, whether or not this member's
        // view failed: the others take part all the same.
        move_shared_position(self, file, call, at, [] { return SharedMove{MPI_SUCCESS, 0}; });
        check_library(self, code, call, at);
        file.etype_size = etype_size;
        return MPI_SUCCESS;
    });
}

int bamboo_file_get_view(bamboo_site at, MPI_File fh, MPI_Offset* disp, MPI_Datatype* etype, MPI_Datatype* filetype,
                         char* datarep) {
    return file_library_call("MPI_File_get_view", at, fh, [&](MPI_File library) {
        return MPI_File_get_view(library, disp, etype, filetype, datarep);
    });
}

int bamboo_file_get_type_extent(bamboo_site at, MPI_File fh, MPI_Datatype type, MPI_Aint* extent) {
    return file_library_call("MPI_File_get_type_extent", at, fh,
                             [&](MPI_File library) { return MPI_File_get_type_extent(library, type, extent); });
}

int bamboo_file_set_atomicity(bamboo_site at, MPI_File fh, int flag) {
    return file_library_call("MPI_File_set_atomicity", at, fh,
                             [&](MPI_File library) { return MPI_File_set_atomicity(library, flag); });
}

int bamboo_file_get_atomicity(bamboo_site at, MPI_File fh, int* flag) {
    return file_library_call("MPI_File_get_atomicity", at, fh,
                             [&](MPI_File library) { return MPI_File_get_atomicity(library, flag); });
}

int bamboo_file_sync(bamboo_site at, MPI_File fh) {
    return file_library_call("MPI_File_sync", at, fh, [&](MPI_File library) { return MPI_File_sync(library); });
}

}  // extern "C"
