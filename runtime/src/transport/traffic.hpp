// What the comm engine tells of the traffic between processes: how much has moved and
// whether anything is moving. The end of the job and the deadlock watch
// (process/deadlock_watch.hpp) see the engine through this and nothing else of it.
#pragma once

#include <atomic>
#include <cstdint>
#include <mutex>

namespace bamboo {

class Traffic {
public:
    // Messages moved so far, and control messages sent to and received from other processes
    // (any thread).
    std::uint64_t moves() const { return moves_.load(std::memory_order_relaxed); }
    std::uint64_t sent_total() const { return sent_total_.load(std::memory_order_relaxed); }
    std::uint64_t received_total() const { return received_total_.load(std::memory_order_relaxed); }

    // Whether sends or receives are in flight (any thread): their completion needs the
    // engine polled soon.
    bool in_transit() const { return in_transit_.load(std::memory_order_relaxed); }
    // Whether the engine has anything to move: messages handed to it, queued, in flight or
    // arriving (any thread).
    bool moving() const { return in_transit() || !outbox_empty_.load(std::memory_order_relaxed); }

    // Runs `f` while no thread drives the engine: the runtime's other MPI calls that run
    // concurrently with tasks (the deadlock watch's rounds) go through here, so that the MPI
    // library is entered by one thread at a time, and the data MPI writes is visibly ordered
    // before whoever reads it (in the lock's happens-before, which ThreadSanitizer sees).
    template <class F>
    auto exclusively(F&& f) {
        std::lock_guard<std::mutex> lock(progress_mutex_);
        return f();
    }

protected:
    Traffic() = default;
    ~Traffic() = default;
    Traffic(const Traffic&) = delete;
    Traffic& operator=(const Traffic&) = delete;

    // The engine's side. The counters are written only under progress_mutex_.
    void count_move() { count(moves_); }
    void count_sent() { count(sent_total_); }
    void count_received() { count(received_total_); }
    void set_in_transit(bool in_transit) { in_transit_.store(in_transit, std::memory_order_relaxed); }
    void set_outbox_empty(bool empty) { outbox_empty_.store(empty, std::memory_order_relaxed); }
    bool outbox_empty() const { return outbox_empty_.load(std::memory_order_relaxed); }

    // Held by whoever drives the engine.
    std::mutex progress_mutex_;

private:
    static void count(std::atomic<std::uint64_t>& counter) {
        counter.store(counter.load(std::memory_order_relaxed) + 1, std::memory_order_relaxed);
    }

    std::atomic<bool> outbox_empty_{true};
    std::atomic<std::uint64_t> moves_{0};
    std::atomic<std::uint64_t> sent_total_{0};
    std::atomic<std::uint64_t> received_total_{0};
    std::atomic<bool> in_transit_{false};
};

}  // namespace bamboo
