// One-sided communication over virtual ranks: each member task's part of a window, and
// MPI_Put, MPI_Get, MPI_Accumulate and the passive-target lock between parts.
//
// A target in this process is reached in memory: the origin task copies into or out of the
// target task's part itself. A target in another process is sent a one-sided message over
// the ProcessLink (messaging/routes.hpp), which the comm engine delivers like any other;
// delivery (messaging/delivery.cpp) knows it by its context, the window's negated (never a
// communicator's), and hands it to receive_one_sided(), which applies it to the target's
// memory whatever the target task is doing. The message names the target's bytes as runs
// (messaging/byte_runs.hpp) worked out at the origin from the target datatype, which the
// target process need not know. A get is answered with its data, a lock with its grant, a
// flush or unlock with an acknowledgement; messages from one task to another keep their
// order, so the acknowledgement tells that everything the origin sent before it is applied.
//
// A dynamic window (MPI_Win_create_dynamic) has no base: a displacement is an address
// (MPI_Get_address) in the target's process, inside memory the target attached; the target's
// process checks that before it applies an operation from another process.
//
// Completion at a fence: each part counts the puts and accumulates it sent to members in
// other processes, by target, and those from other processes applied to it; the fence
// (mpi/window_epochs.cpp) exchanges the first so that each target knows how many of the
// second to wait for.
//
// General active target (MPI_Win_post, start, complete, wait): a target's post sends each
// origin of its group a notice, which the origin's start waits for; an origin's complete
// sends each target of its group a notice after its operations, which, in order behind them,
// tells the target's wait that they are applied. Notices are counted by sender in the
// receiving part, so one that comes before the epoch that waits for it is kept.
#pragma once

#include <mpi.h>

#include <atomic>
#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "bamboo.h"
#include "communicators/communicator.hpp"
#include "messaging/byte_runs.hpp"
#include "messaging/datatype.hpp"
#include "messaging/mailbox.hpp"
#include "messaging/window_lock.hpp"
#include "util/spin.hpp"

namespace bamboo {

class Rank;
struct Request;

// A member's part as every other member needs to know it (exchanged when the window is made).
struct PartShape {
    MPI_Aint size = 0;
    int disp_unit = 1;
};

// One task's part of a window, shared with the tasks and the delivery of its process.
struct WindowPart {
    WindowPart(Rank& owner, std::shared_ptr<const Communicator> comm, int rank, void* base, MPI_Aint size,
               int disp_unit, bool dynamic);

    Rank& owner;
    const std::shared_ptr<const Communicator> comm;  // the window's own (a duplicate of the one given)
    const int rank;                                   // the owner's in `comm`
    char* const base;
    const MPI_Aint size;
    const int disp_unit;
    const bool dynamic;
    // Set up while the window is made, read-only after: every member's shape, and the parts of
    // the members in this process (nullptr for the others), by rank in `comm`.
    std::vector<PartShape> shapes;
    std::vector<WindowPart*> local_parts;

    // The owner's side as an origin (its task only): puts and accumulates sent to members of
    // other processes, by target rank, since the window was made; the locks it holds.
    std::vector<std::uint64_t> sent;
    // By target: whether it was sent an operation since the last flush or unlock of it, which
    // a flush must then wait for (a flush of nothing is over at once, as MPI has it).
    std::vector<char> unflushed;
    std::unordered_map<int, LockMode> locks_held;
    // Its general active target epochs, while open: the targets of its MPI_Win_start, the
    // origins of its MPI_Win_post (ranks).
    std::optional<std::vector<int>> access_group, exposure_group;
    // Its gets from other processes not yet answered (the answer's delivery counts down).
    std::atomic<int> gets_pending{0};

    // The target's side: puts and accumulates from other processes applied so far.
    std::atomic<std::uint64_t> applied{0};
    // General active target, under `access`: by member rank, the post notices (from targets)
    // and complete notices (from origins) received and not yet waited for.
    std::vector<int> posts_received, completes_received;
    // Accumulates apply one at a time (MPI makes them atomic per element); the lock queue.
    SpinLock access;
    WindowLock lock;

    // Where an operation `offset` bytes from the part's base lands.
    char* address(MPI_Aint offset) const { return dynamic ? reinterpret_cast<char*>(offset) : base + offset; }

