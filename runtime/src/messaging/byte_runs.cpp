#include "messaging/byte_runs.hpp"

#include <cstdint>
#include <cstring>

#include "messaging/type_map.hpp"
#include "util/mpi_guard.hpp"

namespace bamboo {
namespace {

void add_run(std::vector<ByteRun>& runs, MPI_Aint offset, std::size_t bytes) {
    if (bytes == 0) return;
    if (!runs.empty() && runs.back().offset + static_cast<MPI_Aint>(runs.back().bytes) == offset) {
        runs.back().bytes += bytes;
        return;
    }
    runs.push_back(ByteRun{offset, bytes});
}

// The runs of `piece` from `at`, its loops from `depth` on (an offset version of
// for_each_run, which walks real addresses).
void add_piece_runs(std::vector<ByteRun>& runs, const StridedPiece& piece, std::size_t depth, MPI_Aint at) {
    if (depth == piece.loops.size()) {
        add_run(runs, at, piece.run);
        return;
    }
    const StridedPiece::Loop& loop = piece.loops[depth];
    for (std::size_t i = 0; i < loop.count; ++i)
        add_piece_runs(runs, piece, depth + 1, at + static_cast<MPI_Aint>(i) * loop.stride);
}

}  // namespace

std::vector<ByteRun> byte_runs(MPI_Datatype type, const TypeLayout& layout, int count) {
    std::vector<ByteRun> runs;
    if (count <= 0 || layout.size == 0) return runs;
    if (layout.contiguous) {
        add_run(runs, layout.true_lb, layout.size * static_cast<std::size_t>(count));
        return runs;
    }
    if (layout.map) {
        for (int element = 0; element < count; ++element)
            for (const StridedPiece& piece : layout.map->pieces)
                add_piece_runs(runs, piece, 0, piece.offset + element * layout.extent);
        return runs;
    }
    std::vector<std::uint32_t> offsets;
    {
        MpiGuard guard;
        offsets = packed_byte_offsets(type, layout);
    }
    for (int element = 0; element < count; ++element)
        for (std::uint32_t offset : offsets) add_run(runs, element * layout.extent + layout.true_lb + offset, 1);
    return runs;
}

void scatter_runs(const char* packed, const std::vector<ByteRun>& runs, char* base) {
    for (const ByteRun& run : runs) {
        std::memcpy(base + run.offset, packed, run.bytes);
        packed += run.bytes;
    }
}

void gather_runs(const std::vector<ByteRun>& runs, const char* base, char* packed) {
    for (const ByteRun& run : runs) {
        std::memcpy(packed, base + run.offset, run.bytes);
        packed += run.bytes;
    }
}

}  // namespace bamboo
