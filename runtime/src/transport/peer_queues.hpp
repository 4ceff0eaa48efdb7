// A queue per peer process, made only for the peers that use one, and the list of peers whose
// queue holds something.
//
// Why not a std::deque per process of the job: libstdc++ allocates about 600 bytes for an
// empty deque, so every process's memory grew with the job's size, and visiting every queue
// in each round of progress cost time that grew with it too. Under SimGrid SMPI, 4096
// simulated processes with two such arrays each needed over 20 GB. A stencil talks to a
// handful of peers: only theirs exist, and only the busy ones are visited.
#pragma once

#include <cstddef>
#include <deque>
#include <memory>
#include <utility>
#include <vector>

namespace bamboo {

template <class T>
class PeerQueues {
public:
    explicit PeerQueues(int processes) : queues_(static_cast<std::size_t>(processes)) {}

    bool empty(int process) const {
        const std::unique_ptr<Entry>& entry = queues_[static_cast<std::size_t>(process)];
        return !entry || entry->items.empty();
    }
    bool any() const { return !busy_.empty(); }

    void push(int process, T item) {
        std::unique_ptr<Entry>& entry = queues_[static_cast<std::size_t>(process)];
        if (!entry) entry = std::make_unique<Entry>();
        if (!entry->listed) {
            busy_.push_back(process);
            entry->listed = true;
        }
        entry->items.push_back(std::move(item));
    }

    // Calls visit(process, queue) for every busy queue, those pushed meanwhile included; a
    // queue it leaves empty is no longer busy.
    template <class Visit>
    void visit_busy(Visit&& visit) {
        std::size_t kept = 0;
        for (std::size_t i = 0; i < busy_.size(); ++i) {
            const int process = busy_[i];
            Entry& entry = *queues_[static_cast<std::size_t>(process)];
            visit(process, entry.items);
            if (entry.items.empty())
                entry.listed = false;
            else
                busy_[kept++] = process;
        }
        busy_.resize(kept);
    }

private:
    struct Entry {
        std::deque<T> items;
        bool listed = false;  // in busy_
    };
    std::vector<std::unique_ptr<Entry>> queues_;
    std::vector<int> busy_;
};

}  // namespace bamboo
