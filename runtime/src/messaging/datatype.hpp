// User buffers as MPI describes them: `count` elements of an MPI datatype.
//
// Messages travel as packed bytes. For contiguous datatypes packing is a memcpy; derived
// datatypes that decode into strided runs (messaging/type_map.hpp) are moved by loops over
// their runs, and between two buffers of one shape in one pass; any other datatype is left
// to the MPI library's own engine (MPI_Pack / MPI_Unpack). Assumes a homogeneous machine
// (the same packed format in every process).
#pragma once

#include <mpi.h>

#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

#include "messaging/type_map.hpp"

namespace bamboo {

struct TypeLayout {
    std::size_t size = 0;      // bytes of data in one element (MPI_Type_size)
    MPI_Aint true_lb = 0;      // where an element's data starts, from the buffer address
    MPI_Aint extent = 0;       // the stride between elements
    MPI_Aint true_extent = 0;  // from the first to one past the last byte of an element's data
    bool contiguous = true;    // elements are gap-free and abut: a memcpy moves them
    std::shared_ptr<const TypeMap> map;  // not contiguous: its runs, unless MPI must move it

    // Bytes from the first data byte of element 0 to one past the last of element count-1.
    std::size_t span(int count) const {
        return count <= 0 ? 0 : static_cast<std::size_t>(true_extent + (count - 1) * extent);
    }
};

// Caches the layouts of predefined datatypes; call once after MPI_Init.
void init_datatypes();

// The layout of `type`, or false if MPI rejects it (e.g. MPI_DATATYPE_NULL). Derived
// datatypes are examined once and remembered until forget_datatype().
bool describe_datatype(MPI_Datatype type, TypeLayout* layout);

// `type` is about to be freed: its handle may name another datatype later.
void forget_datatype(MPI_Datatype type);
// How many datatypes were forgotten so far: what is known about a datatype handle holds
// while this stays the same.
std::uint64_t forgotten_datatypes();

// MPI lets a program free a datatype while a receive with it is pending. For such a
// receive the runtime unpacks with a duplicate of its own: this returns one for a derived
// datatype that is not plain bytes, else MPI_DATATYPE_NULL (nothing to hold).
MPI_Datatype hold_datatype(MPI_Datatype type, const TypeLayout& layout);
void release_datatype(MPI_Datatype held);

// Where each byte of one packed element of `type` lies, as offsets from the element's first
// data byte: an element whose every byte holds a digit of its own offset is packed once per
// digit, so MPI's own engine says it for any datatype. (A datatype without gaps may still list
// its blocks out of order.) The caller holds the MPI lock (util/mpi_guard.hpp).
std::vector<std::uint32_t> packed_byte_offsets(MPI_Datatype type, const TypeLayout& layout);

struct TypedBuffer {
    void* base = nullptr;
    int count = 0;
    MPI_Datatype type = MPI_DATATYPE_NULL;
    TypeLayout layout;

    std::size_t bytes() const { return layout.size * static_cast<std::size_t>(count); }
    char* data() const { return static_cast<char*>(base) + layout.true_lb; }  // contiguous only
    // The bytes the data may lie in, [*first, *last); false where the datatype runs backwards.
    bool byte_range(const char** first, const char** last) const {
        if (layout.extent < 0 || layout.true_extent < 0) return false;
        *first = static_cast<const char*>(base) + layout.true_lb;
        *last = *first + layout.span(count);
        return true;
    }
};

// `bytes` plain bytes at `data`, as one contiguous element.
inline TypedBuffer raw_bytes(const void* data, std::size_t bytes) {
    TypedBuffer buffer;
    buffer.base = const_cast<void*>(data);
    buffer.count = 1;
    buffer.type = MPI_BYTE;
    buffer.layout.size = bytes;
    buffer.layout.extent = buffer.layout.true_extent = static_cast<MPI_Aint>(bytes);
    return buffer;
}

// Packs all of `from` into `to` (from.bytes() bytes).
void pack(const TypedBuffer& from, char* to);

// Unpacks `bytes` packed bytes into `to`; a message that ends inside an element fills that
// element's first bytes, as MPI does. Of a longer (truncated) message, the first to.bytes().
void unpack(const char* from, std::size_t bytes, const TypedBuffer& to);

// Moves all of `from` into `to` with one pass over the data when either side is contiguous or
// both have mapped datatypes of the same shape. Of a longer (truncated) `from`, the first
// to.bytes() bytes, as unpack takes them.
void copy(const TypedBuffer& from, const TypedBuffer& to);

}  // namespace bamboo
