// The one-sided operations: MPI_Put, MPI_Get, MPI_Accumulate, the atomic ones that also read
// the target (MPI_Get_accumulate, MPI_Fetch_and_op, MPI_Compare_and_swap), and the
// request-based forms (MPI_Rput, MPI_Rget, MPI_Raccumulate, MPI_Rget_accumulate). Arguments
// are checked here, against the target's part as every member knows it (its size and
// displacement unit); the operation itself is messaging/one_sided.hpp's.
#include <mpi.h>

#include <initializer_list>
#include <utility>
#include <vector>

#include "bamboo.h"
#include "messaging/one_sided.hpp"
#include "messaging/rank.hpp"
#include "mpi/api.hpp"
#include "mpi/windows.hpp"
#include "util/errors.hpp"
#include "util/mpi_guard.hpp"

namespace bamboo {
namespace {

// The target of an operation on `entry`'s window, checked: a member's rank (MPI_PROC_NULL:
// false, no operation), a datatype as large as the origin's data, and a buffer inside the
// target's part (of a dynamic window: inside memory it attached, where this process can see
// it). Over the program's own memory (MPI_Win_create) only the buffer's first byte must lie
// inside the part, as Open MPI and MPICH let a datatype with a lower bound reach past the size
// given for count x extent; memory the runtime allocated (MPI_Win_allocate) it must not leave.
bool checked_target(Rank& self, const WindowEntry& entry, int rank, MPI_Aint disp, int count, MPI_Datatype type,
                    const TypedBuffer& origin, RmaTarget* target, const char* call, bamboo_site at) {
    const WindowPart& window = *entry.part;
    if (rank == MPI_PROC_NULL) return false;
    int size = window.comm->size();
    if (rank < 0 || rank >= size)
        call_error(MPI_ERR_RANK, self.vrank(), call, at, "target rank %d is out of range (0..%d)", rank, size - 1);
    if (disp < 0)
        call_error(MPI_ERR_DISP, self.vrank(), call, at, "the target displacement %ld is negative", static_cast<long>(disp));
    TypedBuffer described = typed_buffer(self, nullptr, count, type, call, at);
    if (described.bytes() != origin.bytes())
        call_error(MPI_ERR_TYPE, self.vrank(), call, at,
                   "the origin buffer holds %zu bytes of data and the target buffer %zu: their datatypes must match",
                   origin.bytes(), described.bytes());
    target->rank = rank;
    target->disp = disp;
    target->count = count;
    target->type = type;
    target->layout = described.layout;
    if (count == 0 || described.layout.size == 0) return true;
    MPI_Aint first = target->byte_offset(window) + described.layout.true_lb;
    MPI_Aint end = first + static_cast<MPI_Aint>(described.layout.span(count));
    if (window.dynamic) {
        // A part in another process is checked there (messaging/one_sided.cpp).
        const WindowPart* local = window.local_parts[static_cast<std::size_t>(rank)];
        if (local && !local->covered(local->address(first), end - first))
            call_error(MPI_ERR_RMA_RANGE, self.vrank(), call, at,
                       "the target buffer, addresses %#lx to %#lx of target rank %d, is not inside memory it attached "
                       "to the window (MPI_Win_attach)",
                       static_cast<unsigned long>(first), static_cast<unsigned long>(end), rank);
        return true;
    }
    const PartShape& shape = window.shapes[static_cast<std::size_t>(rank)];
    bool program_memory = entry.local.flavor == MPI_WIN_FLAVOR_CREATE;
    if (first < 0 || (program_memory ? first >= shape.size : end > shape.size))
        call_error(MPI_ERR_RMA_RANGE, self.vrank(), call, at,
                   "the target buffer, bytes %ld to %ld of the part of target rank %d (displacement %ld x unit %d), "
                   "lies outside that part's %ld bytes",
                   static_cast<long>(first), static_cast<long>(end), rank, static_cast<long>(disp), shape.disp_unit,
                   static_cast<long>(shape.size));
    return true;
}

// The predefined type `type` is made of, or MPI_DATATYPE_NULL if it mixes several or is none
// an accumulate takes. The caller holds the MPI lock.
MPI_Datatype element_of(MPI_Datatype type) {
    int integers = 0, addresses = 0, datatypes = 0, combiner = 0;
    if (MPI_Type_get_envelope(type, &integers, &addresses, &datatypes, &combiner) != MPI_SUCCESS)
        return MPI_DATATYPE_NULL;
    if (combiner == MPI_COMBINER_NAMED) return accumulate_element_supported(type) ? type : MPI_DATATYPE_NULL;
    std::vector<int> ints(static_cast<std::size_t>(integers));
    std::vector<MPI_Aint> addrs(static_cast<std::size_t>(addresses));
    std::vector<MPI_Datatype> types(static_cast<std::size_t>(datatypes));
    MPI_Type_get_contents(type, integers, addresses, datatypes, ints.data(), addrs.data(), types.data());
    MPI_Datatype element = MPI_DATATYPE_NULL;
    bool mixed = false;
    for (MPI_Datatype inner : types) {
        MPI_Datatype found = element_of(inner);
        mixed = mixed || found == MPI_DATATYPE_NULL || (element != MPI_DATATYPE_NULL && found != element);
        element = found;
        int inner_integers, inner_addresses, inner_datatypes, inner_combiner;
        MPI_Type_get_envelope(inner, &inner_integers, &inner_addresses, &inner_datatypes, &inner_combiner);
        if (inner_combiner != MPI_COMBINER_NAMED) MPI_Type_free(&inner);
    }
    return mixed ? MPI_DATATYPE_NULL : element;
}

MPI_Datatype checked_element(Rank& self, MPI_Datatype type, const char* side, const char* call, bamboo_site at) {
    MPI_Datatype element;
    {
        MpiGuard guard;
        element = element_of(type);
    }
    if (element == MPI_DATATYPE_NULL)
        call_error(MPI_ERR_TYPE, self.vrank(), call, at,
                   "the %s datatype is not made of one predefined datatype, as an accumulate needs", side);
    return element;
}

// An accumulate's operation, checked, and the predefined type its datatypes `types` (those
// that hold data) are all made of.
Accumulation checked_accumulation(Rank& self, MPI_Op op, std::initializer_list<std::pair<MPI_Datatype, const char*>> types,
                                  const char* call, bamboo_site at) {
    if (!accumulate_op_supported(op))
        call_error(MPI_ERR_OP, self.vrank(), call, at,
                   "the operation is not a predefined one (MPI_SUM, MPI_MAX, MPI_REPLACE...): "
                   "one-sided accumulates take no operations of the program's own");
    Accumulation how{op, MPI_DATATYPE_NULL};
    for (const auto& [type, side] : types) {
        MPI_Datatype element = checked_element(self, type, side, call, at);
        if (how.element != MPI_DATATYPE_NULL && element != how.element)
            call_error(MPI_ERR_TYPE, self.vrank(), call, at,
                       "the %s datatype is made of another predefined datatype than the others", side);
        how.element = element;
    }
    return how;
}

// A request-based operation's request (MPI_Rput...), or nullptr for the plain calls. Made
// once the arguments are checked; a put's or an accumulate's is complete at once (their data
// is copied when called), a get's once its data is in.
Request* operation_request(Rank& self, MPI_Request* handle, const char* call, bamboo_site at) {
    if (!handle) return nullptr;
    Request* r = new_request(self, handle, call, at);
    r->kind = Request::Kind::send;
    r->owner = &self;
    r->call = call;
    r->site = at;
    return r;
}

void complete_now(Request* r) {
    if (r) r->complete.store(true, std::memory_order_release);
}

// The entry points' bodies, for the plain call (request nullptr) and its request-based form.
int put_call(const void* origin_addr, int origin_count, MPI_Datatype origin_type, int target_rank, MPI_Aint target_disp,
             int target_count, MPI_Datatype target_type, MPI_Win win, MPI_Request* request, const char* call,
             bamboo_site at) {
    return checked_call(WindowHandle{win}, [&]() -> int {
        Rank& self = calling_rank(call, at);
        WindowEntry& entry = window_of(self, win, call, at);
        WindowPart& window = *entry.part;
        TypedBuffer origin = typed_buffer(self, origin_addr, origin_count, origin_type, call, at);
        RmaTarget target;
        if (checked_target(self, entry, target_rank, target_disp, target_count, target_type, origin, &target, call, at))
            put(window, origin, target);
        complete_now(operation_request(self, request, call, at));
        return MPI_SUCCESS;
    });
}

int get_call(void* origin_addr, int origin_count, MPI_Datatype origin_type, int target_rank, MPI_Aint target_disp,
             int target_count, MPI_Datatype target_type, MPI_Win win, MPI_Request* request, const char* call,
             bamboo_site at) {
    return checked_call(WindowHandle{win}, [&]() -> int {
        Rank& self = calling_rank(call, at);
        WindowEntry& entry = window_of(self, win, call, at);
        WindowPart& window = *entry.part;
        TypedBuffer origin = typed_buffer(self, origin_addr, origin_count, origin_type, call, at);
        RmaTarget target;
        bool any =
            checked_target(self, entry, target_rank, target_disp, target_count, target_type, origin, &target, call, at);
        Request* r = operation_request(self, request, call, at);
        if (any) get(window, origin, target, r);
        else complete_now(r);
        return MPI_SUCCESS;
    });
}

int accumulate_call(const void* origin_addr, int origin_count, MPI_Datatype origin_type, int target_rank,
                    MPI_Aint target_disp, int target_count, MPI_Datatype target_type, MPI_Op op, MPI_Win win,
                    MPI_Request* request, const char* call, bamboo_site at) {
    return checked_call(WindowHandle{win}, [&]() -> int {
        Rank& self = calling_rank(call, at);
        WindowEntry& entry = window_of(self, win, call, at);
        WindowPart& window = *entry.part;
        TypedBuffer origin = typed_buffer(self, origin_addr, origin_count, origin_type, call, at);
        RmaTarget target;
        if (checked_target(self, entry, target_rank, target_disp, target_count, target_type, origin, &target, call,
                            at)) {
            Accumulation how =
                origin.bytes() == 0
                    ? checked_accumulation(self, op, {}, call, at)
                    : checked_accumulation(self, op, {{origin_type, "origin"}, {target_type, "target"}}, call, at);
            accumulate(window, origin, target, how);
        }
        complete_now(operation_request(self, request, call, at));
        return MPI_SUCCESS;
    });
}

// A buffer as an MPI call names it: address, count, datatype.
struct BufferArgs {
    const void* addr;
    int count;
    MPI_Datatype type;
};

// MPI_Get_accumulate, MPI_Rget_accumulate, MPI_Fetch_and_op: `origin` is not read for
// MPI_NO_OP.
int get_accumulate_call(BufferArgs origin_args, BufferArgs result_args, int target_rank, MPI_Aint target_disp,
                        int target_count, MPI_Datatype target_type, MPI_Op op, MPI_Win win, MPI_Request* request,
                        const char* call, bamboo_site at) {
    return checked_call(WindowHandle{win}, [&]() -> int {
        Rank& self = calling_rank(call, at);
        WindowEntry& entry = window_of(self, win, call, at);
        WindowPart& window = *entry.part;
        TypedBuffer result = typed_buffer(self, result_args.addr, result_args.count, result_args.type, call, at);
        RmaTarget target;
        bool any =
            checked_target(self, entry, target_rank, target_disp, target_count, target_type, result, &target, call, at);
        TypedBuffer origin = result;
        if (any && op != MPI_NO_OP) {
            origin = typed_buffer(self, origin_args.addr, origin_args.count, origin_args.type, call, at);
            if (origin.bytes() != result.bytes())
                call_error(MPI_ERR_TYPE, self.vrank(), call, at,
                           "the origin buffer holds %zu bytes of data and the result buffer %zu: their datatypes "
                           "must match", origin.bytes(), result.bytes());
        }
        Accumulation how =
            !any || result.bytes() == 0 ? checked_accumulation(self, op, {}, call, at)
            : op == MPI_NO_OP
                ? checked_accumulation(self, op, {{result_args.type, "result"}, {target_type, "target"}}, call, at)
                : checked_accumulation(
                      self, op, {{origin_args.type, "origin"}, {result_args.type, "result"}, {target_type, "target"}},
                      call, at);
        Request* r = operation_request(self, request, call, at);
        if (any) get_accumulate(window, origin, result, target, how, r);
        else complete_now(r);
        return MPI_SUCCESS;
    });
}

}  // namespace
}  // namespace bamboo

