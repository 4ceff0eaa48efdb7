// Synchronization of one-sided operations: active target (MPI_Win_fence; MPI_Win_post,
// MPI_Win_start, MPI_Win_complete, MPI_Win_wait, MPI_Win_test) and passive target
// (MPI_Win_lock, MPI_Win_unlock, their _all forms, MPI_Win_flush and MPI_Win_flush_local).
//
// A fence completes every operation of the epoch: the task's gets from other processes are
// answered, and the puts and accumulates other processes sent to its part are applied, as
// many as the members' counts say (an alltoall of them); a barrier then tells every member
// that all parts are complete, including those reached in memory by tasks of this process.
// A lock's waits suspend the task; the target task is never asked to do anything.
//
// A flush or unlock of a target in this process completes at once, in memory. A program that
// waits for another task by reading a window in a loop (get or fetch, then flush or unlock:
// MPI's spin-wait on one-sided data) would then never let that task run on this worker; so
// each flush and unlock lets the worker's other tasks run first, as a test that finds nothing
// does (mpi/requests.hpp).
#include <mpi.h>

#include <atomic>
#include <cstdint>
#include <vector>

#include "bamboo.h"
#include "collectives/algorithms.hpp"
#include "collectives/channel.hpp"
#include "messaging/one_sided.hpp"
#include "messaging/rank.hpp"
#include "mpi/api.hpp"
#include "mpi/communicators.hpp"
#include "mpi/requests.hpp"
#include "mpi/windows.hpp"
#include "util/errors.hpp"

namespace bamboo {

void complete_operations(Rank& self, WindowEntry& window, const char* call, bamboo_site at) {
    WindowPart& part = *window.part;
    wait_for_gets(part, call, at);
    std::vector<std::uint64_t> incoming(part.sent.size());
    CollectiveChannel ch(self, CommView{window.comm.get(), window.rank}, call, at);
    collectives::alltoall(ch, reinterpret_cast<const char*>(part.sent.data()), reinterpret_cast<char*>(incoming.data()),
                          sizeof(std::uint64_t));
    std::uint64_t expected = 0;
    for (std::uint64_t count : incoming) expected += count;  // counted since the window was made
    wait_for_applied(part, expected, call, at);
}

namespace {

void check_target_rank(Rank& self, const WindowEntry& window, int rank, const char* call, bamboo_site at) {
    int size = window.comm->size();
    if (rank < 0 || rank >= size)
        call_error(MPI_ERR_RANK, self.vrank(), call, at, "target rank %d is out of range (0..%d)", rank, size - 1);
}

void lock_one(Rank& self, WindowEntry& window, LockMode mode, int rank, const char* call, bamboo_site at) {
    if (window.part->locks_held.count(rank))
        call_error(MPI_ERR_RMA_SYNC, self.vrank(), call, at, "the task holds the lock of target rank %d already", rank);
    lock_part(*window.part, rank, mode, call, at);
}

// The ranks in the window of the members of `group` (MPI_Win_post, MPI_Win_start).
std::vector<int> window_ranks(Rank& self, const WindowEntry& window, MPI_Group group, const char* call, bamboo_site at) {
    const Group& members = group_of(self, group, call, at);
    std::vector<int> ranks = ranks_in_group(window.comm->vranks(), members);
    for (std::size_t i = 0; i < ranks.size(); ++i)
        if (ranks[i] == MPI_UNDEFINED)
            call_error(MPI_ERR_GROUP, self.vrank(), call, at, "member %zu of the group (vrank %d) is not in the window",
                       i, members[i]);
    return ranks;
}

// The exposure epoch MPI_Win_post opened, ended by MPI_Win_wait or a successful MPI_Win_test.
const std::vector<int>& exposure_group(Rank& self, WindowPart& part, const char* call, bamboo_site at) {
    if (!part.exposure_group)
        call_error(MPI_ERR_RMA_SYNC, self.vrank(), call, at, "no exposure epoch is open: MPI_Win_post comes first");
    return *part.exposure_group;
}

}  // namespace
}  // namespace bamboo

using namespace bamboo;

