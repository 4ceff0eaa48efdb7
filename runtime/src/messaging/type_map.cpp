#include "messaging/type_map.hpp"

#include <algorithm>
#include <optional>

namespace bamboo {
namespace {

// Beyond this many pieces a datatype is left to the MPI library (an indexed type of
// thousands of irregular blocks is no face). HPL sends each panel as a struct of one block
// per column and one more (NB + 1 blocks, NB up to a few hundred), often abutting into one
// run; left to the library, such a type was checked for byte order by packing it, per
// message: 9 % of HPL's time at N = 3000, NB = 64.
constexpr std::size_t kMaxPieces = 1024;

using Pieces = std::vector<StridedPiece>;

std::optional<Pieces> decode(MPI_Datatype type);

MPI_Aint extent_of(MPI_Datatype type) {
    MPI_Aint lb, extent;
    MPI_Type_get_extent(type, &lb, &extent);
    return extent;
}

// Drops empty runs and loops that do nothing, and folds a loop whose steps abut into the
// run (or into the loop around it), so that a face is a few long runs where it can be.
void simplify(StridedPiece& piece) {
    std::vector<StridedPiece::Loop> kept;
    for (const StridedPiece::Loop& loop : piece.loops)
        if (loop.count != 1) kept.push_back(loop);
    piece.loops = std::move(kept);
    while (!piece.loops.empty() && piece.loops.back().stride == static_cast<MPI_Aint>(piece.run)) {
        piece.run *= piece.loops.back().count;
        piece.loops.pop_back();
    }
    for (std::size_t d = piece.loops.size(); d-- > 1;) {
        StridedPiece::Loop& inner = piece.loops[d];
        const StridedPiece::Loop& outer = piece.loops[d - 1];
        if (outer.stride == inner.stride * static_cast<MPI_Aint>(inner.count)) {
            inner.count *= outer.count;
            piece.loops.erase(piece.loops.begin() + static_cast<std::ptrdiff_t>(d - 1));
        }
    }
}

// `count` repeats of `inner`, `stride` bytes apart, at `offset`, appended to `out`.
bool repeat(const Pieces& inner, std::size_t count, MPI_Aint stride, MPI_Aint offset, Pieces& out) {
    if (count == 0) return true;
    if (inner.size() == 1) {
        // One piece: the repeats become its outermost loop.
        StridedPiece piece = inner[0];
        if (piece.run == 0) return true;
        if (piece.loops.size() == kMaxLoopDepth) return false;
        piece.offset += offset;
        piece.loops.insert(piece.loops.begin(), StridedPiece::Loop{count, stride});
        simplify(piece);
        out.push_back(std::move(piece));
        return out.size() <= kMaxPieces;
    }
    // Several pieces keep their packing order only unrolled.
    if (inner.size() * count + out.size() > kMaxPieces) return false;
    for (std::size_t i = 0; i < count; ++i)
        for (StridedPiece piece : inner) {
            piece.offset += offset + static_cast<MPI_Aint>(i) * stride;
            out.push_back(std::move(piece));
        }
    return true;
}

std::optional<Pieces> decode_named(MPI_Datatype type) {
    int size = 0;
    MPI_Type_size(type, &size);
    MPI_Aint true_lb, true_extent;
    MPI_Type_get_true_extent(type, &true_lb, &true_extent);
    // A predefined type with a gap (MPI_LONG_DOUBLE's padding, the pair types of MINLOC)
    // is not one run of its size.
    if (true_extent != size) return std::nullopt;
    StridedPiece piece;
    piece.offset = true_lb;
    piece.run = static_cast<std::size_t>(size);
    return Pieces{piece};
}

// The blocks of an indexed or struct type: block i is `lengths[i]` elements of `types[i]`
// at byte displacement `displacements[i]`.
std::optional<Pieces> decode_blocks(const std::vector<int>& lengths, const std::vector<MPI_Aint>& displacements,
                                    const std::vector<MPI_Datatype>& types) {
    Pieces out;
    for (std::size_t i = 0; i < lengths.size(); ++i) {
        std::optional<Pieces> inner = decode(types[i]);
        if (!inner || lengths[i] < 0) return std::nullopt;
        if (!repeat(*inner, static_cast<std::size_t>(lengths[i]), extent_of(types[i]), displacements[i], out))
            return std::nullopt;
    }
    return out;
}

std::optional<Pieces> decode_subarray(const std::vector<int>& ints, MPI_Datatype old) {
    const int ndims = ints[0];
    const int* sizes = &ints[1];
    const int* subsizes = &ints[1 + ndims];
    const int* starts = &ints[1 + 2 * ndims];
    const bool c_order = ints[1 + 3 * ndims] == MPI_ORDER_C;
    std::optional<Pieces> element = decode(old);
    if (!element || ndims < 1) return std::nullopt;
    // Dimension by dimension from the outermost (C order: the first), each a loop over its
    // subsize at the stride of one step along it.
    Pieces pieces = *element;
    MPI_Aint stride = extent_of(old), offset = 0;
    for (int k = 0; k < ndims; ++k) {
        int d = c_order ? ndims - 1 - k : k;
        offset += static_cast<MPI_Aint>(starts[d]) * stride;
        Pieces repeated;
        if (!repeat(pieces, static_cast<std::size_t>(subsizes[d]), stride, 0, repeated)) return std::nullopt;
        pieces = std::move(repeated);
        stride *= sizes[d];
    }
    for (StridedPiece& piece : pieces) piece.offset += offset;
    return pieces;
}

std::optional<Pieces> decode(MPI_Datatype type) {
    int nints, naddresses, ntypes, combiner;
    MPI_Type_get_envelope(type, &nints, &naddresses, &ntypes, &combiner);
    if (combiner == MPI_COMBINER_NAMED) return decode_named(type);
    std::vector<int> ints(static_cast<std::size_t>(nints));
    std::vector<MPI_Aint> addresses(static_cast<std::size_t>(naddresses));
    std::vector<MPI_Datatype> types(static_cast<std::size_t>(ntypes));
    MPI_Type_get_contents(type, nints, naddresses, ntypes, ints.data(), addresses.data(), types.data());
    std::optional<Pieces> result;
    switch (combiner) {
        case MPI_COMBINER_DUP:
        case MPI_COMBINER_RESIZED:  // lb and extent only set where the next element starts
            result = decode(types[0]);
            break;
        case MPI_COMBINER_CONTIGUOUS:
            result = decode_blocks({ints[0]}, {0}, {types[0]});
            break;
        case MPI_COMBINER_VECTOR:
        case MPI_COMBINER_HVECTOR: {
            const MPI_Aint stride = combiner == MPI_COMBINER_VECTOR
                                        ? static_cast<MPI_Aint>(ints[2]) * extent_of(types[0])
                                        : addresses[0];
            std::optional<Pieces> block = decode_blocks({ints[1]}, {0}, {types[0]});
            Pieces out;
            if (block && ints[0] >= 0 && repeat(*block, static_cast<std::size_t>(ints[0]), stride, 0, out))
                result = std::move(out);
            break;
        }
        case MPI_COMBINER_INDEXED:
        case MPI_COMBINER_HINDEXED:
        case MPI_COMBINER_INDEXED_BLOCK:
        case MPI_COMBINER_HINDEXED_BLOCK: {
            const int count = ints[0];
            const bool one_length = combiner == MPI_COMBINER_INDEXED_BLOCK || combiner == MPI_COMBINER_HINDEXED_BLOCK;
            const bool in_bytes = combiner == MPI_COMBINER_HINDEXED || combiner == MPI_COMBINER_HINDEXED_BLOCK;
            const std::size_t first_displacement = one_length ? 2 : 1 + static_cast<std::size_t>(count);
            std::vector<int> lengths(static_cast<std::size_t>(count));
            std::vector<MPI_Aint> bytes(static_cast<std::size_t>(count));
            for (int i = 0; i < count; ++i) {
                lengths[i] = one_length ? ints[1] : ints[1 + i];
                bytes[i] = in_bytes ? addresses[i]
                                    : static_cast<MPI_Aint>(ints[first_displacement + i]) * extent_of(types[0]);
            }
            result = decode_blocks(lengths, bytes, std::vector<MPI_Datatype>(static_cast<std::size_t>(count), types[0]));
            break;
        }
        case MPI_COMBINER_STRUCT: {
            const int count = ints[0];
            std::vector<int> lengths(ints.begin() + 1, ints.begin() + 1 + count);
            result = decode_blocks(lengths, addresses, types);
            break;
        }
        case MPI_COMBINER_SUBARRAY:
            result = decode_subarray(ints, types[0]);
            break;
        default:
            break;
    }
    // get_contents hands out derived types it must be given back.
    for (MPI_Datatype& inner : types) {
        int ni, na, nt, inner_combiner;
        MPI_Type_get_envelope(inner, &ni, &na, &nt, &inner_combiner);
        if (inner_combiner != MPI_COMBINER_NAMED) MPI_Type_free(&inner);
    }
    return result;
}

// Whether the decoded pieces hold as many bytes, over the same span, as the MPI library
// says the datatype does. Where a library builds a constructor from others and reports those
// (SimGrid SMPI describes a subarray as a struct around a vector, with an extent of its own
// making), the decoded runs are not what its own engine packs; the type then stays with
// that engine, which is consistent with itself.
bool agrees_with_library(const Pieces& pieces, MPI_Datatype type) {
    int size = 0;
    MPI_Aint true_lb, true_extent;
    MPI_Type_size(type, &size);
    MPI_Type_get_true_extent(type, &true_lb, &true_extent);
    std::size_t bytes = 0;
    MPI_Aint low = 0, high = 0;
    bool any = false;
    for (const StridedPiece& piece : pieces) {
        if (piece.run == 0 || piece.runs() == 0) continue;
        MPI_Aint first = piece.offset, last = piece.offset + static_cast<MPI_Aint>(piece.run);
        for (const StridedPiece::Loop& loop : piece.loops) {
            const MPI_Aint reach = static_cast<MPI_Aint>(loop.count - 1) * loop.stride;
            (reach < 0 ? first : last) += reach;
        }
        low = any ? std::min(low, first) : first;
        high = any ? std::max(high, last) : last;
        any = true;
        bytes += piece.run * piece.runs();
    }
    if (bytes != static_cast<std::size_t>(size)) return false;
    return !any || (low == true_lb && high - low == true_extent);
}

}  // namespace

bool TypeMap::same_shape(const TypeMap& other) const {
    if (pieces.size() != other.pieces.size()) return false;
    for (std::size_t i = 0; i < pieces.size(); ++i)
        if (!pieces[i].same_shape(other.pieces[i])) return false;
    return true;
}

std::shared_ptr<const TypeMap> decode_type_map(MPI_Datatype type) {
    std::optional<Pieces> pieces = decode(type);
    if (!pieces || !agrees_with_library(*pieces, type)) return nullptr;
    auto map = std::make_shared<TypeMap>();
    // Neighbouring pieces of one run each that abut join into one.
    for (StridedPiece& piece : *pieces) {
        simplify(piece);
        if (piece.run == 0) continue;
        StridedPiece* last = map->pieces.empty() ? nullptr : &map->pieces.back();
        if (last && last->loops.empty() && piece.loops.empty() &&
            last->offset + static_cast<MPI_Aint>(last->run) == piece.offset)
            last->run += piece.run;
        else
            map->pieces.push_back(std::move(piece));
    }
    return map;
}

}  // namespace bamboo
