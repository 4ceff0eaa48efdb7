#include "messaging/requests.hpp"

namespace bamboo {

Request* RequestTable::allocate(MPI_Request* handle) {
    if (free_.empty()) {
        if (live_.size() + kChunk > kMaxHandles) too_many_handles();
        std::uint32_t first = static_cast<std::uint32_t>(chunks_.size() * kChunk);
        chunks_.emplace_back(new Request[kChunk]);
        live_.resize(live_.size() + kChunk, false);
        for (std::uint32_t i = kChunk; i > 0; --i) free_.push_back(first + i - 1);
    }
    std::uint32_t index = free_.back();
    free_.pop_back();
    live_[index] = true;
    ++live_count_;
    Request* request = slot(index);
    request->~Request();
    new (request) Request();
    *handle = encode_handle<MPI_Request>(index);
    return request;
}

void RequestTable::renew(Request& request) {
    std::unique_ptr<PersistentCall> call = std::move(request.persistent);
    request.~Request();
    new (&request) Request();
    request.persistent = std::move(call);
}

Request* RequestTable::find(MPI_Request handle) const {
    std::optional<std::uint32_t> index = decode_handle(handle);
    if (!index || *index >= live_.size() || !live_[*index]) return nullptr;
    return slot(*index);
}

void RequestTable::release(MPI_Request* handle) {
    std::optional<std::uint32_t> index = decode_handle(*handle);
    if (index && *index < live_.size() && live_[*index]) {
        live_[*index] = false;
        --live_count_;
        free_.push_back(*index);
    }
    *handle = MPI_REQUEST_NULL;
}

}  // namespace bamboo
