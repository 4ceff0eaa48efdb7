// Whether two buffers share a byte, decided on the bytes their datatypes name, not on the
// ranges those bytes span.
//
// A firing rule posts its window's receives ahead only where no two of them write the same
// byte (messaging/announced_receives.hpp). A stencil's ghost faces are derived datatypes whose
// spans interleave: the ghost column of one face runs through the rows of another, yet no
// byte is in both. Comparing spans alone kept jacobi3d's receives from being posted ahead.
//
// Comparing runs costs a pass over both buffers' runs (thousands for a face of single
// elements; for a datatype the runtime does not decode, MPI's engine packs an element a few
// times to say where its bytes lie), at every evaluation point. A program repeats the same
// windows, so the answer is kept per pair of datatypes, counts and distance apart, which is
// all it depends on, until a datatype is freed.
#pragma once

#include <mpi.h>

#include <cstddef>
#include <cstdint>
#include <vector>

#include "messaging/datatype.hpp"

namespace bamboo {

class SharedBytes {
public:
    // Whether `a` and `b` may share a byte: exact, but for datatypes that run backwards
    // (true where their spans meet).
    bool between(const TypedBuffer& a, const TypedBuffer& b);

private:
    struct Known {
        MPI_Datatype a_type, b_type;
        int a_count, b_count;
        MPI_Aint distance;  // b's address less a's
        bool shared;
    };
    static constexpr std::size_t kKept = 64;  // enough pairs for a window of a dozen receives

    std::vector<Known> known_;
    std::uint64_t known_since_ = 0;  // forgotten_datatypes() when known_ was begun
};

}  // namespace bamboo
