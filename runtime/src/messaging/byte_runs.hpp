// The bytes a buffer of some MPI datatype covers, as runs of contiguous bytes in the order MPI
// packs them.
//
// A one-sided operation names its target's memory with a datatype of the origin's (MPI lets
// the origin describe the target). The target process may not know that datatype, so the
// origin sends the runs instead, from which the target reads or writes the packed data.
#pragma once

#include <mpi.h>

#include <cstddef>
#include <vector>

#include "messaging/datatype.hpp"

namespace bamboo {

struct ByteRun {
    MPI_Aint offset;  // from the buffer's address
    std::size_t bytes;
};

// The runs of `count` elements of `layout` (of `type`), adjacent ones merged.
std::vector<ByteRun> byte_runs(MPI_Datatype type, const TypeLayout& layout, int count);

// The packed data into the runs at `base`, or the runs' bytes out of it into `packed`.
void scatter_runs(const char* packed, const std::vector<ByteRun>& runs, char* base);
void gather_runs(const std::vector<ByteRun>& runs, const char* base, char* packed);

}  // namespace bamboo
