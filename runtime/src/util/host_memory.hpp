// Memory that the processes of one host share (MPI_Win_allocate_shared).
//
// A block is made by one task and found by name by the others. Where every user is a task of
// this process it comes from the heap (no /dev/shm limit applies, nothing to unlink);
// otherwise it is a POSIX shared memory object. Either way a process maps it once, however
// many of its tasks use it, and the block lives until the last of them lets go.
#pragma once

#include <cstddef>
#include <memory>
#include <string>

namespace bamboo {

class HostMemory {
public:
    // A new zero-filled block of `bytes` (at least one is mapped), to be shared with other
    // processes or only between tasks of this one. nullptr, with the reason in `error`, if
    // the system refuses.
    static std::shared_ptr<HostMemory> create(std::size_t bytes, bool other_processes, std::string* error);
    // The block `name` made by create(): the mapping this process has already, else a new
    // one of `bytes` (the size create() was given). nullptr, with the reason, on failure.
    static std::shared_ptr<HostMemory> open(const std::string& name, std::size_t bytes, std::string* error);

    HostMemory(const HostMemory&) = delete;
    HostMemory& operator=(const HostMemory&) = delete;
    ~HostMemory();

    char* data() const { return data_; }
    const std::string& name() const { return name_; }
    // Once every process has opened the block: its name goes (no other process can open it
    // any more), its memory stays until the last mapping does.
    void unlink();

private:
    HostMemory(std::string name, char* data, std::size_t mapped, bool shared);

    std::string name_;
    char* data_;
    std::size_t mapped_;
    bool shared_;  // a shared memory object (munmap), not a heap block (free)
    bool linked_;
};

}  // namespace bamboo
