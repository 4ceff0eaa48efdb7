#include "messaging/rank.hpp"

#include <deque>
#include <mutex>

#include "messaging/delivery.hpp"
#include "messaging/reports.hpp"
#include "messaging/routes.hpp"
#include "util/errors.hpp"

namespace bamboo {

Rank::Rank(int vrank, Worker& worker, boost::context::stack_context stack, std::shared_ptr<char> globals,
           Entry entry, const std::vector<std::string>& args, Routes& routes)
    : Task(vrank, worker, stack, std::move(globals)), entry_(entry), args_(args), routes_(routes) {
    self_comm = std::make_shared<Communicator>(kSelfContext, std::vector<int>{vrank}, routes.vf, "MPI_COMM_SELF");
    // Each rank gets its own argv strings: the program may modify them.
    for (std::string& arg : args_) argv_.push_back(arg.data());
    argv_.push_back(nullptr);
}

int Rank::run() { return entry_(static_cast<int>(args_.size()), argv_.data()); }

void Rank::hold_sends() {
    if (holds_sends_ || !routes_.link) return;
    holds_sends_ = true;
    routes_.link->hold_sends(vrank());
}

void Rank::release_sends() {
    if (!holds_sends_) return;
    holds_sends_ = false;
    routes_.link->release_sends(vrank());
}

void Rank::take_back_lent_until_evaluation_point() {
    for (MPI_Request& send : lent_until_evaluation_point_) {
        take_back(*requests_.find(send));
        requests_.release(&send);
    }
    lent_until_evaluation_point_.clear();
}

void Rank::take_back_lent_into_announced() {
    for (MPI_Request send : lent_until_evaluation_point_) {
        Request& request = *requests_.find(send);
        if (announced.overlaps(request.target)) take_back(request);
    }
}

void Rank::finish() {
    release_sends();  // a send block left by return or exit()
    GetoptSession::instance().task_ended(*this);
    // Sends the program never waited for: their buffers may go with the task's stack.
    buy_back_all(*this);
    take_back_lent_until_evaluation_point();
    announced.check_all_taken(vrank());
    std::deque<Message> unreceived;
    {
        std::lock_guard<SpinLock> lock(mailbox_.mutex());
        unreceived = mailbox_.close();
    }
    if (unreceived.empty()) return;
    const Envelope& first = unreceived.front().envelope;
    std::string what = describe_message(communicator_with_context(first.comm),
                                        Pattern{first.source, first.tag, first.comm});
    warn("task vrank %d finished with %zu message(s) it never received (the first: %s)", vrank(),
         unreceived.size(), what.c_str());
    for (Message& message : unreceived) release_sender(message);
}

const Communicator* Rank::communicator_with_context(int context) const {
    int base = context & ~1;
    if (base == kWorldContext) return routes_.world.get();
    if (base == kSelfContext) return self_comm.get();
    const Communicator* found = nullptr;
    comms.for_each([&](const CommEntry& entry) {
        if (entry.comm->context() == base) found = entry.comm.get();
    });
    for (const auto& freed : freed_comms)
        if (!found && freed->context() == base) found = freed.get();
    return found;
}

void Rank::wait_for(const Request& request, const char* call, bamboo_site at) {
    WaitInfo info;
    info.call = call;
    info.site = at;
    info.request = &request;
    wait_until(info, [&request] { return request.complete.load(); });
}

void Rank::wait_for_message(const Pattern& pattern, const char* call, bamboo_site at) {
    if (background.inside()) {
        // The firing rule is the rank's own code's to arm: watch the arrivals instead.
        auto arrived = [this, &pattern] {
            std::lock_guard<SpinLock> lock(mailbox_.mutex());
            return mailbox_.find_unexpected(pattern) != nullptr;
        };
        {
            std::lock_guard<SpinLock> lock(mailbox_.mutex());
            mailbox_.watch_arrivals(+1);
        }
        background.wait_until(arrived);
        std::lock_guard<SpinLock> lock(mailbox_.mutex());
        mailbox_.watch_arrivals(-1);
        return;
    }
    for (;;) {
        {
            std::lock_guard<SpinLock> lock(mailbox_.mutex());
            if (mailbox_.find_unexpected(pattern)) return;
            mailbox_.arm_rule({Expectation{pattern, 1, 0}});
        }
        WaitInfo info;
        info.call = call;
        info.site = at;
        wait_until(info, [this] { return mailbox_.rule_satisfied(); });
    }
}

void Rank::trace_wait() {
    const WaitInfo& w = wait_info_;
    trace::WaitKind kind = trace::WaitKind::other;
    int peer = trace::kNoPeer, tag = trace::kNoTag, context = 0;
    const Request* one = w.request;
    if (!one && w.handles && w.handle_count == 1) one = requests_.find(w.handles[0]);
    if (w.what) {
        // something other than messages: kind stays `other`
    } else if (one && one->kind == Request::Kind::receive) {
        kind = trace::WaitKind::receive;
        peer = one->pattern.source;
        tag = one->pattern.tag;
        context = one->pattern.comm;
    } else if (one && one->kind == Request::Kind::send) {
        kind = trace::WaitKind::send;
        peer = one->peer;
        context = one->comm ? one->comm->context() : 0;
    } else if (one) {
        kind = one->kind == Request::Kind::collective ? trace::WaitKind::collective : trace::WaitKind::other;
    } else if (w.handles) {
        kind = trace::WaitKind::requests;
    } else {
        // A firing rule, or a probe (a rule of one message).
        kind = w.call ? trace::WaitKind::receive : trace::WaitKind::firing_rule;
        std::lock_guard<SpinLock> lock(mailbox_.mutex());
        const std::vector<Expectation>& rule = mailbox_.armed_rule();
        if (rule.size() == 1) {
            peer = rule[0].pattern.source;
            tag = rule[0].pattern.tag;
            context = rule[0].pattern.comm;
        }
    }
    if (kind == trace::WaitKind::receive && (context & 1)) {  // a collective's message: its tag is the runtime's
        kind = trace::WaitKind::collective;
        tag = trace::kNoTag;
    }
    // A list (requests, a rule's messages) changes as they complete: made anew every time.
    TracedWaitKey key{kind, peer, tag, context, w.call};
    bool listed = kind == trace::WaitKind::requests || kind == trace::WaitKind::firing_rule;
    if (listed || !(key == traced_key_) || traced_what_.empty()) {
        traced_what_ = describe_awaited(*this);
        traced_what_.erase(0, traced_what_.find(' ') + 1);  // "for a message ...", "for: ...": the trace's "for"
        traced_key_ = key;
    }
    trace::wait_began(vrank(), kind, peer, tag, context, w.call ? w.call : "firing rule", traced_what_);
}

}  // namespace bamboo
