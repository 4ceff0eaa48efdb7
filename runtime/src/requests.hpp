// Requests: the state of a send or receive, and the MPI_Request handles user code holds.
//
// A handle encodes an index into the issuing task's request table. The encoding is odd
// (index << 1 | 1), so it never equals MPI_REQUEST_NULL, whether MPI_Request is a pointer
// (Open MPI: the address of an aligned object) or an int (MPICH: an even constant).
#pragma once

#include <mpi.h>

#include <atomic>
#include <cstdint>
#include <cstring>
#include <memory>
#include <optional>
#include <type_traits>
#include <vector>

#include "bamboo.h"
#include "datatype.hpp"
#include "mailbox.hpp"

namespace bamboo {

class Task;

struct Request : PostedReceive {
    enum class Kind : std::uint8_t { send, receive };

    Kind kind = Kind::receive;
    // Set last by whoever completes the request; the owner may reuse it at once after.
    std::atomic<bool> complete{false};
    Task* owner = nullptr;
    TypedBuffer target;    // where a receive puts its message
    int peer = 0;          // a send's destination vrank (for reports)
    // What the MPI_Status of the completed operation reports.
    int source = 0;
    int tag = 0;
    std::size_t bytes = 0;
    // Where it was issued, for error and deadlock reports.
    const char* call = "";
    bamboo_site site{};
};

// Templates so that only the branch for this MPI's handle type is compiled.
template <class Handle = MPI_Request>
Handle encode_request(std::uint32_t index) {
    std::uintptr_t bits = (static_cast<std::uintptr_t>(index) << 1) | 1u;
    if constexpr (std::is_pointer_v<Handle>) {
        Handle handle;
        static_assert(sizeof handle == sizeof bits);
        std::memcpy(&handle, &bits, sizeof handle);
        return handle;
    } else {
        return static_cast<Handle>(bits);
    }
}

// The index a handle encodes, or nothing if it cannot be one of ours.
template <class Handle = MPI_Request>
std::optional<std::uint32_t> decode_request(Handle handle) {
    std::uintptr_t bits;
    if constexpr (std::is_pointer_v<Handle>) {
        std::memcpy(&bits, &handle, sizeof handle);
    } else {
        if (handle < 0) return std::nullopt;
        bits = static_cast<std::uintptr_t>(handle);
    }
    if ((bits & 1u) == 0 || (bits >> 1) > UINT32_MAX) return std::nullopt;
    return static_cast<std::uint32_t>(bits >> 1);
}

// The requests of one task. Used only by the task itself (so no locking); completers
// reach a Request through the pointer held in a mailbox or send queue, never the table.
class RequestTable {
public:
    // A fresh request (not complete) and its handle.
    Request* allocate(MPI_Request* handle);
    // The live request `handle` names, or nullptr if it names none.
    Request* find(MPI_Request handle) const;
    // Frees the request `*handle` names and sets *handle to MPI_REQUEST_NULL.
    void release(MPI_Request* handle);
    std::size_t live_count() const { return live_count_; }

private:
    static constexpr std::size_t kChunk = 32;
    Request* slot(std::uint32_t index) const { return &chunks_[index / kChunk][index % kChunk]; }

    std::vector<std::unique_ptr<Request[]>> chunks_;  // stable addresses
    std::vector<bool> live_;
    std::vector<std::uint32_t> free_;
    std::size_t live_count_ = 0;
};

}  // namespace bamboo
