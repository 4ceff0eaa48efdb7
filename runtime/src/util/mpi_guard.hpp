// Serializes calls into the MPI library when it is not thread-safe.
//
// The runtime asks for MPI_THREAD_MULTIPLE. If the library gives less and the runtime runs
// more than one thread, every runtime call into MPI takes this lock first.
#pragma once

#include <mutex>

namespace bamboo {

void set_mpi_serialized(bool serialized);

// Holds the MPI lock for its lifetime when calls must be serialized; a no-op otherwise.
class MpiGuard {
public:
    MpiGuard();
    ~MpiGuard();
    MpiGuard(const MpiGuard&) = delete;
    MpiGuard& operator=(const MpiGuard&) = delete;

private:
    bool locked_;
};

}  // namespace bamboo