    // A dynamic part's memory: attached and detached by the owner, read by delivery too.
    struct Attached {
        const char* first;
        MPI_Aint bytes;
    };
    // Whether [first, first + bytes) lies inside one attached range; whether it meets one.
    bool covered(const char* first, MPI_Aint bytes) const;
    bool overlaps_attached(const char* first, MPI_Aint bytes) const;
    void attach(const char* first, MPI_Aint bytes);
    bool detach(const char* first);  // false: nothing attached starts there

private:
    mutable std::mutex attached_mutex_;
    std::vector<Attached> attached_;
};

// The window parts of this process's tasks, found by delivery from a one-sided message's
// destination task and window context.
class WindowDirectory {
public:
    void add(WindowPart& part);
    void remove(const WindowPart& part);
    WindowPart* find(int vrank, int context) const;

private:
    static std::uint64_t key(int vrank, int context) {
        return static_cast<std::uint64_t>(static_cast<std::uint32_t>(vrank)) << 32 | static_cast<std::uint32_t>(context);
    }
    mutable std::mutex mutex_;
    std::unordered_map<std::uint64_t, WindowPart*> parts_;
};

// A one-sided message's context: the window's, negated, which no communicator's ever is.
inline int one_sided_context(int window_context) { return -1 - window_context; }
inline bool is_one_sided(const Envelope& envelope) { return envelope.comm < 0; }

// Where an operation lands: `count` elements of `type` at displacement `disp` (in the
// target's disp_unit) in the part of rank `rank`.
struct RmaTarget {
    int rank = 0;
    MPI_Aint disp = 0;
    int count = 0;
    MPI_Datatype type = MPI_DATATYPE_NULL;
    TypeLayout layout;

    // Bytes from the target part's base to the target buffer's address.
    MPI_Aint byte_offset(const WindowPart& window) const {
        return disp * window.shapes[static_cast<std::size_t>(rank)].disp_unit;
    }
};

// The reduction of an accumulate: a predefined operation (MPI_REPLACE included) over the
// predefined type both datatypes are made of.
struct Accumulation {
    MPI_Op op = MPI_OP_NULL;
    MPI_Datatype element = MPI_DATATYPE_NULL;
};

// Whether an accumulate may use `op` / `type` as its element (predefined ones only, which
// every process names alike).
bool accumulate_op_supported(MPI_Op op);
bool accumulate_element_supported(MPI_Datatype type);

// The running task `window.owner` moves `origin` to or from `target`, or accumulates into it.
// Within the process it is done when the call returns; to another process a put or an
// accumulate is sent (the data copied), and a get's origin buffer is filled once its answer
// arrives (gets_pending).
void put(WindowPart& window, const TypedBuffer& origin, const RmaTarget& target);
// `answered`, if given, completes once the data is in (MPI_Rget, MPI_Rget_accumulate).
void get(WindowPart& window, const TypedBuffer& origin, const RmaTarget& target, Request* answered = nullptr);
void accumulate(WindowPart& window, const TypedBuffer& origin, const RmaTarget& target, const Accumulation& how);
// Atomically: `result` gets the target's data as it was, and the target `origin` combined in
// (MPI_Get_accumulate, MPI_Fetch_and_op; `origin` is not read for MPI_NO_OP).
void get_accumulate(WindowPart& window, const TypedBuffer& origin, const TypedBuffer& result, const RmaTarget& target,
                    const Accumulation& how, Request* answered = nullptr);
// Atomically, on one element: `result` gets the target's, which becomes `origin`'s if it
// equals `compare`'s (MPI_Compare_and_swap).
void compare_and_swap(WindowPart& window, const TypedBuffer& origin, const TypedBuffer& compare,
                      const TypedBuffer& result, const RmaTarget& target);

// The running owner waits, in `call` at `at`: until its gets are answered; until `expected`
// puts and accumulates from other processes have been applied to its part.
void wait_for_gets(WindowPart& window, const char* call, bamboo_site at);
void wait_for_applied(WindowPart& window, std::uint64_t expected, const char* call, bamboo_site at);

// Passive target (the running owner): takes the lock of `target`'s part, waiting for it;
// waits until everything it sent to `target` is applied (flush); the same, then lets go of
// the lock (unlock).
void lock_part(WindowPart& window, int target, LockMode mode, const char* call, bamboo_site at);
void flush_part(WindowPart& window, int target, const char* call, bamboo_site at);
void unlock_part(WindowPart& window, int target, LockMode mode, const char* call, bamboo_site at);

// General active target, by the running owner: a post notice to each origin of `ranks`; the
// wait for one from each target of `ranks`; a complete notice to each target of `ranks`
// (after its gets are answered); the wait for one from each origin of `ranks`, or (test)
// whether they are all there, taking them if so.
void notify_post(WindowPart& window, const std::vector<int>& ranks);
void wait_for_posts(WindowPart& window, const std::vector<int>& ranks, const char* call, bamboo_site at);
void notify_complete(WindowPart& window, const std::vector<int>& ranks, const char* call, bamboo_site at);
void wait_for_completes(WindowPart& window, const std::vector<int>& ranks, const char* call, bamboo_site at);
bool take_completes(WindowPart& window, const std::vector<int>& ranks);

// Delivery of a one-sided message to the task `dest` of this process (from the comm engine).
void receive_one_sided(Rank& dest, const Envelope& envelope, const char* data, std::size_t bytes);

}  // namespace bamboo
