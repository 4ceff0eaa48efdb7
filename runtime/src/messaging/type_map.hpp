// A derived datatype's data as runs of contiguous bytes, decoded once from the datatype's
// constructors (MPI_Type_get_envelope / get_contents).
//
// The faces of a stencil (subarray and vector types) are most of what moves between the
// tasks of a process. The MPI library's generic pack engine moves them one small block at a
// time and only into or out of a contiguous buffer, so copying a face from one task's grid
// into another's took two passes through a staging buffer. Decoded into nested strided loops,
// a face is copied in one pass, by a loop whose inner step is a fixed-size move.
//
// Only what decodes into a few strided pieces is mapped (vector, hvector, contiguous,
// subarray, indexed, hindexed, indexed_block, hindexed_block, struct, resized, dup and
// the predefined types they nest); anything else (darray, or thousands of irregular blocks)
// stays with the MPI library's engine.
#pragma once

#include <mpi.h>

#include <cstddef>
#include <memory>
#include <vector>

namespace bamboo {

// Runs of `run` bytes: at `offset` from an element's base address, advanced by nested
// loops, outermost first. No loops: one run.
struct StridedPiece {
    struct Loop {
        std::size_t count;
        MPI_Aint stride;
        bool operator==(const Loop& o) const { return count == o.count && stride == o.stride; }
    };
    MPI_Aint offset = 0;
    std::size_t run = 0;
    std::vector<Loop> loops;

    std::size_t runs() const {
        std::size_t n = 1;
        for (const Loop& loop : loops) n *= loop.count;
        return n;
    }
    bool same_shape(const StridedPiece& o) const { return run == o.run && loops == o.loops; }
};

// One element of a datatype: its pieces in the order MPI packs them.
struct TypeMap {
    std::vector<StridedPiece> pieces;

    // Whether `other` moves the same runs in the same order, wherever they lie.
    bool same_shape(const TypeMap& other) const;
};

// The most loops a piece may nest.
constexpr std::size_t kMaxLoopDepth = 8;

// The map of `type`, or nullptr when it does not decode into a few strided pieces. The
// caller holds the MPI lock when MPI is serialized (util/mpi_guard.hpp).
std::shared_ptr<const TypeMap> decode_type_map(MPI_Datatype type);

// Calls f(char* run, std::size_t bytes) for each run of `piece` placed at `base`, in order.
template <class F>
void for_each_run(const StridedPiece& piece, char* base, F&& f) {
    const std::size_t depth = piece.loops.size();
    if (depth == 0) {
        f(base + piece.offset, piece.run);
        return;
    }
    // An odometer over the loops: at[d] is where loop d's current step starts.
    std::size_t index[kMaxLoopDepth] = {};
    char* at[kMaxLoopDepth];
    for (std::size_t d = 0; d < depth; ++d) at[d] = base + piece.offset;
    const StridedPiece::Loop& inner = piece.loops[depth - 1];
    for (;;) {
        char* p = at[depth - 1];
        for (std::size_t i = 0; i < inner.count; ++i, p += inner.stride) f(p, piece.run);
        std::size_t d = depth - 1;  // step the loop around the ones that are done
        while (d > 0 && ++index[d - 1] == piece.loops[d - 1].count) {
            index[d - 1] = 0;
            --d;
        }
        if (d == 0) return;
        at[d] = at[d - 1] + static_cast<MPI_Aint>(index[d - 1]) * piece.loops[d - 1].stride;
        for (std::size_t e = d + 1; e < depth; ++e) at[e] = at[d];
    }
}

// ... for each run of `count` elements of `map` and `extent` at `base`, in packing order.
template <class F>
void for_each_run(const TypeMap& map, char* base, int count, MPI_Aint extent, F&& f) {
    for (int element = 0; element < count; ++element, base += extent)
        for (const StridedPiece& piece : map.pieces) for_each_run(piece, base, f);
}

}  // namespace bamboo
