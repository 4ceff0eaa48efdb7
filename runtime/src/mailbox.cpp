#include "mailbox.hpp"

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

bool Mailbox::add_unexpected(Message&& message) {
    count_arrival();
    unexpected_.push_back(std::move(message));
    if (rule_.empty()) return false;
    const Envelope& e = unexpected_.back().envelope;
    bool satisfied = true;
    for (Expectation& x : rule_) {
        if (x.pattern.accepts(e)) ++x.arrived;
        satisfied = satisfied && x.arrived >= x.expected;
    }
    if (!satisfied) return false;
    rule_.clear();
    rule_satisfied_.store(true);
    return true;
}

bool Mailbox::take_unexpected(const Pattern& p, Message* out) {
    auto it = std::find_if(unexpected_.begin(), unexpected_.end(),
                           [&](const Message& m) { return p.accepts(m.envelope); });
    if (it == unexpected_.end()) return false;
    *out = std::move(*it);
    if (it == unexpected_.begin()) unexpected_.pop_front();
    else unexpected_.erase(it);
    return true;
}

const Message* Mailbox::find_unexpected(const Pattern& p) const {
    auto it = std::find_if(unexpected_.begin(), unexpected_.end(),
                           [&](const Message& m) { return p.accepts(m.envelope); });
    return it == unexpected_.end() ? nullptr : &*it;
}

bool Mailbox::arm_rule(const std::vector<Expectation>& rule) {
    rule_ = rule;  // a copy into storage kept from earlier rules: no allocation after the first
    bool satisfied = true;
    for (Expectation& x : rule_) {
        x.arrived = static_cast<int>(std::count_if(
            unexpected_.begin(), unexpected_.end(),
            [&](const Message& m) { return x.pattern.accepts(m.envelope); }));
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
    return std::move(unexpected_);
}

}  // namespace bamboo