extern "C" {

int bamboo_win_fence(bamboo_site at, int assert_, MPI_Win win) {
    const char* call = "MPI_Win_fence";
    return checked_call(WindowHandle{win}, [&]() -> int {
        Rank& self = calling_rank(call, at);
        WindowEntry& window = window_of(self, win, call, at);
        // MPI_MODE_NOPRECEDE: no operation of any member precedes this fence (the members all
        // say so alike), so there is nothing to complete. The other hints change nothing here.
        if (!(assert_ & MPI_MODE_NOPRECEDE)) complete_operations(self, window, call, at);
        CollectiveChannel ch(self, CommView{window.comm.get(), window.rank}, call, at);
        collectives::barrier(ch);
        return MPI_SUCCESS;
    });
}

int bamboo_win_lock(bamboo_site at, int lock_type, int rank, int, MPI_Win win) {
    const char* call = "MPI_Win_lock";
    return checked_call(WindowHandle{win}, [&]() -> int {
        Rank& self = calling_rank(call, at);
        WindowEntry& window = window_of(self, win, call, at);
        if (lock_type != MPI_LOCK_EXCLUSIVE && lock_type != MPI_LOCK_SHARED)
            call_error(MPI_ERR_LOCKTYPE, self.vrank(), call, at,
                       "the lock type %d is neither MPI_LOCK_EXCLUSIVE nor MPI_LOCK_SHARED", lock_type);
        if (rank == MPI_PROC_NULL) return MPI_SUCCESS;
        check_target_rank(self, window, rank, call, at);
        lock_one(self, window, lock_type == MPI_LOCK_EXCLUSIVE ? LockMode::exclusive : LockMode::shared, rank, call,
                 at);
        return MPI_SUCCESS;
    });
}

int bamboo_win_unlock(bamboo_site at, int rank, MPI_Win win) {
    const char* call = "MPI_Win_unlock";
    return checked_call(WindowHandle{win}, [&]() -> int {
        Rank& self = calling_rank(call, at);
        WindowEntry& window = window_of(self, win, call, at);
        if (rank == MPI_PROC_NULL) return MPI_SUCCESS;
        check_target_rank(self, window, rank, call, at);
        auto held = window.part->locks_held.find(rank);
        if (held == window.part->locks_held.end())
            call_error(MPI_ERR_RMA_SYNC, self.vrank(), call, at, "the task does not hold the lock of target rank %d",
                       rank);
        unlock_part(*window.part, rank, held->second, call, at);
        poll_again_later(self);
        return MPI_SUCCESS;
    });
}

int bamboo_win_lock_all(bamboo_site at, int, MPI_Win win) {
    const char* call = "MPI_Win_lock_all";
    return checked_call(WindowHandle{win}, [&]() -> int {
        Rank& self = calling_rank(call, at);
        WindowEntry& window = window_of(self, win, call, at);
        for (int rank = 0; rank < window.comm->size(); ++rank) lock_one(self, window, LockMode::shared, rank, call, at);
        return MPI_SUCCESS;
    });
}

int bamboo_win_unlock_all(bamboo_site at, MPI_Win win) {
    const char* call = "MPI_Win_unlock_all";
    return checked_call(WindowHandle{win}, [&]() -> int {
        Rank& self = calling_rank(call, at);
        WindowEntry& window = window_of(self, win, call, at);
        if (static_cast<int>(window.part->locks_held.size()) != window.comm->size())
            call_error(MPI_ERR_RMA_SYNC, self.vrank(), call, at, "the task holds no lock of MPI_Win_lock_all");
        for (int rank = 0; rank < window.comm->size(); ++rank)
            unlock_part(*window.part, rank, window.part->locks_held.at(rank), call, at);
        poll_again_later(self);
        return MPI_SUCCESS;
    });
}

int bamboo_win_flush(bamboo_site at, int rank, MPI_Win win) {
    const char* call = "MPI_Win_flush";
    return checked_call(WindowHandle{win}, [&]() -> int {
        Rank& self = calling_rank(call, at);
        WindowEntry& window = window_of(self, win, call, at);
        if (rank == MPI_PROC_NULL) return MPI_SUCCESS;
        check_target_rank(self, window, rank, call, at);
        flush_part(*window.part, rank, call, at);  // its answer comes after those of the gets before it
        poll_again_later(self);
        return MPI_SUCCESS;
    });
}

// Local completion: puts and accumulates copied their origin data when called, so only the
// answers of gets (and of the atomics that read the target) are left to wait for, from any
// target (more than MPI_Win_flush_local asks, never less).
int bamboo_win_flush_local(bamboo_site at, int rank, MPI_Win win) {
    const char* call = "MPI_Win_flush_local";
    return checked_call(WindowHandle{win}, [&]() -> int {
        Rank& self = calling_rank(call, at);
        WindowEntry& window = window_of(self, win, call, at);
        if (rank == MPI_PROC_NULL) return MPI_SUCCESS;
        check_target_rank(self, window, rank, call, at);
        wait_for_gets(*window.part, call, at);
        poll_again_later(self);
        return MPI_SUCCESS;
    });
}

int bamboo_win_flush_local_all(bamboo_site at, MPI_Win win) {
    const char* call = "MPI_Win_flush_local_all";
    return checked_call(WindowHandle{win}, [&]() -> int {
        Rank& self = calling_rank(call, at);
        wait_for_gets(*window_of(self, win, call, at).part, call, at);
        poll_again_later(self);
        return MPI_SUCCESS;
    });
}

int bamboo_win_post(bamboo_site at, MPI_Group group, int, MPI_Win win) {
    const char* call = "MPI_Win_post";
    return checked_call(WindowHandle{win}, [&]() -> int {
        Rank& self = calling_rank(call, at);
        WindowEntry& window = window_of(self, win, call, at);
        if (window.part->exposure_group)
            call_error(MPI_ERR_RMA_SYNC, self.vrank(), call, at, "an exposure epoch is open already (MPI_Win_post)");
        window.part->exposure_group = window_ranks(self, window, group, call, at);
        notify_post(*window.part, *window.part->exposure_group);
        return MPI_SUCCESS;
    });
}

int bamboo_win_start(bamboo_site at, MPI_Group group, int, MPI_Win win) {
    const char* call = "MPI_Win_start";
    return checked_call(WindowHandle{win}, [&]() -> int {
        Rank& self = calling_rank(call, at);
        WindowEntry& window = window_of(self, win, call, at);
        if (window.part->access_group)
            call_error(MPI_ERR_RMA_SYNC, self.vrank(), call, at, "an access epoch is open already (MPI_Win_start)");
        std::vector<int> targets = window_ranks(self, window, group, call, at);
        wait_for_posts(*window.part, targets, call, at);
        window.part->access_group = std::move(targets);
        return MPI_SUCCESS;
    });
}

int bamboo_win_complete(bamboo_site at, MPI_Win win) {
    const char* call = "MPI_Win_complete";
    return checked_call(WindowHandle{win}, [&]() -> int {
        Rank& self = calling_rank(call, at);
        WindowPart& part = *window_of(self, win, call, at).part;
        if (!part.access_group)
            call_error(MPI_ERR_RMA_SYNC, self.vrank(), call, at, "no access epoch is open: MPI_Win_start comes first");
        notify_complete(part, *part.access_group, call, at);
        part.access_group.reset();
        return MPI_SUCCESS;
    });
}

int bamboo_win_wait(bamboo_site at, MPI_Win win) {
    const char* call = "MPI_Win_wait";
    return checked_call(WindowHandle{win}, [&]() -> int {
        Rank& self = calling_rank(call, at);
        WindowPart& part = *window_of(self, win, call, at).part;
        wait_for_completes(part, exposure_group(self, part, call, at), call, at);
        part.exposure_group.reset();
        return MPI_SUCCESS;
    });
}

int bamboo_win_test(bamboo_site at, MPI_Win win, int* flag) {
    const char* call = "MPI_Win_test";
    return checked_call(WindowHandle{win}, [&]() -> int {
        Rank& self = calling_rank(call, at);
        WindowPart& part = *window_of(self, win, call, at).part;
        check_not_null(self, flag, "flag", call, at);
        *flag = take_completes(part, exposure_group(self, part, call, at));
        if (*flag) part.exposure_group.reset();
        else poll_again_later(self);
        return MPI_SUCCESS;
    });
}

// Operations from tasks of this process are done in memory by their call, and those from
// other processes by this process's delivery before it counts or answers them: the task sees
// them once it has learnt they are done (a flush's answer, a message, a fence). What is left
// is the memory ordering of that learning, which a full fence gives.
int bamboo_win_sync(bamboo_site at, MPI_Win win) {
    const char* call = "MPI_Win_sync";
    return checked_call(WindowHandle{win}, [&]() -> int {
        Rank& self = calling_rank(call, at);
        window_of(self, win, call, at);
        std::atomic_thread_fence(std::memory_order_seq_cst);
        return MPI_SUCCESS;
    });
}

int bamboo_win_flush_all(bamboo_site at, MPI_Win win) {
    const char* call = "MPI_Win_flush_all";
    return checked_call(WindowHandle{win}, [&]() -> int {
        Rank& self = calling_rank(call, at);
        WindowEntry& window = window_of(self, win, call, at);
        for (int rank = 0; rank < window.comm->size(); ++rank) flush_part(*window.part, rank, call, at);
        poll_again_later(self);
        return MPI_SUCCESS;
    });
}

}  // extern "C"
