// What the MPI-IO entry points share (mpi/files.cpp, mpi/file_access.cpp, the file error
// handlers of mpi/errhandlers.cpp): the calling task's files, and the collective steps of
// their calls.
#pragma once

#include <mpi.h>

#include <cstddef>
#include <vector>

#include "bamboo.h"
#include "collectives/algorithms.hpp"
#include "collectives/channel.hpp"
#include "communicators/communicator.hpp"
#include "messaging/rank.hpp"
#include "mpi/api.hpp"

namespace bamboo {

// The file `file` names among the calling task's; MPI_ERR_FILE if none.
FileEntry& file_of(Rank& self, MPI_File file, const char* call, bamboo_site at);

// An entry point that is `io`, the MPI library's call on the task's own handle of `fh`;
// errors go to the file's handler.
template <class Io>
int file_library_call(const char* call, bamboo_site at, MPI_File fh, Io io) {
    return checked_call(fh, [&]() -> int {
        Rank& self = calling_rank(call, at);
        FileEntry& file = file_of(self, fh, call, at);
        call_library(self, call, at, [&] { return io(file.library); });
        return MPI_SUCCESS;
    });
}

// The file's communicator as the task sees it, for its collective calls.
inline CommView file_comm(const FileEntry& file) { return CommView{file.comm.get(), file.rank}; }

// Every member's `mine`, by rank (a plain value: it travels as its bytes).
template <class T>
std::vector<T> allgather_value(Rank& self, const CommView& comm, const T& mine, const char* call, bamboo_site at) {
    CollectiveChannel ch(self, comm, call, at);
    return collectives::allgather_value(ch, mine);
}

// Rank 0's `value` at every member.
template <class T>
void bcast_value(Rank& self, const CommView& comm, T* value, const char* call, bamboo_site at) {
    CollectiveChannel ch(self, comm, call, at);
    collectives::bcast(ch, 0, value, sizeof *value);
}

// A failure of the file's shared file pointer (its record, communicators/shared_file_pointer.hpp;
// `error` the errno of the failure) as the call's error.
[[noreturn]] void shared_pointer_failed(const Rank& self, const FileEntry& file, int error, const char* call,
                                        bamboo_site at);

// Where a collective call puts the shared file pointer, or why it cannot.
struct SharedMove {
    int code;
    MPI_Offset position;
};

// A collective move of the shared file pointer (MPI_File_set_view, MPI_File_seek_shared): once
// every member has called, so that their independent accesses before the call are done, rank 0
// takes `where()` and sets the pointer; every member learns the result before it goes on.
// Returns the error code.
template <class Where>
int move_shared_position(Rank& self, const FileEntry& file, const char* call, bamboo_site at, Where where) {
    CommView comm = file_comm(file);
    {
        CollectiveChannel ch(self, comm, call, at);
        collectives::barrier(ch);
    }
    SharedMove move{MPI_SUCCESS, 0};
    if (comm.rank == 0) {
        move = where();
        if (move.code == MPI_SUCCESS && !file.shared->store(move.position)) move.code = MPI_ERR_IO;
    }
    bcast_value(self, comm, &move, call, at);
    return move.code;
}

}  // namespace bamboo
