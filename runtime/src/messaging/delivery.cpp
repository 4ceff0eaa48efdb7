#include "messaging/delivery.hpp"

#include <algorithm>
#include <chrono>
#include <memory>
#include <mutex>

#include "messaging/one_sided.hpp"
#include "messaging/rank.hpp"
#include "messaging/reports.hpp"
#include "messaging/routes.hpp"
#include "trace/recorder.hpp"
#include "util/errors.hpp"
#include "util/simulation.hpp"
#include "util/spin.hpp"

namespace bamboo {
namespace {

// Up to this size an unexpected message is copied under the mailbox lock: cheaper than
// locking a second time, and short enough not to hold up the mailbox's other users.
constexpr std::size_t kCopyUnderLockBytes = 4096;

// Which process `receive`'s message came from, as --bamboo-stats counts it.
MessageKind::Scope scope_of(const Request& receive, const Envelope& e) {
    const Routes& routes = static_cast<const Rank*>(receive.owner)->routes();
    return routes.local(receive.comm->peer_vrank(e.source)) ? MessageKind::same_process : MessageKind::other_process;
}

Message copied_message(const Routes& routes, const Envelope& e, const TypedBuffer& data, BufferCharge charge) {
    Message message;
    message.envelope = e;
    message.bytes = data.bytes();
    message.storage = ByteBuffer(message.bytes);
    message.data = message.storage.get();
    message.charge = std::move(charge);
    pack(data, message.storage.get());
    routes.copies.copied(MessageKind::origin_of(e.comm), MessageKind::same_process, message.bytes);
    return message;
}

// Queues `message` as unexpected in the locked, open mailbox of `dest`; unlocks it.
void queue_unexpected(Rank& dest, std::unique_lock<SpinLock>& lock, Message&& message) {
    bool rule_satisfied = dest.mailbox().add_unexpected(std::move(message));
    lock.unlock();
    if (rule_satisfied) dest.wake();
}

void complete_send(Request& send) {
    Task* owner = send.owner;
    if (send.lent == Request::Lent::until_bought_back)
        static_cast<Rank*>(owner)->routes().lent_sends.fetch_sub(1, std::memory_order_relaxed);
    // Its task does not wait for it: take_back() at the evaluation point only looks.
    bool waited_for = send.lent != Request::Lent::until_evaluation_point;
    send.complete.store(true);  // from here on the owner may reuse or discard `send`
    if (waited_for) owner->wake();
}

// Leaves `send`'s data with it, as a message lent to `dest` (locked, open), as `lending`
// (not never) says.
void lend(Rank& dest, std::unique_lock<SpinLock>& lock, const Envelope& e, Request& send, Lending lending) {
    Message lent;
    lent.envelope = e;
    lent.bytes = send.target.bytes();
    lent.lender = &send;
    if (lending == Lending::always) {  // bought back if it waits too long
        send.lent = Request::Lent::until_bought_back;
        send.lent_at = std::chrono::steady_clock::now();
        Rank& sender = *static_cast<Rank*>(send.owner);
        sender.lent_sends.push_back(&send);
        sender.routes().lent_sends.fetch_add(1, std::memory_order_relaxed);
    } else if (lending == Lending::until_evaluation_point) {
        send.lent = Request::Lent::until_evaluation_point;
    } else {
        send.lent = Request::Lent::until_received;
    }
    queue_unexpected(dest, lock, std::move(lent));
}

// The sender takes back the data of `send`, lent and not yet received: it is buffered after
// all, and the send completes. False if a receive has taken it meanwhile.
// The data of lent `message` out of its sender's buffer into the message's own storage; the
// message no longer refers to the send, which the caller completes (and counts the copy).
void copy_lent_data(Message& message) {
    const Request& send = *message.lender;
    message.storage = ByteBuffer(message.bytes);
    pack(send.target, message.storage.get());
    message.data = message.storage.get();
    message.lender = nullptr;
}

bool buy_back(Request& send) {
    Rank& dest = *static_cast<Rank*>(send.owner)->routes().local(send.peer);
    const Routes& routes = dest.routes();
    std::size_t bytes = send.target.bytes();
    MessageKind::Origin origin;
    {
        // Copied under the lock: the receive must not take the message half bought back. Only
        // an idle or polling worker gets here.
        std::lock_guard<SpinLock> lock(dest.mailbox().mutex());
        Message* message = dest.mailbox().lent_by(&send);
        if (!message) return false;
        routes.budget->force_reserve_local(buffer_cost(bytes));
        message->charge = BufferCharge(routes.budget.get(), -1, buffer_cost(bytes));
        copy_lent_data(*message);
        origin = MessageKind::origin_of(message->envelope.comm);
    }
    routes.copies.copied(origin, MessageKind::same_process, bytes);
    complete_send(send);
    return true;
}

}  // namespace

void fill(Request& receive, Message&& message) {
    if (message.announced.source) {
        message.announced.source->pull(receive, message.envelope, message.bytes, message.announced);
        return;
    }
    if (message.lender) copy(message.lender->target, receive.target);
    else unpack(message.data, message.bytes, receive.target);
    static_cast<Rank*>(receive.owner)->routes().copies.copied(MessageKind::origin_of(message.envelope.comm),
                                                              scope_of(receive, message.envelope), message.bytes);
    complete_receive(receive, message.envelope, message.bytes);
    if (message.lender) complete_send(*message.lender);
}

void warn_dropped(const Rank& dest, const Envelope& e) {
    // The task has finished, so its communicators no longer change.
    std::string what = describe_message(dest.communicator_with_context(e.comm),
                                        Pattern{e.source, e.tag, e.comm});
    warn("dropping %s to task vrank %d, which has finished", what.c_str(), dest.vrank());
}

std::string describe_truncation(const Request& r) {
    std::string what = describe_message(r.comm, Pattern{r.source, r.tag, r.pattern.comm}).substr(2);
    return "message truncated (MPI_ERR_TRUNCATE): the " + std::to_string(r.bytes) + "-byte " + what +
           " does not fit the " + std::to_string(r.target.bytes()) + "-byte receive buffer";
}

void complete_receive(Request& r, const Envelope& e, std::size_t bytes) {
    charge(RuntimeWork::message_end);
    Task* owner = r.owner;
    static_cast<Rank*>(owner)->routes().copies.delivered(MessageKind::origin_of(e.comm), scope_of(r, e), bytes);
    r.source = e.source;
    r.tag = e.tag;
    r.bytes = bytes;
    // Its task waits at the evaluation point for all of them, and for nothing else there.
    bool announced = r.announced;
    r.complete.store(true);  // from here on the owner may reuse or discard `r`
    if (!announced || static_cast<Rank*>(owner)->announced.completed_one()) owner->wake();
}

bool deliver_from_buffer(Rank& dest, const Envelope& e, const TypedBuffer& data, Request* sender,
                         Lending lending) {
    if (trace::on(trace::Kind::message)) trace::arrived(dest.vrank(), e.source, e.tag, e.comm, data.bytes());
    const Routes& routes = dest.routes();
    BufferBudget& budget = *routes.budget;
    std::size_t cost = buffer_cost(data.bytes());
    Mailbox& mailbox = dest.mailbox();
    std::unique_lock<SpinLock> lock(mailbox.mutex());
    if (mailbox.closed()) {
        lock.unlock();
        warn_dropped(dest, e);
        return false;
    }
    if (PostedReceive* posted = mailbox.match_posted(e)) {
        lock.unlock();
        Request& receive = static_cast<Request&>(*posted);
        copy(data, receive.target);
        routes.copies.copied(MessageKind::origin_of(e.comm), MessageKind::same_process, data.bytes());
        complete_receive(receive, e, data.bytes());
        return false;
    }
    switch (lending) {
        case Lending::always:
        case Lending::until_received:
        case Lending::until_evaluation_point:
            lend(dest, lock, e, *sender, lending);
            return true;
        case Lending::beyond_budget:
            if (budget.reserve_local(cost)) break;
            lend(dest, lock, e, *sender, Lending::until_received);
            return true;
        case Lending::never:
            budget.force_reserve_local(cost);
            break;
    }
    BufferCharge charge(&budget, -1, cost);
    if (data.bytes() <= kCopyUnderLockBytes) {
        queue_unexpected(dest, lock, copied_message(routes, e, data, std::move(charge)));
        return false;
    }
    lock.unlock();
    // No receive waits for it: copy it outside the lock, then deliver it as an owned
    // message (which looks for a posted receive again: one may have come meanwhile).
    deliver_message(dest, copied_message(routes, e, data, std::move(charge)));
    return false;
}

void buy_back_lent_sends(const Routes& routes, const Worker& worker, bool all) {
    if (routes.lent_sends.load(std::memory_order_relaxed) == 0) return;
    const auto lent_before = std::chrono::steady_clock::now() - kLendPatience;
    for (const auto& rank : routes.ranks) {
        if (&rank->worker() != &worker) continue;
        // Another task's sends are bought back only while no worker runs it, and it waits for
        // this worker to let go before it runs (it may have moved to another worker).
        bool other = rank.get() != Task::current();
        if (other && !rank->try_hold()) continue;
        for (Request* send : rank->lent_sends)
            if (!send->complete.load() && (all || send->lent_at < lent_before)) buy_back(*send);
        if (other) rank->release();
    }
}

void take_back(Request& send) {
    if (send.complete.load() || buy_back(send)) return;
    // A receive took it and is copying from the buffer, which must outlive the copy.
    PoliteSpin spin;
    while (!send.complete.load()) spin.pause();
}

void buy_back_all(Rank& rank) {
    for (Request* send : rank.lent_sends) take_back(*send);
}

void forget_lent(Rank& rank, const Request& send) {
    auto& lent = rank.lent_sends;
    lent.erase(std::find(lent.begin(), lent.end(), &send));
}

void deliver_message(Rank& dest, Message&& message) {
    if (is_one_sided(message.envelope)) {  // applied at once, whatever its task is doing
        receive_one_sided(dest, message.envelope, message.data, message.bytes);
        return;
    }
    Mailbox& mailbox = dest.mailbox();
    std::unique_lock<SpinLock> lock(mailbox.mutex());
    if (mailbox.closed()) {
        lock.unlock();
        warn_dropped(dest, message.envelope);
        release_sender(message);
        return;
    }
    if (PostedReceive* posted = mailbox.match_posted(message.envelope)) {
        lock.unlock();
        fill(static_cast<Request&>(*posted), std::move(message));
        return;
    }
    queue_unexpected(dest, lock, std::move(message));
}

Request* claim_posted_receive(Rank& dest, const Envelope& e, bool* closed) {
    Mailbox& mailbox = dest.mailbox();
    std::lock_guard<SpinLock> lock(mailbox.mutex());
    *closed = mailbox.closed();
    if (*closed) return nullptr;
    return static_cast<Request*>(mailbox.match_posted(e));
}

void post_receive(Rank& self, Request& receive) {
    Mailbox& mailbox = self.mailbox();
    Message message;
    {
        std::lock_guard<SpinLock> lock(mailbox.mutex());
        if (!mailbox.take_unexpected(receive.pattern, &message)) {
            mailbox.post(&receive);
            return;
        }
    }
    fill(receive, std::move(message));
}

void own_data(Message& message) {
    if (!message.lender) return;
    Request& send = *message.lender;
    copy_lent_data(message);
    static_cast<Rank*>(send.owner)->routes().copies.copied(MessageKind::origin_of(message.envelope.comm),
                                                           MessageKind::same_process, message.bytes);
    complete_send(send);
}

void release_sender(Message& message) {
    if (message.lender) complete_send(*message.lender);
    if (message.announced.source) message.announced.source->decline(message.announced);
}

}  // namespace bamboo
