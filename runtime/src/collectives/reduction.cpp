#include "collectives/reduction.hpp"

#include <cstring>

#include "util/mpi_guard.hpp"

namespace bamboo {

Operand::Operand(int count, MPI_Datatype type, const TypeLayout& layout)
    : storage_(layout.span(count)),
      data_(storage_.get()),
      size_(layout.span(count)),
      count_(count),
      type_(type),
      layout_(layout) {}

Operand::Operand(const TypedBuffer& user)
    : data_(user.data()),
      size_(user.layout.span(user.count)),
      count_(user.count),
      type_(user.type),
      layout_(user.layout) {}

Operand Operand::over(const TypedBuffer& result, const TypedBuffer& input) {
    Operand operand(result);
    if (input.base == result.base) return operand;  // MPI_IN_PLACE
    if (input.layout.contiguous) operand.input_ = input.data();
    else copy(input, result);
    return operand;
}

void Operand::settle() const {
    if (!input_) return;
    if (size_) std::memcpy(data_, input_, size_);
    input_ = nullptr;
}

Operand Operand::borrowing(const TypedBuffer& input) {
    Operand operand(input);
    operand.borrowed_ = true;
    return operand;
}

void Operand::own() {
    settle();
    if (!borrowed_) return;
    ByteBuffer storage(size_);
    if (size_) std::memcpy(storage.get(), data_, size_);
    storage_.swap(storage);
    data_ = storage_.get();
    borrowed_ = false;
}

TypedBuffer Operand::typed() const {
    TypedBuffer buffer;
    buffer.base = base();
    buffer.count = count_;
    buffer.type = type_;
    buffer.layout = layout_;
    return buffer;
}

void Reduction::combine(const Operand& in, Operand& inout) const {
    if (count == 0) return;
    inout.own();
    MpiGuard guard;
    MPI_Reduce_local(in.base(), inout.base(), count, type, op);
}

void Reduction::combine_input(Operand& acc) const {
    const char* input = acc.input_;
    acc.input_ = nullptr;
    if (count == 0) return;
    MpiGuard guard;
    MPI_Reduce_local(input - acc.layout_.true_lb, acc.data_ - acc.layout_.true_lb, count, type, op);
}

bool op_is_valid(MPI_Op op, bool* commutative) {
    if (op == MPI_OP_NULL) return false;
    int flag = 0;
    MpiGuard guard;
    if (MPI_Op_commutative(op, &flag) != MPI_SUCCESS) return false;
    *commutative = flag != 0;
    return true;
}

}  // namespace bamboo
