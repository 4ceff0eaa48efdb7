// Fortran bindings: user-defined reductions (MPI_Op_create, MPI_Op_free).
//
// The runtime calls an operation as C's MPI_User_function, with the C datatype; a Fortran
// one takes the datatype's integer. Each operation gets one of a fixed set of C functions
// that calls its Fortran procedure with that integer: the C function has no other way to
// know which procedure it stands for. Every task registers its own copy's procedure, so a
// program with one operation takes one slot per task.
#include <array>
#include <mutex>
#include <utility>

#include "binding.hpp"

using namespace bamboo::fortran;

namespace {

using FortranReduction = void (*)(void* in, void* inout, Fint* len, Fint* datatype);

constexpr std::size_t kSlots = 512;

// Slot i: the procedure kCallers[i] calls, and the operation made with it.
struct Slots {
    std::mutex mutex;
    std::array<FortranReduction, kSlots> procedures{};
    std::array<MPI_Op, kSlots> ops{};
};

Slots& slots() {
    static Slots s;
    return s;
}

template <std::size_t Slot>
void call_slot(void* in, void* inout, int* len, MPI_Datatype* type) {
    Fint datatype = known_datatype_handle(*type);
    Fint count = *len;
    slots().procedures[Slot](in, inout, &count, &datatype);
}

template <std::size_t... Slot>
constexpr std::array<MPI_User_function*, kSlots> make_callers(std::index_sequence<Slot...>) {
    return {&call_slot<Slot>...};
}

const std::array<MPI_User_function*, kSlots> kCallers = make_callers(std::make_index_sequence<kSlots>{});

// A free slot for `procedure`, or kSlots when all are taken.
std::size_t take_slot(FortranReduction procedure) {
    std::lock_guard<std::mutex> lock(slots().mutex);
    for (std::size_t i = 0; i < kSlots; ++i)
        if (!slots().procedures[i]) {
            slots().procedures[i] = procedure;
            slots().ops[i] = MPI_OP_NULL;
            return i;
        }
    return kSlots;
}

void release_slot(std::size_t slot) {
    std::lock_guard<std::mutex> lock(slots().mutex);
    slots().procedures[slot] = nullptr;
    slots().ops[slot] = MPI_OP_NULL;
}

}  // namespace

extern "C" {

// `commute` is a LOGICAL.
void mpi_op_create_(FortranReduction procedure, const Fint* commute, Fint* op, Fint* ierr) {
    *op = 0;
    std::size_t slot = take_slot(procedure);
    if (slot == kSlots) {
        *ierr = MPI_ERR_INTERN;  // more user operations at once than this process has slots
        return;
    }
    MPI_Op created = MPI_OP_NULL;
    *ierr = bamboo_op_create(kFortranSite, kCallers[slot], *commute != 0, &created);
    if (*ierr != MPI_SUCCESS) {
        release_slot(slot);
        return;
    }
    {
        std::lock_guard<std::mutex> lock(slots().mutex);
        slots().ops[slot] = created;
    }
    *op = op_handle(created);
}

void mpi_op_free_(Fint* op, Fint* ierr) {
    MPI_Op freed = bamboo::fortran::op(*op), was = freed;
    *ierr = bamboo_op_free(kFortranSite, &freed);
    if (freed != MPI_OP_NULL) return;
    for (std::size_t slot = 0; slot < kSlots; ++slot) {
        bool made_here;
        {
            std::lock_guard<std::mutex> lock(slots().mutex);
            made_here = slots().ops[slot] == was;
        }
        if (made_here) release_slot(slot);
    }
    forget_op(*op);
    *op = 0;
}

}  // extern "C"
