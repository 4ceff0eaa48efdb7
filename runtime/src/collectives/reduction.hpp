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
    // Over the caller's contiguous buffer `result`, holding the value of `input`: where a
    // reduction's result lands in the user's buffer, it is accumulated there, and no copy out
    // follows. The input is copied in when first read, unless a contribution lands in the
    // buffer first (vacant()).
    static Operand over(const TypedBuffer& result, const TypedBuffer& input);
    // Reading the caller's contiguous `input` where it lies: an operand that is only sent (a
    // leaf of the reduction's trees) is never copied. own() copies it before anything writes.
    static Operand borrowing(const TypedBuffer& input);
    // Makes the operand's buffer its own to write (a borrowed one is copied).
    void own();

    // The address MPI gives the buffer (element 0's displacements are relative to it).
    void* base() const { return bytes() - layout_.true_lb; }
    char* bytes() const {
        settle();
        return data_;
    }
    std::size_t size() const { return size_; }
    const TypeLayout& layout() const { return layout_; }
    // As a typed buffer, to copy from and to the user's buffers with copy().
    TypedBuffer typed() const;

    // The buffer while it does not hold the operand yet (over(), before the input is copied
    // in), else nullptr: another operand may be received there and the input combined into it
    // (Reduction::combine_input), which saves the copy.
    char* vacant() const { return input_ ? data_ : nullptr; }

    void swap(Operand& other) {
        storage_.swap(other.storage_);
        std::swap(data_, other.data_);
        std::swap(input_, other.input_);
        std::swap(borrowed_, other.borrowed_);
        std::swap(size_, other.size_);
    }

private:
    friend struct Reduction;
    explicit Operand(const TypedBuffer& user);
    void settle() const;  // copies a pending input in

    ByteBuffer storage_;  // empty over the caller's buffer
    char* data_;
    mutable const char* input_ = nullptr;  // over(): the input, until copied in or combined
    bool borrowed_ = false;
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

    // inout = in op inout (inout owned first).
    void combine(const Operand& in, Operand& inout) const;
    // acc = its pending input op what was received into acc.vacant(). A commutative
    // operation only: the contribution received stands where acc would in combine().
    void combine_input(Operand& acc) const;
    // Operands shaped for this reduction.
    Operand operand(const TypeLayout& layout) const { return Operand(count, type, layout); }
};

// Whether `op` is commutative (MPI_Op_commutative); false if MPI rejects it.
bool op_is_valid(MPI_Op op, bool* commutative);

}  // namespace bamboo
