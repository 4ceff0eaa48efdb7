#include "messaging/delivery.hpp"

#include <memory>
#include <mutex>

#include "messaging/rank.hpp"
#include "messaging/reports.hpp"
#include "messaging/routes.hpp"
#include "util/errors.hpp"

namespace bamboo {
namespace {

// Up to this size an unexpected message is copied under the mailbox lock: cheaper than
// locking a second time, and short enough not to hold up the mailbox's other users.
constexpr std::size_t kCopyUnderLockBytes = 4096;

Message copied_message(const Envelope& e, const TypedBuffer& data, BufferCharge charge) {
    Message message;
    message.envelope = e;
    message.bytes = data.bytes();
    message.storage.reset(new char[message.bytes]);
    message.data = message.storage.get();
    message.charge = std::move(charge);
    pack(data, message.storage.get());
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
    send.complete.store(true);  // from here on the owner may reuse or discard `send`
    owner->wake();
}

// `message` is `receive`'s: puts its data in place and completes the receive, unless the
// data is still with a task of another process, which the comm engine then asks for.
void fill(Request& receive, Message&& message) {
    check_fits(receive, message.envelope, message.bytes);
    if (message.announced.source) {
        message.announced.source->pull(receive, message.envelope, message.bytes, message.announced);
        return;
    }
    if (message.lender) copy(message.lender->target, receive.target);
    else unpack(message.data, message.bytes, receive.target);
    complete_receive(receive, message.envelope, message.bytes);
    if (message.lender) complete_send(*message.lender);
}

}  // namespace

void warn_dropped(const Rank& dest, const Envelope& e) {
    // The task has finished, so its communicators no longer change.
    std::string what = describe_message(dest.communicator_with_context(e.comm),
                                        Pattern{e.source, e.tag, e.comm});
    warn("dropping %s to task vrank %d, which has finished", what.c_str(), dest.vrank());
}

void check_fits(const Request& r, const Envelope& e, std::size_t bytes) {
    std::size_t capacity = r.target.bytes();
    if (bytes <= capacity) return;
    std::string what = describe_message(r.comm, Pattern{e.source, e.tag, e.comm}).substr(2);
    task_error(r.owner->vrank(), r.call, r.site,
               "message truncated (MPI_ERR_TRUNCATE): the %zu-byte %s does not fit the %zu-byte "
               "receive buffer",
               bytes, what.c_str(), capacity);
}

void complete_receive(Request& r, const Envelope& e, std::size_t bytes) {
    Task* owner = r.owner;
    r.source = e.source;
    r.tag = e.tag;
    r.bytes = bytes;
    r.complete.store(true);  // from here on the owner may reuse or discard `r`
    owner->wake();
}

bool deliver_from_buffer(Rank& dest, const Envelope& e, const TypedBuffer& data, Request* lender) {
    BufferBudget& budget = *dest.routes().budget;
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
        check_fits(receive, e, data.bytes());
        copy(data, receive.target);
        complete_receive(receive, e, data.bytes());
        return false;
    }
    if (!lender) {
        budget.force_reserve_local(cost);
    } else if (!budget.reserve_local(cost)) {
        Message lent;
        lent.envelope = e;
        lent.bytes = data.bytes();
        lent.lender = lender;
        lender->awaits_receive = true;
        queue_unexpected(dest, lock, std::move(lent));
        return true;
    }
    BufferCharge charge(&budget, -1, cost);
    if (data.bytes() <= kCopyUnderLockBytes) {
        queue_unexpected(dest, lock, copied_message(e, data, std::move(charge)));
        return false;
    }
    lock.unlock();
    // No receive waits for it: copy it outside the lock, then deliver it as an owned
    // message (which looks for a posted receive again: one may have come meanwhile).
    deliver_message(dest, copied_message(e, data, std::move(charge)));
    return false;
}

void deliver_message(Rank& dest, Message&& message) {
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

void release_sender(Message& message) {
    if (message.lender) complete_send(*message.lender);
    if (message.announced.source) message.announced.source->decline(message.announced);
}

}  // namespace bamboo
