#include "messaging/mailbox.hpp"

#include <algorithm>

namespace bamboo {

PostedReceive* Mailbox::match_posted(const Envelope& e) {
    auto it = std::find_if(posted_.begin(), posted_.end(),
                           [&](const PostedReceive* r) { return r->pattern.accepts(e); });
    if (it == posted_.end()) return nullptr;
    PostedReceive* receive = *it;
    if (it == posted_.begin()) posted_.pop_front();  // the usual case, and cheaper
    else posted_.erase(it);
    count_arrival();
    return receive;
}

void Mailbox::post(PostedReceive* receive) { posted_.push_back(receive); }

bool Mailbox::unpost(PostedReceive* receive) {
    auto it = std::find(posted_.begin(), posted_.end(), receive);
    if (it == posted_.end()) return false;
    posted_.erase(it);
    return true;
}

bool Mailbox::add_unexpected(Message&& message) {
    count_arrival();
    const Envelope e = message.envelope;
    unexpected_[e].push_back(Queued{next_order_++, std::move(message)});
    ++unexpected_count_;
    if (rule_.empty()) return watchers_ > 0;
    bool satisfied = true;
    for (Expectation& x : rule_) {
        if (x.pattern.accepts(e)) ++x.arrived;
        satisfied = satisfied && x.arrived >= x.expected;
    }
    if (!satisfied) return watchers_ > 0;
    rule_.clear();
    rule_satisfied_.store(true);
    return true;
}

Mailbox::Queues::iterator Mailbox::earliest(const Pattern& p) {
    if (p.source != kAny && p.tag != kAny) return unexpected_.find(Envelope{p.source, p.tag, p.comm});
    auto best = unexpected_.end();
    for (auto it = unexpected_.begin(); it != unexpected_.end(); ++it)
        if (p.accepts(it->first) && (best == unexpected_.end() || it->second.front().order < best->second.front().order))
            best = it;
    return best;
}

Mailbox::Queues::const_iterator Mailbox::earliest(const Pattern& p) const {
    return const_cast<Mailbox*>(this)->earliest(p);
}

std::size_t Mailbox::count_accepted(const Pattern& p) const {
    if (p.source != kAny && p.tag != kAny) {
        auto it = unexpected_.find(Envelope{p.source, p.tag, p.comm});
        return it == unexpected_.end() ? 0 : it->second.size();
    }
    std::size_t count = 0;
    for (const auto& [envelope, queue] : unexpected_)
        if (p.accepts(envelope)) count += queue.size();
    return count;
}

bool Mailbox::take_unexpected(const Pattern& p, Message* out) {
    auto it = earliest(p);
    if (it == unexpected_.end()) return false;
    *out = std::move(it->second.front().message);
    it->second.pop_front();
    if (it->second.empty()) unexpected_.erase(it);
    --unexpected_count_;
    return true;
}

const Message* Mailbox::find_unexpected(const Pattern& p) const {
    auto it = earliest(p);
    return it == unexpected_.end() ? nullptr : &it->second.front().message;
}

Message* Mailbox::lent_by(const Request* lender) {
    for (auto& [envelope, queue] : unexpected_)
        for (Queued& q : queue)
            if (q.message.lender == lender) return &q.message;
    return nullptr;
}

bool Mailbox::arm_rule(const std::vector<Expectation>& rule) {
    rule_ = rule;  // a copy into storage kept from earlier rules: no allocation after the first
    bool satisfied = true;
    for (Expectation& x : rule_) {
        x.arrived = static_cast<int>(count_accepted(x.pattern));
        satisfied = satisfied && x.arrived >= x.expected;
    }
    if (satisfied) {
        rule_.clear();
        return true;
    }
    rule_satisfied_.store(false);
    return false;
}

std::deque<Message> Mailbox::close() {
    closed_ = true;
    posted_.clear();
    rule_.clear();
    std::vector<Queued> all;
    for (auto& [envelope, queue] : unexpected_)
        for (Queued& q : queue) all.push_back(std::move(q));
    unexpected_.clear();
    unexpected_count_ = 0;
    std::sort(all.begin(), all.end(), [](const Queued& a, const Queued& b) { return a.order < b.order; });
    std::deque<Message> left;
    for (Queued& q : all) left.push_back(std::move(q.message));
    return left;
}

}  // namespace bamboo
