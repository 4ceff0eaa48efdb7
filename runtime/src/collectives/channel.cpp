#include "collectives/channel.hpp"

#include <cstdarg>
#include <cstdio>
#include <mutex>

#include "messaging/delivery.hpp"
#include "messaging/send_receive.hpp"
#include "util/errors.hpp"

namespace bamboo {

void CollectiveChannel::send(int dest, int tag, const void* data, std::size_t bytes) {
    if (first_receives_) first_receives_->sent = true;
    Request request;
    // A large message leaves straight from `data`, or is lent to a task of this process: wait
    // until it has left the process or been received (or bought back).
    if (start_send(self_, SendMode::collective, view_, dest, tag + tag_base_, raw_bytes(data, bytes),
                   request, call_, at_)) {
        self_.wait_for(request, call_, at_);
        if (request.lent == Request::Lent::until_bought_back) forget_lent(self_, request);
    }
}

void CollectiveChannel::begin_receive(const Incoming& incoming, Request& request) {
    start_receive(self_, *view_.comm, pattern(incoming.source, incoming.tag), raw_bytes(incoming.data, incoming.bytes),
                  request, call_, at_);
}

void CollectiveChannel::end_receive(const Incoming& incoming, const Request& request) {
    self_.wait_for(request, call_, at_);
    if (request.bytes != incoming.bytes)
        fail("rank %d sent %zu bytes where this rank expects %zu: the ranks' counts or datatypes "
             "do not match",
             incoming.source, request.bytes, incoming.bytes);
    received(incoming.source, incoming.tag);
}

void CollectiveChannel::receive(int source, int tag, void* data, std::size_t bytes) {
    Incoming incoming{source, tag, data, bytes};
    Request request;
    begin_receive(incoming, request);
    end_receive(incoming, request);
}

CollectiveChannel::PostedReceives CollectiveChannel::post(const std::vector<Incoming>& incoming) {
    return PostedReceives(*this, incoming);
}

CollectiveChannel::PostedReceives::PostedReceives(CollectiveChannel& ch,
                                                  const std::vector<Incoming>& incoming)
    : ch_(ch), incoming_(incoming), requests_(new Request[incoming.size()]) {
    for (std::size_t i = 0; i < incoming_.size(); ++i) ch_.begin_receive(incoming_[i], requests_[i]);
}

void CollectiveChannel::PostedReceives::wait() {
    for (std::size_t i = 0; i < incoming_.size(); ++i) ch_.end_receive(incoming_[i], requests_[i]);
}

Message CollectiveChannel::receive_any_size(int source, int tag) {
    Pattern wanted = pattern(source, tag);
    self_.wait_for_message(wanted, call_, at_);
    received(source, tag);
    Message message;
    {
        std::lock_guard<SpinLock> lock(self_.mailbox().mutex());
        self_.mailbox().take_unexpected(wanted, &message);
    }
    own_data(message);  // a large message from a task of this process comes lent
    return message;
}

void CollectiveChannel::fail(const char* format, ...) const {
    char text[512];
    va_list args;
    va_start(args, format);
    std::vsnprintf(text, sizeof text, format, args);
    va_end(args);
    task_error(self_.vrank(), call_, at_, "%s (on %s)", text, view_.comm->name().c_str());
}

}  // namespace bamboo
