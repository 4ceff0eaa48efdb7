#include "collectives/reduction.hpp"

#include "util/mpi_guard.hpp"

namespace bamboo {

Operand::Operand(int count, MPI_Datatype type, const TypeLayout& layout)
    : storage_(layout.span(count)),
      size_(layout.span(count)),
      count_(count),
      type_(type),
      layout_(layout) {}

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
    MpiGuard guard;
    MPI_Reduce_local(in.base(), inout.base(), count, type, op);
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
