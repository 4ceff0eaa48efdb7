#include "messaging/one_sided.hpp"

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <optional>
#include <string>

#include "core/worker.hpp"
#include "messaging/rank.hpp"
#include "messaging/requests.hpp"
#include "messaging/routes.hpp"
#include "trace/recorder.hpp"
#include "util/byte_buffer.hpp"
#include "util/errors.hpp"
#include "util/mpi_guard.hpp"

namespace bamboo {
namespace {

// What a one-sided message asks or answers.
enum class RmaKind : std::uint32_t {
    put,           // data into runs at the target
    accumulate,    // data combined into runs at the target
    get,           // runs at the target, answered by get_answer
    get_answer,    // the data of a get, for its origin buffer
    get_accumulate,    // data combined into runs at the target, answered by get_answer with
                       // what the runs held before
    compare_and_swap,  // one element and the one to compare with; answered like get_accumulate
    post,          // a target's MPI_Win_post, to each origin of its group
    complete,      // an origin's MPI_Win_complete, to each target of its group, after its operations
    lock,          // the target's lock, answered by lock_granted (at once or later)
    lock_granted,
    flush,         // answered by done once everything sent before it is applied
    unlock,        // lets go of the lock, then answered by done
    done,
};

struct RmaHeader {
    std::uint64_t token;       // what an answer carries back to the waiting origin
    std::int64_t offset;       // put, accumulate, get: from the target part's base to the target buffer
    std::uint64_t run_count;   // ... its runs, right after the header
    std::uint64_t data_bytes;  // the packed data after the runs; get: how much to answer with
    std::uint32_t kind;
    std::int32_t op;           // accumulate: index in kOps
    std::int32_t element;      // accumulate: index in kElements
    std::int32_t mode;         // lock, unlock: LockMode
};

// Predefined operations and types, which every process names by the same index (their handles
// may be addresses, which differ between processes).
const MPI_Op kOps[] = {MPI_SUM, MPI_MAX,  MPI_MIN, MPI_PROD,   MPI_LAND,   MPI_BAND,    MPI_LOR,
                       MPI_BOR, MPI_LXOR, MPI_BXOR, MPI_MAXLOC, MPI_MINLOC, MPI_REPLACE, MPI_NO_OP};
const MPI_Datatype kElements[] = {
    MPI_INT, MPI_DOUBLE, MPI_FLOAT, MPI_LONG, MPI_LONG_LONG, MPI_UNSIGNED, MPI_UNSIGNED_LONG,
    MPI_UNSIGNED_LONG_LONG, MPI_SHORT, MPI_UNSIGNED_SHORT, MPI_CHAR, MPI_SIGNED_CHAR, MPI_UNSIGNED_CHAR,
    MPI_BYTE, MPI_LONG_DOUBLE, MPI_WCHAR, MPI_C_BOOL, MPI_INT8_T, MPI_INT16_T, MPI_INT32_T, MPI_INT64_T,
    MPI_UINT8_T, MPI_UINT16_T, MPI_UINT32_T, MPI_UINT64_T, MPI_AINT, MPI_OFFSET, MPI_COUNT,
    MPI_C_FLOAT_COMPLEX, MPI_C_DOUBLE_COMPLEX, MPI_C_LONG_DOUBLE_COMPLEX, MPI_FLOAT_INT, MPI_DOUBLE_INT,
    MPI_LONG_INT, MPI_2INT, MPI_SHORT_INT, MPI_LONG_DOUBLE_INT,
    // Fortran's, which a Fortran program's accumulates name (runtime/fortran)
    MPI_INTEGER, MPI_REAL, MPI_DOUBLE_PRECISION, MPI_COMPLEX, MPI_DOUBLE_COMPLEX, MPI_LOGICAL,
    MPI_CHARACTER, MPI_INTEGER1, MPI_INTEGER2, MPI_INTEGER4, MPI_INTEGER8, MPI_REAL4, MPI_REAL8,
    MPI_2REAL, MPI_2DOUBLE_PRECISION, MPI_2INTEGER};

template <class Handle, std::size_t N>
int index_in(const Handle (&table)[N], Handle handle) {
    auto found = std::find(std::begin(table), std::end(table), handle);
    return found == std::end(table) ? -1 : static_cast<int>(found - std::begin(table));
}

// An origin task waiting for an answer (a lock grant, an acknowledgement), in its own frame.
struct Signal {
    explicit Signal(Task& waiting) : task(&waiting) {}
    std::atomic<bool> done{false};
    Task* task;

