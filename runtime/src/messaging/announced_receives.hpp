// Receives that a firing rule announces whole, buffer and all (bamboo_expect_receive), and
// that the rank posts at its evaluation point rather than when its receive calls come.
//
// Behind a firing rule a message normally arrives before its receive is posted: it is
// buffered as unexpected, and the receive copies it once more. Where the window of an
// evaluation point holds nothing but receives and waits, nothing the task runs between the
// evaluation point and its receive calls can touch their buffers, so the receives may be
// posted at the evaluation point, in the window's order, which is MPI's order for them. A
// message then lands in its receive buffer as it arrives: from another process without a
// staging copy (a payload that travels apart from its header goes straight into the buffer;
// one that rides in a control message is copied once, out of the slot), from a task of this
// process with one copy (the send finds its receive posted). The task waits at the evaluation
// point until all of them are complete; its receive calls then take the posted receives over,
// in order, and find them done.
//
// A receive whose buffer shares a byte with an earlier one of the window (messaging/
// shared_bytes.hpp) is not posted ahead (its message could overwrite what the window reads
// of the earlier one before it receives); nor is any receive of a window whose rule also
// announces messages without their buffers. Those windows' receives are announced as
// messages only, and are posted by their calls.
#pragma once

#include <mpi.h>

#include <atomic>
#include <cstddef>
#include <vector>

#include "bamboo.h"
#include "communicators/communicator.hpp"
#include "messaging/datatype.hpp"
#include "messaging/mailbox.hpp"
#include "messaging/shared_bytes.hpp"

namespace bamboo {

class AnnouncedReceives {
public:
    // One receive as its call will name it, and resolved.
    struct Receive {
        void* buf = nullptr;
        int count = 0;
        MPI_Datatype type = MPI_DATATYPE_NULL;
        int source = 0;
        int tag = 0;
        MPI_Comm comm = MPI_COMM_NULL;
        const Communicator* communicator = nullptr;
        Pattern pattern{};
        TypedBuffer target;
    };

    // Before the evaluation point: one more receive of the window, in order. False (and it is
    // not kept) where its buffer shares a byte with one announced before it, or the window
    // has given up.
    bool announce(const Receive& receive);
    // Whether `data` may share bytes with a receive announced for the coming evaluation point.
    bool overlaps(const TypedBuffer& data);
    // This window's receives are posted by their calls after all: returns those announced
    // so far (to be announced as messages), and refuses the rest of the window's.
    std::vector<Receive> give_up();
    // Whether the rank has any: announced, given up, or posted at the last evaluation point.
    bool in_use() const { return !announced_.empty() || given_up_ || !posted_.empty(); }
    // The receives announced for the coming evaluation point, not yet posted.
    const std::vector<Receive>& announced() const { return announced_; }

    // At the evaluation point: the announced receives become the window's, all waited for,
    // which the caller then posts in order (setting handles()[i] for each) and its receive
    // calls take over. Whatever the last window's calls did not take over must have been
    // reported first.
    const std::vector<Receive>& begin_posting(bamboo_site at);
    MPI_Request* handles() { return handles_.data(); }
    // A posted receive completed (any thread); true if it was the last the rank waits for.
    bool completed_one() { return waiting_.fetch_sub(1) == 1; }
    bool all_complete() const { return waiting_.load() == 0; }

    // The posted receives the window's calls have not taken over yet.
    bool any_posted() const { return next_ < posted_.size(); }
    const Receive& next_posted() const { return posted_[next_]; }
    // The next posted receive, taken over by a call that names it; its handle.
    MPI_Request take_next() { return handles_[next_++]; }
    // Ends the job where the window made fewer receive calls than its rule announced (before
    // the next evaluation point, and when the task ends): the translator and the program
    // disagree, and a message may already have landed in a buffer the program reads.
    void check_all_taken(int vrank) const;
    // Ends the job for a receive call `call` at `at` that is not the next one announced.
    [[noreturn]] void mismatch(int vrank, const char* call, bamboo_site at) const;
    // Whether a receive call names `r` exactly as announced.
    static bool names(const Receive& r, const void* buf, int count, MPI_Datatype type, int source, int tag,
                      MPI_Comm comm) {
        return r.buf == buf && r.count == count && r.type == type && r.source == source && r.tag == tag &&
               r.comm == comm;
    }

private:
    std::vector<Receive> announced_;
    bool given_up_ = false;
    std::vector<Receive> posted_;
    std::vector<MPI_Request> handles_;  // of posted_
    bamboo_site posted_at_{};          // the evaluation point
    std::size_t next_ = 0;
    std::atomic<int> waiting_{0};
    SharedBytes shared_bytes_;
};

}  // namespace bamboo
