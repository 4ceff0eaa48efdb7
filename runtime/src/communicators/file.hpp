// A file a task opened (MPI_File_open) over a communicator of tasks. Each task holds a file
// handle of the MPI library's own, opened by the task alone on the library's MPI_COMM_SELF:
// the library does the I/O and applies views and datatypes, the runtime makes the calls that
// MPI defines as collective collective over the tasks (mpi/files.cpp).
#pragma once

#include <mpi.h>

#include <memory>
#include <string>

#include "communicators/communicator.hpp"
#include "communicators/shared_file_pointer.hpp"

namespace bamboo {

struct FileEntry {
    MPI_File library = MPI_FILE_NULL;  // the task's own, on the library's MPI_COMM_SELF
    std::shared_ptr<const Communicator> comm;
    int rank = 0;  // the task's rank in `comm`
    int amode = 0;  // as the program gave it (the library's handle has no MPI_MODE_DELETE_ON_CLOSE)
    std::string filename;  // deleted by rank 0 once all have closed, for MPI_MODE_DELETE_ON_CLOSE
    MPI_Errhandler errhandler = MPI_ERRORS_RETURN;
    MPI_Offset etype_size = 1;  // bytes of the view's etype: the unit of offsets and of the shared pointer
    // The process's shared file pointer, kept by the task of the process that made it (the
    // lowest rank there), which frees it once every task has closed the file.
    SharedFilePointer* shared = nullptr;
    std::unique_ptr<SharedFilePointer> own_shared;
    // A split collective begun (MPI_File_read_all_begin...) and not yet ended: done at its begin,
    // its status handed out at its end.
    const char* split_begun = nullptr;
    MPI_Status split_status{};
};

}  // namespace bamboo
