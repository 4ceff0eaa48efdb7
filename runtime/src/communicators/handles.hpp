// Handles the runtime gives user code for its own objects (requests, communicators, groups).
//
// A handle encodes an index into a table of the issuing task. The encoding is odd
// (index << 1 | 1) and indexes stay below 2^24, so it never equals a predefined handle of
// the MPI library, whether the handle type is a pointer (Open MPI: the address of an aligned
// object) or an int (MPICH: constants with kind bits in the high byte, such as
// MPI_COMM_SELF = 0x44000001). main() checks this for the handles the runtime tells apart.
#pragma once

#include <cstdint>
#include <cstring>
#include <optional>
#include <type_traits>
#include <utility>
#include <vector>

#include "util/errors.hpp"

namespace bamboo {

constexpr std::uint32_t kMaxHandles = 1u << 24;  // live objects of one kind per task

[[noreturn]] inline void too_many_handles() {
    fatal("a task holds more than %u live requests, communicators or groups", kMaxHandles);
}

// Templates so that only the branch for this MPI's handle type is compiled.
template <class Handle>
Handle encode_handle(std::uint32_t index) {
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
template <class Handle>
std::optional<std::uint32_t> decode_handle(Handle handle) {
    std::uintptr_t bits;
    if constexpr (std::is_pointer_v<Handle>) {
        std::memcpy(&bits, &handle, sizeof handle);
    } else {
        if (handle < 0) return std::nullopt;
        bits = static_cast<std::uintptr_t>(handle);
    }
    if ((bits & 1u) == 0 || (bits >> 1) >= kMaxHandles) return std::nullopt;
    return static_cast<std::uint32_t>(bits >> 1);
}

// Objects of one task reached through handles. Used only by the task itself (no locking).
template <class Object, class Handle>
class HandleTable {
public:
    Handle insert(Object object) {
        std::uint32_t index;
        if (free_.empty()) {
            if (slots_.size() >= kMaxHandles) too_many_handles();
            index = static_cast<std::uint32_t>(slots_.size());
            slots_.emplace_back(std::move(object));
        } else {
            index = free_.back();
            free_.pop_back();
            slots_[index] = std::move(object);
        }
        return encode_handle<Handle>(index);
    }

    // The object `handle` names, or nullptr.
    Object* find(Handle handle) {
        std::optional<std::uint32_t> index = decode_handle(handle);
        if (!index || *index >= slots_.size() || !slots_[*index]) return nullptr;
        return &*slots_[*index];
    }
    const Object* find(Handle handle) const { return const_cast<HandleTable*>(this)->find(handle); }

    // Frees the object `handle` names; false if it names none.
    bool erase(Handle handle) {
        std::optional<std::uint32_t> index = decode_handle(handle);
        if (!index || *index >= slots_.size() || !slots_[*index]) return false;
        slots_[*index].reset();
        free_.push_back(*index);
        return true;
    }

    template <class Visit>
    void for_each(Visit visit) const {
        for (const std::optional<Object>& slot : slots_)
            if (slot) visit(*slot);
    }

private:
    std::vector<std::optional<Object>> slots_;
    std::vector<std::uint32_t> free_;
};

}  // namespace bamboo
