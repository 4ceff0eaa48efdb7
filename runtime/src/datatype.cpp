#include "datatype.hpp"

#include <climits>
#include <cstring>
#include <memory>
#include <vector>

#include "errors.hpp"
#include "mpi_guard.hpp"

namespace bamboo {
namespace {

// Predefined contiguous datatypes, most common first: a scan of this table is cheaper than
// three calls into MPI on every send and receive.
struct KnownType {
    MPI_Datatype type;
    std::size_t size;
};
std::vector<KnownType> known_types;

bool query_layout(MPI_Datatype type, TypeLayout* layout) {
    MpiGuard guard;
    int size = 0;
    MPI_Aint lb, extent, true_lb, true_extent;
    if (MPI_Type_size(type, &size) != MPI_SUCCESS ||
        MPI_Type_get_extent(type, &lb, &extent) != MPI_SUCCESS ||
        MPI_Type_get_true_extent(type, &true_lb, &true_extent) != MPI_SUCCESS)
        return false;
    layout->size = static_cast<std::size_t>(size);
    layout->true_lb = true_lb;
    layout->extent = extent;
    layout->true_extent = true_extent;
    layout->contiguous = size == 0 || (true_extent == size && extent == size);
    return true;
}

int checked_int(std::size_t bytes) {
    if (bytes > static_cast<std::size_t>(INT_MAX))
        fatal("a message of %zu bytes of a non-contiguous datatype is too large to pack", bytes);
    return static_cast<int>(bytes);
}

}  // namespace

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
            *layout = TypeLayout{known.size, 0, size, size, true};
            return true;
        }
    }
    if (type == MPI_DATATYPE_NULL) return false;
    return query_layout(type, layout);
}

void pack(const TypedBuffer& from, char* to) {
    std::size_t bytes = from.bytes();
    if (from.layout.contiguous) {
        if (bytes) std::memcpy(to, from.data(), bytes);
        return;
    }
    MpiGuard guard;
    int position = 0;
    MPI_Pack(from.base, from.count, from.type, to, checked_int(bytes), &position, MPI_COMM_SELF);
}

void unpack(const char* from, std::size_t bytes, const TypedBuffer& to) {
    if (bytes == 0) return;
    if (to.layout.contiguous) {
        std::memcpy(to.data(), from, bytes);
        return;
    }
    // Whole elements only, as MPI fills a receive buffer from a shorter message.
    int elements = static_cast<int>(bytes / to.layout.size);
    MpiGuard guard;
    int position = 0;
    MPI_Unpack(from, checked_int(bytes), &position, to.base, elements, to.type, MPI_COMM_SELF);
}

void copy(const TypedBuffer& from, const TypedBuffer& to) {
    if (to.layout.contiguous) {
        pack(from, to.data());
    } else if (from.layout.contiguous) {
        unpack(from.data(), from.bytes(), to);
    } else {
        std::unique_ptr<char[]> staging(new char[from.bytes()]);
        pack(from, staging.get());
        unpack(staging.get(), from.bytes(), to);
    }
}

}  // namespace bamboo
