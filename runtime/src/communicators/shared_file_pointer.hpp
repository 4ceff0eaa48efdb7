// The shared file pointer of a file opened over tasks (MPI_File_write_shared,
// MPI_File_write_ordered...), in etypes of the file's view: one object per file and process,
// used by the process's tasks of the file's communicator.
//
// Where the communicator's tasks all share one process, the pointer is an atomic in memory.
// Where they span processes, it is a record in a small file beside the data file, read and
// moved under a POSIX record lock, as ROMIO keeps its shared file pointer: every process
// reaches the same one, on any file system that honours fcntl locks between the processes'
// hosts (as MPI-IO's shared file pointer needs of it anyway). The record is made by the first
// process that moves the pointer off 0 (a program that never does makes none, and needs no
// write access to the directory), and rank 0 deletes it when the file is closed.
#pragma once

#include <mpi.h>

#include <atomic>
#include <mutex>
#include <string>

namespace bamboo {

class SharedFilePointer {
public:
    // In memory: `record` empty. Else the path of the record shared with other processes.
    explicit SharedFilePointer(std::string record);
    ~SharedFilePointer();
    SharedFilePointer(const SharedFilePointer&) = delete;
    SharedFilePointer& operator=(const SharedFilePointer&) = delete;

    // Each returns false, with errno set, if the record cannot be made, read or written.
    bool fetch_add(MPI_Offset amount, MPI_Offset* before);
    bool load(MPI_Offset* position);
    bool store(MPI_Offset position);

    const std::string& record() const { return record_; }

private:
    // Runs `step` on the record's value under its lock (making the record if `create`); false
    // if the record fails.
    template <class Step>
    bool locked(bool create, Step step);

    std::string record_;
    std::atomic<MPI_Offset> position_{0};  // in memory only
    // A POSIX lock belongs to the process, so its tasks take turns by this mutex first; and
    // since closing any descriptor of a file drops the process's locks on it, the process
    // keeps one descriptor.
    std::mutex turn_;
    int fd_ = -1;
};

}  // namespace bamboo
