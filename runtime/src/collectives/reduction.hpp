// Reductions: operands in their datatype's own layout, combined by the MPI library.
//
// MPI_Reduce_local is the library's own reduction engine: it knows every built-in operation
// on every basic type (MAXLOC and MINLOC pairs included) and calls operations made with
// MPI_Op_create, so Bamboo gets exactly the arithmetic plain MPI does. Collectives only
// choose the order of combination, which they keep fixed: the same bits on every run.
#pragma once

#include <mpi.h>

#include <cstddef>

#include "messaging/datatype.hpp"
#include "util/byte_buffer.hpp"

namespace bamboo {

// `count` elements of a datatype, laid out as the datatype describes; between tasks an
// operand travels as its raw bytes (gaps included), which every process reads alike.
class Operand {
public:
    Operand(int count, MPI_Datatype type, const TypeLayout& layout);

    // The address MPI gives the buffer (element 0's displacements are relative to it).
    void* base() const { return storage_.get() - layout_.true_lb; }
    char* bytes() const { return storage_.get(); }
    std::size_t size() const { return size_; }
    // As a typed buffer, to copy from and to the user's buffers with copy().
    TypedBuffer typed() const;

    void swap(Operand& other) {
        storage_.swap(other.storage_);
        std::swap(size_, other.size_);
    }

private:
    ByteBuffer storage_;
    std::size_t size_;
    int count_;
    MPI_Datatype type_;
    TypeLayout layout_;
};

struct Reduction {
    MPI_Op op;
    MPI_Datatype type;
    int count;
    bool commutative;

    // inout = in op inout.
    void combine(const Operand& in, Operand& inout) const;
    // Operands shaped for this reduction.
    Operand operand(const TypeLayout& layout) const { return Operand(count, type, layout); }
};

// Whether `op` is commutative (MPI_Op_commutative); false if MPI rejects it.
bool op_is_valid(MPI_Op op, bool* commutative);

}  // namespace bamboo
