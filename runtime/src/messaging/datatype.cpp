#include "messaging/datatype.hpp"

#include <algorithm>
#include <atomic>
#include <climits>
#include <cstdint>
#include <cstring>
#include <memory>
#include <mutex>
#include <unordered_map>
#include <vector>

#include "util/simulation.hpp"
#include "util/errors.hpp"
#include "util/mpi_guard.hpp"

namespace bamboo {
namespace {

// Predefined contiguous datatypes, most common first: a scan of this table is cheaper than
// three calls into MPI on every send and receive.
struct KnownType {
    MPI_Datatype type;
    std::size_t size;
};
std::vector<KnownType> known_types;

// Layouts of derived datatypes, found once per datatype (forget_datatype drops one when it
// is freed, before the library may hand its handle out again).
std::mutex derived_mutex;
std::unordered_map<MPI_Datatype, TypeLayout> derived_layouts;
std::atomic<std::uint64_t> datatypes_forgotten{0};

int checked_int(std::size_t bytes) {
    if (bytes > static_cast<std::size_t>(INT_MAX))
        fatal("a message of %zu bytes of a non-contiguous datatype is too large to pack", bytes);
    return static_cast<int>(bytes);
}


bool query_layout(MPI_Datatype type, TypeLayout* layout) {
    int size = 0, integers, addresses, datatypes, combiner;
    MPI_Aint lb, extent, true_lb, true_extent;
    MpiGuard guard;
    if (MPI_Type_size(type, &size) != MPI_SUCCESS || MPI_Type_get_extent(type, &lb, &extent) != MPI_SUCCESS ||
        MPI_Type_get_true_extent(type, &true_lb, &true_extent) != MPI_SUCCESS ||
        MPI_Type_get_envelope(type, &integers, &addresses, &datatypes, &combiner) != MPI_SUCCESS)
        return false;
    layout->size = static_cast<std::size_t>(size);
    layout->true_lb = true_lb;
    layout->extent = extent;
    layout->true_extent = true_extent;
    layout->map = nullptr;
    // Without gaps, and (for a derived datatype) with its bytes in order.
    layout->contiguous = size == 0 || (true_extent == size && extent == size);
    if (size == 0 || combiner == MPI_COMBINER_NAMED) return true;
    std::shared_ptr<const TypeMap> map = decode_type_map(type);
    if (!map) {
        if (layout->contiguous) {
            std::vector<std::uint32_t> offsets = packed_byte_offsets(type, *layout);
            for (std::size_t j = 0; j < offsets.size() && layout->contiguous; ++j)
                layout->contiguous = offsets[j] == j;
        }
        return true;
    }
    const StridedPiece& first = map->pieces.front();
    layout->contiguous = layout->contiguous && map->pieces.size() == 1 && first.loops.empty() &&
                         first.offset == true_lb && first.run == layout->size;
    if (!layout->contiguous) layout->map = std::move(map);
    return true;
}

// A run's bytes from `from` to `to`; most runs of a face are one element long.
inline void move_run(char* to, const char* from, std::size_t bytes) {
    switch (bytes) {
        case 8: std::memcpy(to, from, 8); break;
        case 4: std::memcpy(to, from, 4); break;
        case 16: std::memcpy(to, from, 16); break;
        default: std::memcpy(to, from, bytes);
    }
}

}  // namespace

std::vector<std::uint32_t> packed_byte_offsets(MPI_Datatype type, const TypeLayout& layout) {
    std::size_t span = static_cast<std::size_t>(layout.true_extent), size = layout.size;
    std::vector<unsigned char> element(span), packed(size);
    std::vector<std::uint32_t> offsets(size, 0);
    void* base = reinterpret_cast<void*>(reinterpret_cast<std::uintptr_t>(element.data()) - layout.true_lb);
    for (unsigned shift = 0; shift < 32 && (span - 1) >> shift; shift += 8) {
        for (std::size_t i = 0; i < span; ++i) element[i] = static_cast<unsigned char>(i >> shift);
        int position = 0;
        MPI_Pack(base, 1, type, packed.data(), checked_int(size), &position, MPI_COMM_SELF);
        for (std::size_t j = 0; j < size; ++j) offsets[j] |= static_cast<std::uint32_t>(packed[j]) << shift;
    }
    return offsets;
}

void init_datatypes() {
    const MPI_Datatype predefined[] = {
        MPI_DOUBLE, MPI_INT, MPI_BYTE, MPI_CHAR, MPI_FLOAT, MPI_LONG, MPI_LONG_LONG,
        MPI_UNSIGNED, MPI_UNSIGNED_LONG, MPI_UNSIGNED_LONG_LONG, MPI_SHORT, MPI_UNSIGNED_SHORT,
        MPI_SIGNED_CHAR, MPI_UNSIGNED_CHAR, MPI_C_BOOL, MPI_INT8_T, MPI_INT16_T, MPI_INT32_T,
        MPI_INT64_T, MPI_UINT8_T, MPI_UINT16_T, MPI_UINT32_T, MPI_UINT64_T, MPI_LONG_DOUBLE,
        MPI_C_FLOAT_COMPLEX, MPI_C_DOUBLE_COMPLEX, MPI_WCHAR, MPI_PACKED,
    };
    for (MPI_Datatype type : predefined) {
        TypeLayout layout;
        if (query_layout(type, &layout) && layout.contiguous && layout.true_lb == 0)
            known_types.push_back({type, layout.size});
    }
}

bool describe_datatype(MPI_Datatype type, TypeLayout* layout) {
    for (const KnownType& known : known_types) {
        if (known.type == type) {
            MPI_Aint size = static_cast<MPI_Aint>(known.size);
            *layout = TypeLayout{known.size, 0, size, size, true, nullptr};
            return true;
        }
    }
    if (type == MPI_DATATYPE_NULL) return false;
    {
        std::lock_guard<std::mutex> lock(derived_mutex);
        auto it = derived_layouts.find(type);
        if (it != derived_layouts.end()) {
            *layout = it->second;
            return true;
        }
    }
    if (!query_layout(type, layout)) return false;
    std::lock_guard<std::mutex> lock(derived_mutex);
    derived_layouts[type] = *layout;
    return true;
}

void forget_datatype(MPI_Datatype type) {
    std::lock_guard<std::mutex> lock(derived_mutex);
    derived_layouts.erase(type);
    datatypes_forgotten.fetch_add(1, std::memory_order_release);
}

std::uint64_t forgotten_datatypes() { return datatypes_forgotten.load(std::memory_order_acquire); }

MPI_Datatype hold_datatype(MPI_Datatype type, const TypeLayout& layout) {
    if (layout.contiguous) return MPI_DATATYPE_NULL;  // unpacked by a copy: the handle is unused
    MpiGuard guard;
    int integers, addresses, datatypes, combiner;
    MPI_Type_get_envelope(type, &integers, &addresses, &datatypes, &combiner);
    if (combiner == MPI_COMBINER_NAMED) return MPI_DATATYPE_NULL;  // never freed
    MPI_Datatype held = MPI_DATATYPE_NULL;
    MPI_Type_dup(type, &held);
    return held;
}

void release_datatype(MPI_Datatype held) {
    forget_datatype(held);
    MpiGuard guard;
    MPI_Type_free(&held);
}

void pack(const TypedBuffer& from, char* to) {
    std::size_t bytes = from.bytes();
    CopyCharge charge(bytes);
    if (from.layout.contiguous) {
        if (bytes) std::memcpy(to, from.data(), bytes);
        return;
    }
    if (from.layout.map) {
        for_each_run(*from.layout.map, static_cast<char*>(from.base), from.count, from.layout.extent,
                     [&to](char* run, std::size_t n) {
                         move_run(to, run, n);
                         to += n;
                     });
        return;
    }
    MpiGuard guard;
    int position = 0;
    MPI_Pack(from.base, from.count, from.type, to, checked_int(bytes), &position, MPI_COMM_SELF);
}

void unpack(const char* from, std::size_t bytes, const TypedBuffer& to) {
    bytes = std::min(bytes, to.bytes());
    if (bytes == 0) return;
    CopyCharge charge(bytes);
    if (to.layout.contiguous) {
        std::memcpy(to.data(), from, bytes);
        return;
    }
    if (to.layout.map) {
        // Whole elements first, then, when the message ends inside one, that element's first
        // bytes in packing order, as MPI does.
        const std::size_t whole = bytes / to.layout.size;
        std::size_t rest = bytes - whole * to.layout.size;
        auto move_in = [&from](char* run, std::size_t n) {
            move_run(run, from, n);
            from += n;
        };
        for_each_run(*to.layout.map, static_cast<char*>(to.base), static_cast<int>(whole), to.layout.extent, move_in);
        char* partial = static_cast<char*>(to.base) + static_cast<MPI_Aint>(whole) * to.layout.extent;
        for (const StridedPiece& piece : to.layout.map->pieces) {
            if (rest == 0) break;
            for_each_run(piece, partial, [&](char* run, std::size_t n) {
                std::size_t take = n < rest ? n : rest;
                std::memcpy(run, from, take);
                from += take;
                rest -= take;
            });
        }
        return;
    }
    std::size_t whole = bytes / to.layout.size, rest = bytes % to.layout.size;
    MpiGuard guard;
    int position = 0;
    MPI_Unpack(from, checked_int(bytes), &position, to.base, static_cast<int>(whole), to.type, MPI_COMM_SELF);
    if (rest == 0) return;
    // A shorter message ends inside an element: as MPI does, fill the bytes it has, each at
    // its place in the element.
    std::vector<std::uint32_t> offsets = packed_byte_offsets(to.type, to.layout);
    char* element = static_cast<char*>(to.base) + static_cast<MPI_Aint>(whole) * to.layout.extent + to.layout.true_lb;
    const char* tail = from + whole * to.layout.size;
    for (std::size_t j = 0; j < rest; ++j) element[offsets[j]] = tail[j];
}

void copy(const TypedBuffer& from, const TypedBuffer& to) {
    // Truncated, `from` goes through unpack, which keeps the part that fits: straight from a
    // contiguous `from`, else packed first (the last case; the same shapes always fit).
    if (to.layout.contiguous && from.bytes() <= to.bytes()) {
        pack(from, to.data());
    } else if (from.layout.contiguous) {
        unpack(from.data(), from.bytes(), to);
    } else if (from.layout.map && to.layout.map && from.count == to.count &&
               from.layout.map->same_shape(*to.layout.map)) {
        // The same runs on both sides: each moves once, straight across.
        CopyCharge charge(from.bytes());
        const std::vector<StridedPiece>& to_pieces = to.layout.map->pieces;
        for (int element = 0; element < from.count; ++element) {
            char* from_base = static_cast<char*>(from.base) + static_cast<MPI_Aint>(element) * from.layout.extent;
            char* to_base = static_cast<char*>(to.base) + static_cast<MPI_Aint>(element) * to.layout.extent;
            for (std::size_t k = 0; k < to_pieces.size(); ++k) {
                const StridedPiece& piece = from.layout.map->pieces[k];
                const std::ptrdiff_t shift = (to_base + to_pieces[k].offset) - (from_base + piece.offset);
                for_each_run(piece, from_base, [shift](char* run, std::size_t n) { move_run(run + shift, run, n); });
            }
        }
    } else {
        std::unique_ptr<char[]> staging(new char[from.bytes()]);
        pack(from, staging.get());
        unpack(staging.get(), from.bytes(), to);
    }
}

}  // namespace bamboo
