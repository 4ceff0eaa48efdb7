// What the translator's generated code calls: a window's firing rule (bamboo_expect for a
// receive, bamboo_expect_collective for a collective's first receives, then bamboo_fire, the
// evaluation point), send blocks (bamboo_send_block_begin/_begin_lending/_end) and priorities.
#include <mpi.h>

#include <mutex>

#include "bamboo.h"
#include "collectives/algorithms.hpp"
#include "collectives/reduction.hpp"
#include "messaging/mailbox.hpp"
#include "messaging/rank.hpp"
#include "messaging/send_receive.hpp"
#include "mpi/api.hpp"
#include "util/errors.hpp"

using namespace bamboo;

namespace {

// A window's receives announced whole go back to being announced as messages only; their
// calls post them.
void announce_as_messages(Rank& self) {
    for (const AnnouncedReceives::Receive& r : self.announced.give_up())
        if (r.source != MPI_PROC_NULL) expect_message(self, r.pattern);
}

// At the evaluation point: the last window's receives were all taken over, and this window's
// announced whole are posted, in its order, and the task waits until all are complete
// (messaging/announced_receives.hpp).
void post_announced_receives(Rank& self, bamboo_site at) {
    AnnouncedReceives& announced = self.announced;
    announced.check_all_taken(self.vrank());
    if (!announced.announced().empty()) {
        if (!self.pending_rule.empty()) announce_as_messages(self);  // a mixed rule: messages only
        else self.take_back_lent_into_announced();
    }
    const std::vector<AnnouncedReceives::Receive>& receives = announced.begin_posting(at);
    if (receives.empty()) return;
    for (std::size_t i = 0; i < receives.size(); ++i) {
        const AnnouncedReceives::Receive& r = receives[i];
        Request* request = self.requests().allocate(&announced.handles()[i]);
        request->errors_to = r.comm;
        request->announced = r.source != MPI_PROC_NULL;  // which completes at once, uncounted
        start_receive(self, *r.communicator, r.pattern, r.target, *request, "a receive of the firing rule", at);
        if (r.source == MPI_PROC_NULL) announced.completed_one();
    }
    WaitInfo info;
    info.site = at;
    info.handles = announced.handles();
    info.handle_count = static_cast<int>(receives.size());
    self.wait_until(info, [&announced] { return announced.all_complete(); });
}

}  // namespace

extern "C" {

void bamboo_expect_receive(void* buf, int count, MPI_Datatype type, int source, int tag, MPI_Comm comm) {
    Rank& self = calling_rank("bamboo_expect_receive", kNoSite);
    const char* call = "bamboo_expect_receive";
    AnnouncedReceives::Receive r;
    r.buf = buf;
    r.count = count;
    r.type = type;
    r.source = source;
    r.tag = tag;
    r.comm = comm;
    try {
        CommView view = resolve_comm(self, comm, call, kNoSite);
        r.communicator = view.comm;
        r.pattern = receive_pattern(self, view, source, tag, call, kNoSite);
        r.target = typed_buffer(self, buf, count, type, call, kNoSite);
    } catch (const CallError&) {
        // The receive reports its arguments, under its communicator's handler, when its call
        // posts it.
        announce_as_messages(self);
        return;
    }
    if (self.announced.announce(r)) return;
    announce_as_messages(self);
    if (source != MPI_PROC_NULL) expect_message(self, r.pattern);
}

void bamboo_expect(int source, int tag, MPI_Comm comm) {
    Rank& self = calling_rank("bamboo_expect", kNoSite);
    if (source == MPI_PROC_NULL) return;
    try {
        expect_message(self, receive_pattern(self, resolve_comm(self, comm, "bamboo_expect", kNoSite),
                                             source, tag, "bamboo_expect", kNoSite));
    } catch (const CallError&) {
        // Expects nothing: the receive reports the arguments, under its communicator's handler.
    }
}

void bamboo_fire(bamboo_site at) {
    Rank& self = calling_rank("the firing rule", at);
    if (self.announced.in_use()) post_announced_receives(self, at);
    Mailbox& mailbox = self.mailbox();
    bool satisfied = true;
    if (!self.pending_rule.empty()) {
        {
            std::lock_guard<SpinLock> lock(mailbox.mutex());
            satisfied = mailbox.arm_rule(self.pending_rule);
        }
        self.pending_rule.clear();  // keeps its capacity for the next evaluation point
    }
    if (!satisfied) {
        WaitInfo info;
        info.site = at;
        self.wait_until(info, [&mailbox] { return mailbox.rule_satisfied(); });
    } else if (self.priority() == -1) {
        self.yield();  // priority -1: give way at every evaluation point
    }
    // The receive blocks and what follows may write the buffers of sends lent until here.
    if (self.lent_until_evaluation_point()) self.take_back_lent_until_evaluation_point();
    self.evaluation_point();  // the region runs here, on the worker that runs the task now
}

// No check of MPI_Init here: a send block may run before it, sending nothing.
void bamboo_send_block_begin(void) {
    if (Rank* self = Rank::current()) self->hold_sends();
}

void bamboo_send_block_begin_lending(void) {
    if (Rank* self = Rank::current()) {
        self->hold_sends();
        self->lend_until_evaluation_point(true);
    }
}

void bamboo_send_block_end(void) {
    if (Rank* self = Rank::current()) {
        self->release_sends();
        self->lend_until_evaluation_point(false);
    }
}

void bamboo_set_priority(int priority) {
    Rank* self = Rank::current();
    if (!self) fatal("#pragma bamboo priority reached outside a task");
    self->set_priority(priority);
}

void bamboo_expect_collective(bamboo_collective kind, int root, MPI_Op op, MPI_Comm comm) {
    Rank& self = calling_rank("the firing rule", kNoSite);
    if (!find_comm_local(self, comm)) return;  // the call reports it, under its error handler
    CommView view = resolve_comm(self, comm, "the firing rule", kNoSite);
    if (view.comm->is_inter()) return;  // the collective waits on its own
    auto k = static_cast<collectives::Kind>(kind);
    bool rooted = k == collectives::Kind::bcast || k == collectives::Kind::reduce ||
                  k == collectives::Kind::gather || k == collectives::Kind::scatter;
    // An argument the call itself will reject adds nothing: the call reports it.
    if (rooted && (root < 0 || root >= view.size())) return;
    bool commutative = true;
    bool reduces = k == collectives::Kind::reduce || k == collectives::Kind::allreduce ||
                   k == collectives::Kind::reduce_scatter || k == collectives::Kind::scan ||
                   k == collectives::Kind::exscan;
    if (reduces && !op_is_valid(op, &commutative)) return;
    unsigned number = self.next_collective_number(view.comm->collective_context());
    for (const Pattern& pattern : collectives::first_receives(k, *view.comm, view.rank, root, commutative, number))
        expect_message(self, pattern);
}

}  // extern "C"