using namespace bamboo;

extern "C" {

int bamboo_put(bamboo_site at, const void* origin_addr, int origin_count, MPI_Datatype origin_type, int target_rank,
               MPI_Aint target_disp, int target_count, MPI_Datatype target_type, MPI_Win win) {
    return put_call(origin_addr, origin_count, origin_type, target_rank, target_disp, target_count, target_type, win,
                    nullptr, "MPI_Put", at);
}

int bamboo_rput(bamboo_site at, const void* origin_addr, int origin_count, MPI_Datatype origin_type, int target_rank,
                MPI_Aint target_disp, int target_count, MPI_Datatype target_type, MPI_Win win, MPI_Request* request) {
    return put_call(origin_addr, origin_count, origin_type, target_rank, target_disp, target_count, target_type, win,
                    request, "MPI_Rput", at);
}

int bamboo_get(bamboo_site at, void* origin_addr, int origin_count, MPI_Datatype origin_type, int target_rank,
               MPI_Aint target_disp, int target_count, MPI_Datatype target_type, MPI_Win win) {
    return get_call(origin_addr, origin_count, origin_type, target_rank, target_disp, target_count, target_type, win,
                    nullptr, "MPI_Get", at);
}

int bamboo_rget(bamboo_site at, void* origin_addr, int origin_count, MPI_Datatype origin_type, int target_rank,
                MPI_Aint target_disp, int target_count, MPI_Datatype target_type, MPI_Win win, MPI_Request* request) {
    return get_call(origin_addr, origin_count, origin_type, target_rank, target_disp, target_count, target_type, win,
                    request, "MPI_Rget", at);
}

int bamboo_accumulate(bamboo_site at, const void* origin_addr, int origin_count, MPI_Datatype origin_type,
                      int target_rank, MPI_Aint target_disp, int target_count, MPI_Datatype target_type, MPI_Op op,
                      MPI_Win win) {
    return accumulate_call(origin_addr, origin_count, origin_type, target_rank, target_disp, target_count, target_type,
                           op, win, nullptr, "MPI_Accumulate", at);
}

int bamboo_raccumulate(bamboo_site at, const void* origin_addr, int origin_count, MPI_Datatype origin_type,
                       int target_rank, MPI_Aint target_disp, int target_count, MPI_Datatype target_type, MPI_Op op,
                       MPI_Win win, MPI_Request* request) {
    return accumulate_call(origin_addr, origin_count, origin_type, target_rank, target_disp, target_count, target_type,
                           op, win, request, "MPI_Raccumulate", at);
}

int bamboo_get_accumulate(bamboo_site at, const void* origin_addr, int origin_count, MPI_Datatype origin_type,
                          void* result_addr, int result_count, MPI_Datatype result_type, int target_rank,
                          MPI_Aint target_disp, int target_count, MPI_Datatype target_type, MPI_Op op, MPI_Win win) {
    return get_accumulate_call({origin_addr, origin_count, origin_type}, {result_addr, result_count, result_type},
                               target_rank, target_disp, target_count, target_type, op, win, nullptr,
                               "MPI_Get_accumulate", at);
}

int bamboo_rget_accumulate(bamboo_site at, const void* origin_addr, int origin_count, MPI_Datatype origin_type,
                           void* result_addr, int result_count, MPI_Datatype result_type, int target_rank,
                           MPI_Aint target_disp, int target_count, MPI_Datatype target_type, MPI_Op op, MPI_Win win,
                           MPI_Request* request) {
    return get_accumulate_call({origin_addr, origin_count, origin_type}, {result_addr, result_count, result_type},
                               target_rank, target_disp, target_count, target_type, op, win, request,
                               "MPI_Rget_accumulate", at);
}

int bamboo_fetch_and_op(bamboo_site at, const void* origin_addr, void* result_addr, MPI_Datatype type,
                        int target_rank, MPI_Aint target_disp, MPI_Op op, MPI_Win win) {
    return get_accumulate_call({origin_addr, 1, type}, {result_addr, 1, type}, target_rank, target_disp, 1, type, op,
                               win, nullptr, "MPI_Fetch_and_op", at);
}

int bamboo_compare_and_swap(bamboo_site at, const void* origin_addr, const void* compare_addr, void* result_addr,
                            MPI_Datatype type, int target_rank, MPI_Aint target_disp, MPI_Win win) {
    const char* call = "MPI_Compare_and_swap";
    return checked_call(WindowHandle{win}, [&]() -> int {
        Rank& self = calling_rank(call, at);
        WindowEntry& entry = window_of(self, win, call, at);
        WindowPart& window = *entry.part;
        TypedBuffer result = typed_buffer(self, result_addr, 1, type, call, at);
        RmaTarget target;
        if (!checked_target(self, entry, target_rank, target_disp, 1, type, result, &target, call, at))
            return MPI_SUCCESS;
        bool predefined;
        {
            MpiGuard guard;
            predefined = element_of(type) == type;
        }
        if (!predefined)
            call_error(MPI_ERR_TYPE, self.vrank(), call, at,
                       "the datatype is not a predefined one, as MPI_Compare_and_swap needs");
        compare_and_swap(window, typed_buffer(self, origin_addr, 1, type, call, at),
                         typed_buffer(self, compare_addr, 1, type, call, at), result, target);
        return MPI_SUCCESS;
    });
}

}  // extern "C"
