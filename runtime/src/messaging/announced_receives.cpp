#include "messaging/announced_receives.hpp"

#include <cstdint>
#include <string>
#include <utility>

#include "messaging/reports.hpp"
#include "util/errors.hpp"

namespace bamboo {
namespace {

std::string describe(const AnnouncedReceives::Receive& r) {
    return describe_message(r.communicator, r.pattern).substr(2) + " into " + std::to_string(r.count) +
           " element(s) at " + std::to_string(reinterpret_cast<std::uintptr_t>(r.buf));
}

std::string site_text(bamboo_site at) {
    return at.file ? std::string(at.file) + ":" + std::to_string(at.line) : std::string("an evaluation point");
}

}  // namespace

bool AnnouncedReceives::announce(const Receive& receive) {
    if (given_up_ || overlaps(receive.target)) return false;
    announced_.push_back(receive);
    return true;
}

bool AnnouncedReceives::overlaps(const TypedBuffer& data) {
    for (const Receive& r : announced_)
        if (shared_bytes_.between(r.target, data)) return true;
    return false;
}

std::vector<AnnouncedReceives::Receive> AnnouncedReceives::give_up() {
    given_up_ = true;
    std::vector<Receive> receives = std::move(announced_);
    announced_.clear();
    return receives;
}

const std::vector<AnnouncedReceives::Receive>& AnnouncedReceives::begin_posting(bamboo_site at) {
    given_up_ = false;
    posted_.clear();  // all taken over (check_all_taken), and complete
    next_ = 0;
    if (announced_.empty()) return posted_;  // as at most evaluation points: no stores to share
    posted_at_ = at;
    posted_.swap(announced_);
    handles_.assign(posted_.size(), MPI_REQUEST_NULL);
    waiting_.store(static_cast<int>(posted_.size()));
    return posted_;
}

void AnnouncedReceives::check_all_taken(int vrank) const {
    if (next_ >= posted_.size()) return;
    fatal("task vrank %d: the firing rule at %s announced a receive (%s) that its window did not make; "
          "the translator and the program disagree (please report this, with the program)",
          vrank, site_text(posted_at_).c_str(), describe(posted_[next_]).c_str());
}

void AnnouncedReceives::mismatch(int vrank, const char* call, bamboo_site at) const {
    task_error(vrank, call, at,
               "this is not the receive the firing rule at %s announced next (%s); the translator and the "
               "program disagree (please report this, with the program)",
               site_text(posted_at_).c_str(), describe(posted_[next_]).c_str());
}

}  // namespace bamboo