    std::uint64_t token() { return reinterpret_cast<std::uintptr_t>(this); }
    static Signal& of(std::uint64_t token) { return *reinterpret_cast<Signal*>(static_cast<std::uintptr_t>(token)); }
    // Any thread. The waiting task may go on, and its frame with this, as soon as `done` is set.
    void raise() {
        Task* waiting = task;
        done.store(true, std::memory_order_release);
        waiting->wake();
    }
};

// A get from another process: where its answer goes.
struct PendingGet {
    WindowPart* window;
    TypedBuffer origin;
    MPI_Datatype held_type;  // the origin datatype, held for the program may free its own
    Request* answered;       // a request-based operation's request, or nullptr

    std::uint64_t token() { return reinterpret_cast<std::uintptr_t>(this); }
    static PendingGet* of(std::uint64_t token) { return reinterpret_cast<PendingGet*>(static_cast<std::uintptr_t>(token)); }
};

// The running origin will wait for an answer's data for `into` (gets_pending), and so will
// `answered` if given; the token the answer carries back.
std::uint64_t expect_answer(WindowPart& window, const TypedBuffer& into, Request* answered) {
    auto* pending = new PendingGet{&window, into, hold_datatype(into.type, into.layout), answered};
    if (pending->held_type != MPI_DATATYPE_NULL) pending->origin.type = pending->held_type;
    window.gets_pending.fetch_add(1, std::memory_order_relaxed);
    return pending->token();
}

WindowPart& local_target(const WindowPart& window, int rank) { return *window.local_parts[static_cast<std::size_t>(rank)]; }
bool is_local(const WindowPart& window, int rank) { return window.local_parts[static_cast<std::size_t>(rank)] != nullptr; }

// The target buffer of an operation on a part of this process.
TypedBuffer target_buffer(const WindowPart& window, const RmaTarget& target) {
    TypedBuffer buffer;
    buffer.base = local_target(window, target.rank).address(target.byte_offset(window));
    buffer.count = target.count;
    buffer.type = target.type;
    buffer.layout = target.layout;
    return buffer;
}

// `inout` = `in` op `inout`, for `bytes` packed bytes of `how.element`s.
void combine(const char* in, char* inout, std::size_t bytes, const Accumulation& how) {
    if (how.op == MPI_NO_OP || bytes == 0) return;
    if (how.op == MPI_REPLACE) {
        std::memcpy(inout, in, bytes);
        return;
    }
    TypeLayout element;
    describe_datatype(how.element, &element);
    int count = static_cast<int>(bytes / element.size);
    // The pairs of MPI_MAXLOC and MPI_MINLOC (MPI_DOUBLE_INT...) have gaps in memory that
    // their packed form leaves out; every operand goes to MPI aligned as in memory.
    std::size_t memory_bytes = static_cast<std::size_t>(element.extent) * static_cast<std::size_t>(count);
    ByteBuffer in_memory(memory_bytes), inout_memory(memory_bytes);
    TypedBuffer in_typed, inout_typed;
    in_typed.base = in_memory.get() - element.true_lb;
    inout_typed.base = inout_memory.get() - element.true_lb;
    in_typed.count = inout_typed.count = count;
    in_typed.type = inout_typed.type = how.element;
    in_typed.layout = inout_typed.layout = element;
    unpack(in, bytes, in_typed);
    unpack(inout, bytes, inout_typed);
    {
        MpiGuard guard;
        MPI_Reduce_local(in_typed.base, inout_typed.base, count, how.element, how.op);
    }
    pack(inout_typed, inout);
}

// A one-sided message: header, runs, then `data_bytes` of data (filled in by the caller).
ByteBuffer one_sided_message(const RmaHeader& header, const std::vector<ByteRun>& runs, std::size_t* bytes) {
    *bytes = sizeof header + runs.size() * sizeof(ByteRun) +
             (header.kind == static_cast<std::uint32_t>(RmaKind::get) ? 0 : header.data_bytes);
    ByteBuffer message(*bytes);
    std::memcpy(message.get(), &header, sizeof header);
    if (!runs.empty()) std::memcpy(message.get() + sizeof header, runs.data(), runs.size() * sizeof(ByteRun));
    return message;
}
char* data_of(const ByteBuffer& message, const RmaHeader& header) {
    return message.get() + sizeof header + header.run_count * sizeof(ByteRun);
}

RmaHeader header_of(RmaKind kind) {
    RmaHeader header{};
    header.kind = static_cast<std::uint32_t>(kind);
    return header;
}

// From the running origin task to the member `rank` of another process.
void send_from_task(WindowPart& window, int rank, const ByteBuffer& message, std::size_t bytes) {
    Envelope envelope{window.rank, 0, one_sided_context(window.comm->context())};
    window.owner.routes().link->send(envelope, window.comm->vrank_of(rank), raw_bytes(message.get(), bytes), nullptr,
                                     ReceiverWait::never);
}

// A one-sided message to `target`, a member of another process: `header`, completed with
// where the operation lands, the target's byte runs, and (but for a get) room for
// `data_bytes` of data after them.
ByteBuffer message_to(const WindowPart& window, const RmaTarget& target, RmaHeader& header, std::size_t data_bytes,
                      std::size_t* bytes) {
    header.offset = target.byte_offset(window);
    std::vector<ByteRun> runs = byte_runs(target.type, target.layout, target.count);
    header.run_count = runs.size();
    header.data_bytes = data_bytes;
    return one_sided_message(header, runs, bytes);
}

// A put or an accumulate to another process: the origin's data goes with it, and the target
// counts it for the fence.
void send_update(WindowPart& window, const TypedBuffer& origin, const RmaTarget& target, RmaHeader header) {
    std::size_t bytes = 0;
    ByteBuffer message = message_to(window, target, header, origin.bytes(), &bytes);
    pack(origin, data_of(message, header));
    send_from_task(window, target.rank, message, bytes);
    ++window.sent[static_cast<std::size_t>(target.rank)];
    window.unflushed[static_cast<std::size_t>(target.rank)] = 1;
}

// An atomic that reads the target, to another process: `operand_bytes` of `operands` go with
// it, the answer comes back as a get's, and the target counts it for the fence.
void send_atomic(WindowPart& window, const RmaTarget& target, RmaHeader header, const ByteBuffer& operands,
                 std::size_t operand_bytes) {
    std::size_t bytes = 0;
    ByteBuffer message = message_to(window, target, header, operand_bytes, &bytes);
    std::memcpy(data_of(message, header), operands.get(), operand_bytes);
    send_from_task(window, target.rank, message, bytes);
    ++window.sent[static_cast<std::size_t>(target.rank)];
    window.unflushed[static_cast<std::size_t>(target.rank)] = 1;
}

// From delivery (or a task letting go of a lock) to the task `dest_vrank` of another process.
void send_later(const WindowPart& from, int dest_vrank, const ByteBuffer& message, std::size_t bytes) {
    Envelope envelope{from.rank, 0, one_sided_context(from.comm->context())};
    from.owner.routes().link->send_later(envelope, dest_vrank, raw_bytes(message.get(), bytes));
}

void answer(const WindowPart& target, int dest_vrank, RmaKind kind, std::uint64_t token) {
    RmaHeader header = header_of(kind);
    header.token = token;
    std::size_t bytes = 0;
    ByteBuffer message = one_sided_message(header, {}, &bytes);
    send_later(target, dest_vrank, message, bytes);
}

// `holder` may go on with the lock of `target`'s part.
void grant(const WindowPart& target, const LockHolder& holder) {
    if (target.owner.routes().local(holder.vrank)) Signal::of(holder.token).raise();
    else answer(target, holder.vrank, RmaKind::lock_granted, holder.token);
}

void release_lock(WindowPart& target, LockMode mode) {
    std::vector<LockHolder> granted;
    {
        std::lock_guard<SpinLock> guard(target.access);
        granted = target.lock.release(mode);
    }
    for (const LockHolder& holder : granted) grant(target, holder);
}

// Counts one operation from another process as applied and wakes the target task, which may
// wait for it in a fence.
void applied_one(WindowPart& target) {
    target.applied.fetch_add(1, std::memory_order_release);
    target.owner.wake();
}

std::string window_name(const WindowPart& window) {
    std::string name = window.comm->name();
    const std::string made = "the communicator from ";
    if (name.compare(0, made.size(), made) == 0) name = "the window from " + name.substr(made.size());
    return name;
}

// The running owner waits for `signal`, in `call` at `at`, for `what`.
void wait_for_signal(WindowPart& window, Signal& signal, const std::string& what, const char* call, bamboo_site at) {
    WaitInfo info;
    info.call = call;
    info.site = at;
    info.what = what.c_str();
    window.owner.wait_until(info, [&signal] { return signal.done.load(std::memory_order_acquire); });
}

// An operation from another process on a dynamic part, which only the target's process can
// check: every byte it touches attached. MPI calls anything else erroneous; it is the origin's
// error, found here, so it ends the job with both tasks named.
void check_attached(const WindowPart& part, int origin_vrank, const std::vector<ByteRun>& runs, const char* at) {
    for (const ByteRun& run : runs)
        if (!part.covered(at + run.offset, static_cast<MPI_Aint>(run.bytes)))
            fatal("task vrank %d: a one-sided operation from vrank %d on %s reaches %zu bytes at address %p, "
                  "which are not attached to the window there (MPI_Win_attach)",
                  part.owner.vrank(), origin_vrank, window_name(part).c_str(), run.bytes,
                  static_cast<const void*>(at + run.offset));
}

std::string describe_target(const WindowPart& window, int rank) {
    return "rank " + std::to_string(rank) + " (vrank " + std::to_string(window.comm->vrank_of(rank)) + ") of " +
           window_name(window);
}

// A get_accumulate or compare_and_swap from another process: applied atomically to the
// runs at `at`, and answered with what they held before.
void apply_and_answer(WindowPart& part, int origin_vrank, const RmaHeader& header, const std::vector<ByteRun>& runs,
                      const char* payload, char* at) {
    std::size_t bytes = 0;
    for (const ByteRun& run : runs) bytes += run.bytes;
    RmaHeader reply = header_of(RmaKind::get_answer);
    reply.token = header.token;
    reply.data_bytes = bytes;
    std::size_t reply_bytes = 0;
    ByteBuffer message = one_sided_message(reply, {}, &reply_bytes);
    char* before = data_of(message, reply);
    // The operands may sit unaligned in the message; MPI reads them as their type.
    ByteBuffer operands(header.data_bytes), current(bytes);
    std::memcpy(operands.get(), payload, header.data_bytes);
    {
        std::lock_guard<SpinLock> guard(part.access);
        gather_runs(runs, at, before);
        std::memcpy(current.get(), before, bytes);
        if (static_cast<RmaKind>(header.kind) == RmaKind::get_accumulate) {
            combine(operands.get(), current.get(), bytes, Accumulation{kOps[header.op], kElements[header.element]});
            scatter_runs(current.get(), runs, at);
        } else if (std::memcmp(current.get(), operands.get() + bytes, bytes) == 0) {
            scatter_runs(operands.get(), runs, at);
        }
    }
    send_later(part, origin_vrank, message, reply_bytes);
}

// A get from another process, answered with the data of the runs at `at`.
void answer_get(const WindowPart& part, int origin_vrank, const RmaHeader& header, const std::vector<ByteRun>& runs,
                const char* at) {
    RmaHeader reply = header_of(RmaKind::get_answer);
    reply.token = header.token;
    reply.data_bytes = header.data_bytes;
    std::size_t reply_bytes = 0;
    ByteBuffer message = one_sided_message(reply, {}, &reply_bytes);
    gather_runs(runs, at, data_of(message, reply));
    send_later(part, origin_vrank, message, reply_bytes);
}

// The answer to a get (or an atomic that reads the target): its data into the origin buffer.
void take_answer(const RmaHeader& header, const char* payload) {
    PendingGet* pending = PendingGet::of(header.token);
    unpack(payload, header.data_bytes, pending->origin);
    if (pending->held_type != MPI_DATATYPE_NULL) release_datatype(pending->held_type);
    WindowPart* window = pending->window;
    if (pending->answered) pending->answered->complete.store(true, std::memory_order_release);
    delete pending;
    Rank& owner = window->owner;
    window->gets_pending.fetch_sub(1, std::memory_order_release);  // the window may go from here on
    owner.wake();
}

// A lock asked for from another process: granted at once, or queued until it is free.
void ask_for_lock(WindowPart& part, int origin_vrank, const RmaHeader& header) {
    bool granted;
    {
        std::lock_guard<SpinLock> guard(part.access);
        granted = part.lock.acquire(static_cast<LockMode>(header.mode), LockHolder{origin_vrank, header.token});
    }
    if (granted) answer(part, origin_vrank, RmaKind::lock_granted, header.token);
}

// A post or complete notice from member `sender`, counted in the receiving part, whose owner
// may wait for it.
void count_notice(WindowPart& part, std::vector<int>& received, int sender) {
    {
        std::lock_guard<SpinLock> guard(part.access);
        ++received[static_cast<std::size_t>(sender)];
    }
    part.owner.wake();
}

// A notice to member `rank`: counted in its part where it is in this process, else sent.
void notify(WindowPart& window, int rank, RmaKind kind) {
    if (is_local(window, rank)) {
        WindowPart& to = local_target(window, rank);
        count_notice(to, kind == RmaKind::post ? to.posts_received : to.completes_received, window.rank);
        return;
    }
    RmaHeader header = header_of(kind);
    std::size_t bytes = 0;
    ByteBuffer message = one_sided_message(header, {}, &bytes);
    send_from_task(window, rank, message, bytes);
}

// Takes one notice from each of `ranks` if all have come.
bool take_notices(WindowPart& window, std::vector<int>& received, const std::vector<int>& ranks) {
    std::lock_guard<SpinLock> guard(window.access);
    for (int rank : ranks)
        if (received[static_cast<std::size_t>(rank)] == 0) return false;
    for (int rank : ranks) --received[static_cast<std::size_t>(rank)];
    return true;
}

void wait_for_notices(WindowPart& window, std::vector<int>& received, const std::vector<int>& ranks,
                      const std::string& what, const char* call, bamboo_site at) {
    WaitInfo info;
    info.call = call;
    info.site = at;
    info.what = what.c_str();
    window.owner.wait_until(info, [&] { return take_notices(window, received, ranks); });
}

}  // namespace

WindowPart::WindowPart(Rank& owner_task, std::shared_ptr<const Communicator> window_comm, int own_rank, void* memory,
                       MPI_Aint bytes, int unit, bool is_dynamic)
    : owner(owner_task),
      comm(std::move(window_comm)),
      rank(own_rank),
      base(static_cast<char*>(memory)),
      size(bytes),
      disp_unit(unit),
      dynamic(is_dynamic),
      sent(static_cast<std::size_t>(comm->size()), 0),
      unflushed(static_cast<std::size_t>(comm->size()), 0),
      posts_received(static_cast<std::size_t>(comm->size()), 0),
      completes_received(static_cast<std::size_t>(comm->size()), 0) {
    if (trace::on(trace::Kind::rma)) trace::name_context(comm->context(), window_name(*this));  // the window is gone by the end
}

bool WindowPart::covered(const char* first, MPI_Aint bytes) const {
    std::lock_guard<std::mutex> guard(attached_mutex_);
    for (const Attached& range : attached_)
        if (first >= range.first && first + bytes <= range.first + range.bytes) return true;
    return false;
}

bool WindowPart::overlaps_attached(const char* first, MPI_Aint bytes) const {
    std::lock_guard<std::mutex> guard(attached_mutex_);
    for (const Attached& range : attached_)
        if (first < range.first + range.bytes && range.first < first + bytes) return true;
    return false;
}

void WindowPart::attach(const char* first, MPI_Aint bytes) {
    std::lock_guard<std::mutex> guard(attached_mutex_);
    attached_.push_back(Attached{first, bytes});
}

bool WindowPart::detach(const char* first) {
    std::lock_guard<std::mutex> guard(attached_mutex_);
    for (auto range = attached_.begin(); range != attached_.end(); ++range)
        if (range->first == first) {
            attached_.erase(range);
            return true;
        }
    return false;
}

void WindowDirectory::add(WindowPart& part) {
    std::lock_guard<std::mutex> guard(mutex_);
    parts_[key(part.owner.vrank(), part.comm->context())] = &part;
}

void WindowDirectory::remove(const WindowPart& part) {
    std::lock_guard<std::mutex> guard(mutex_);
    parts_.erase(key(part.owner.vrank(), part.comm->context()));
}

WindowPart* WindowDirectory::find(int vrank, int context) const {
    std::lock_guard<std::mutex> guard(mutex_);
    auto found = parts_.find(key(vrank, context));
    return found == parts_.end() ? nullptr : found->second;
}

bool accumulate_op_supported(MPI_Op op) { return index_in(kOps, op) >= 0; }
bool accumulate_element_supported(MPI_Datatype type) { return index_in(kElements, type) >= 0; }

// The origin's side of an operation: counted (--bamboo-stats), recorded (--bamboo-trace); for
// a target in this process, applied at once.
void issued(WindowPart& window, const RmaTarget& target, trace::RmaOp op, std::size_t bytes) {
    bool local = is_local(window, target.rank);
    window.owner.one_sided.count(static_cast<int>(op), local ? MessageKind::same_process : MessageKind::other_process,
                                 bytes);
    if (!trace::on(trace::Kind::rma)) return;
    Worker* worker = Worker::current();
    int target_vrank = window.comm->vrank_of(target.rank), origin_vrank = window.owner.vrank();
    trace::rma_issued(worker ? worker->index() : -1, origin_vrank, target_vrank, window.comm->context(), op, bytes);
    if (local) trace::rma_applied(origin_vrank, target_vrank, window.comm->context(), op, bytes);
}

void put(WindowPart& window, const TypedBuffer& origin, const RmaTarget& target) {
    issued(window, target, trace::RmaOp::put, origin.bytes());
    if (is_local(window, target.rank)) {
        copy(origin, target_buffer(window, target));
        return;
    }
    send_update(window, origin, target, header_of(RmaKind::put));
}

void accumulate(WindowPart& window, const TypedBuffer& origin, const RmaTarget& target, const Accumulation& how) {
    issued(window, target, trace::RmaOp::accumulate, origin.bytes());
    if (is_local(window, target.rank)) {
        TypedBuffer into = target_buffer(window, target);
        std::size_t bytes = origin.bytes();
        ByteBuffer operand(bytes), result(bytes);
        pack(origin, operand.get());
        std::lock_guard<SpinLock> guard(local_target(window, target.rank).access);
        pack(into, result.get());
        combine(operand.get(), result.get(), bytes, how);
        unpack(result.get(), bytes, into);
        return;
    }
    RmaHeader header = header_of(RmaKind::accumulate);
    header.op = index_in(kOps, how.op);
    header.element = index_in(kElements, how.element);
    send_update(window, origin, target, header);
}

void get(WindowPart& window, const TypedBuffer& origin, const RmaTarget& target, Request* answered) {
    issued(window, target, trace::RmaOp::get, origin.bytes());
    if (is_local(window, target.rank)) {
        copy(target_buffer(window, target), origin);
        if (answered) answered->complete.store(true, std::memory_order_release);
        return;
    }
    RmaHeader header = header_of(RmaKind::get);
    header.token = expect_answer(window, origin, answered);
    std::size_t bytes = 0;
    ByteBuffer message = message_to(window, target, header, origin.bytes(), &bytes);
    send_from_task(window, target.rank, message, bytes);
    window.unflushed[static_cast<std::size_t>(target.rank)] = 1;
}

void get_accumulate(WindowPart& window, const TypedBuffer& origin, const TypedBuffer& result, const RmaTarget& target,
                    const Accumulation& how, Request* answered) {
    std::size_t bytes = result.bytes();
    issued(window, target, trace::RmaOp::get_accumulate, bytes);
    ByteBuffer operand(bytes);
    if (how.op != MPI_NO_OP) pack(origin, operand.get());
    if (is_local(window, target.rank)) {
        TypedBuffer into = target_buffer(window, target);
        ByteBuffer current(bytes);
        {
            std::lock_guard<SpinLock> guard(local_target(window, target.rank).access);
            pack(into, current.get());
            unpack(current.get(), bytes, result);
            combine(operand.get(), current.get(), bytes, how);
            unpack(current.get(), bytes, into);
        }
        if (answered) answered->complete.store(true, std::memory_order_release);
        return;
    }
    RmaHeader header = header_of(RmaKind::get_accumulate);
    header.op = index_in(kOps, how.op);
    header.element = index_in(kElements, how.element);
    header.token = expect_answer(window, result, answered);
    send_atomic(window, target, header, operand, bytes);
}

void compare_and_swap(WindowPart& window, const TypedBuffer& origin, const TypedBuffer& compare,
                      const TypedBuffer& result, const RmaTarget& target) {
    std::size_t bytes = result.bytes();
    issued(window, target, trace::RmaOp::compare_and_swap, bytes);
    ByteBuffer operands(2 * bytes);  // the new value, then the one to compare with
    pack(origin, operands.get());
    pack(compare, operands.get() + bytes);
    if (is_local(window, target.rank)) {
        TypedBuffer at = target_buffer(window, target);
        ByteBuffer current(bytes);
        std::lock_guard<SpinLock> guard(local_target(window, target.rank).access);
        pack(at, current.get());
        unpack(current.get(), bytes, result);
        if (std::memcmp(current.get(), operands.get() + bytes, bytes) == 0) unpack(operands.get(), bytes, at);
        return;
    }
    RmaHeader header = header_of(RmaKind::compare_and_swap);
    header.token = expect_answer(window, result, nullptr);
    send_atomic(window, target, header, operands, 2 * bytes);
}

void wait_for_gets(WindowPart& window, const char* call, bamboo_site at) {
    std::string what = "the data of its gets from other processes, on " + window_name(window);
    WaitInfo info;
    info.call = call;
    info.site = at;
    info.what = what.c_str();
    window.owner.wait_until(info, [&window] { return window.gets_pending.load(std::memory_order_acquire) == 0; });
}

void wait_for_applied(WindowPart& window, std::uint64_t expected, const char* call, bamboo_site at) {
    std::string what = std::to_string(expected) + " puts and accumulates from other processes to reach its part of " +
                       window_name(window);
    WaitInfo info;
    info.call = call;
    info.site = at;
    info.what = what.c_str();
    window.owner.wait_until(
        info, [&window, expected] { return window.applied.load(std::memory_order_acquire) >= expected; });
}

void lock_part(WindowPart& window, int target, LockMode mode, const char* call, bamboo_site at) {
    Signal granted(window.owner);
    if (is_local(window, target)) {
        WindowPart& part = local_target(window, target);
        std::lock_guard<SpinLock> guard(part.access);
        if (part.lock.acquire(mode, LockHolder{window.owner.vrank(), granted.token()})) granted.done.store(true);
    } else {
        RmaHeader header = header_of(RmaKind::lock);
        header.token = granted.token();
        header.mode = static_cast<std::int32_t>(mode);
        std::size_t bytes = 0;
        ByteBuffer message = one_sided_message(header, {}, &bytes);
        send_from_task(window, target, message, bytes);
    }
    if (!granted.done.load(std::memory_order_acquire))
        wait_for_signal(window, granted, "the lock of " + describe_target(window, target), call, at);
    window.locks_held[target] = mode;
}

void flush_part(WindowPart& window, int target, const char* call, bamboo_site at) {
    if (is_local(window, target)) return;  // done in memory already
    if (!window.unflushed[static_cast<std::size_t>(target)]) return;
    window.unflushed[static_cast<std::size_t>(target)] = 0;
    Signal done(window.owner);
    RmaHeader header = header_of(RmaKind::flush);
    header.token = done.token();
    std::size_t bytes = 0;
    ByteBuffer message = one_sided_message(header, {}, &bytes);
    send_from_task(window, target, message, bytes);
    wait_for_signal(window, done, "its operations to complete at " + describe_target(window, target), call, at);
}

void unlock_part(WindowPart& window, int target, LockMode mode, const char* call, bamboo_site at) {
    window.locks_held.erase(target);
    if (is_local(window, target)) {
        release_lock(local_target(window, target), mode);
        return;
    }
    window.unflushed[static_cast<std::size_t>(target)] = 0;
    Signal done(window.owner);
    RmaHeader header = header_of(RmaKind::unlock);
    header.token = done.token();
    header.mode = static_cast<std::int32_t>(mode);
    std::size_t bytes = 0;
    ByteBuffer message = one_sided_message(header, {}, &bytes);
    send_from_task(window, target, message, bytes);
    wait_for_signal(window, done, "its operations to complete at " + describe_target(window, target) +
                                      " and its lock to be released", call, at);
}

void notify_post(WindowPart& window, const std::vector<int>& ranks) {
    for (int rank : ranks) notify(window, rank, RmaKind::post);
}

void wait_for_posts(WindowPart& window, const std::vector<int>& ranks, const char* call, bamboo_site at) {
    wait_for_notices(window, window.posts_received, ranks,
                     "MPI_Win_post from each target of its MPI_Win_start group on " + window_name(window), call, at);
}

void notify_complete(WindowPart& window, const std::vector<int>& ranks, const char* call, bamboo_site at) {
    wait_for_gets(window, call, at);
    for (int rank : ranks) notify(window, rank, RmaKind::complete);
}

void wait_for_completes(WindowPart& window, const std::vector<int>& ranks, const char* call, bamboo_site at) {
    wait_for_notices(window, window.completes_received, ranks,
                     "MPI_Win_complete from each origin of its MPI_Win_post group on " + window_name(window), call, at);
}

bool take_completes(WindowPart& window, const std::vector<int>& ranks) {
    return take_notices(window, window.completes_received, ranks);
}

// --bamboo-trace: an operation from another process applied to `part` (the bytes its origin
// counted; a compare-and-swap carries two elements for one).
void trace_applied(const WindowPart& part, int origin_vrank, const RmaHeader& header) {
    std::optional<trace::RmaOp> op;
    std::size_t bytes = header.data_bytes;
    switch (static_cast<RmaKind>(header.kind)) {
        case RmaKind::put: op = trace::RmaOp::put; break;
        case RmaKind::accumulate: op = trace::RmaOp::accumulate; break;
        case RmaKind::get: op = trace::RmaOp::get; break;
        case RmaKind::get_accumulate: op = trace::RmaOp::get_accumulate; break;
        case RmaKind::compare_and_swap: op = trace::RmaOp::compare_and_swap, bytes /= 2; break;
        default: return;  // answers, notices, locks: the synchronization, not operations
    }
    trace::rma_applied(origin_vrank, part.owner.vrank(), part.comm->context(), *op, bytes);
}

void receive_one_sided(Rank& dest, const Envelope& envelope, const char* data, std::size_t bytes) {
    int context = -1 - envelope.comm;
    WindowPart* part = dest.routes().windows.find(dest.vrank(), context);
    if (!part)
        fatal("task vrank %d received a one-sided message for a window it does not have (context %d)", dest.vrank(),
              context);
    RmaHeader header;
    if (bytes < sizeof header) fatal("a one-sided message of %zu bytes is too short", bytes);
    std::memcpy(&header, data, sizeof header);
    std::vector<ByteRun> runs(header.run_count);
    if (!runs.empty()) std::memcpy(runs.data(), data + sizeof header, runs.size() * sizeof(ByteRun));
    const char* payload = data + sizeof header + runs.size() * sizeof(ByteRun);
    char* at = part->address(header.offset);
    int origin_vrank = part->comm->vrank_of(envelope.source);
    if (part->dynamic && !runs.empty()) check_attached(*part, origin_vrank, runs, at);
    if (trace::on(trace::Kind::rma)) trace_applied(*part, origin_vrank, header);
    switch (static_cast<RmaKind>(header.kind)) {
        case RmaKind::put:
            scatter_runs(payload, runs, at);
            applied_one(*part);
            return;
        case RmaKind::accumulate: {
            Accumulation how{kOps[header.op], kElements[header.element]};
            ByteBuffer current(header.data_bytes);
            // The operand may sit unaligned in the message; MPI reads it as its type.
            ByteBuffer operand(header.data_bytes);
            std::memcpy(operand.get(), payload, header.data_bytes);
            {
                std::lock_guard<SpinLock> guard(part->access);
                gather_runs(runs, at, current.get());
                combine(operand.get(), current.get(), header.data_bytes, how);
                scatter_runs(current.get(), runs, at);
            }
            applied_one(*part);
            return;
        }
        case RmaKind::get:
            answer_get(*part, origin_vrank, header, runs, at);
            return;
        case RmaKind::get_accumulate:
        case RmaKind::compare_and_swap:
            apply_and_answer(*part, origin_vrank, header, runs, payload, at);
            applied_one(*part);
            return;
        case RmaKind::post:
            count_notice(*part, part->posts_received, envelope.source);
            return;
        case RmaKind::complete:
            count_notice(*part, part->completes_received, envelope.source);
            return;
        case RmaKind::get_answer:
            take_answer(header, payload);
            return;
        case RmaKind::lock:
            ask_for_lock(*part, origin_vrank, header);
            return;
        case RmaKind::unlock:
            release_lock(*part, static_cast<LockMode>(header.mode));
            answer(*part, origin_vrank, RmaKind::done, header.token);
            return;
        case RmaKind::flush:
            answer(*part, origin_vrank, RmaKind::done, header.token);
            return;
        case RmaKind::lock_granted:
        case RmaKind::done:
            Signal::of(header.token).raise();
            return;
    }
    fatal("a one-sided message of unknown kind %u", header.kind);
}

}  // namespace bamboo
