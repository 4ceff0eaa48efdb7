// Busy-waiting that stays polite to threads sharing the core.
#pragma once

#include <sched.h>

#include <atomic>
#include <chrono>

namespace bamboo {

// How often a spinning thread yields the CPU. Set once at start-up: 10 us normally (a
// system call per iteration would cost more than the polling), zero when the process has
// more busy threads than CPUs it may run on (e.g. mpirun bound it to one core), where a
// spinning thread must let the others run at once.
inline std::chrono::microseconds spin_yield_interval(10);

// Call pause() in a polling loop: a CPU pause hint each time, and a sched_yield() every
// spin_yield_interval, so that a thread sharing the core still runs. One hint only: it costs
// tens of nanoseconds on some CPUs (25 ns on an AMD EPYC), and every nanosecond a polling
// loop spends on it is added to the latency of the message it waits for.
class PoliteSpin {
public:
    PoliteSpin()
        : yield_every_(spin_yield_interval),
          next_yield_(std::chrono::steady_clock::now() + yield_every_) {}

    void pause() { pause(std::chrono::steady_clock::now()); }
    // ... for a loop that has just read the clock.
    void pause(std::chrono::steady_clock::time_point now) {
        __builtin_ia32_pause();
        if (now < next_yield_) return;
        sched_yield();
        next_yield_ = now + yield_every_;
    }

private:
    std::chrono::microseconds yield_every_;
    std::chrono::steady_clock::time_point next_yield_;
};

// A lock for short critical sections that never block or suspend: one atomic exchange takes
// it and a plain store releases it, where std::mutex costs two atomic read-modify-writes and
// two library calls, on every message. A waiter spins politely, so that a holder preempted
// on a shared core still gets to run.
class SpinLock {
public:
    void lock() {
        while (locked_.exchange(true, std::memory_order_acquire)) {
            PoliteSpin spin;
            do spin.pause();
            while (locked_.load(std::memory_order_relaxed));
        }
    }
    void unlock() { locked_.store(false, std::memory_order_release); }

private:
    std::atomic<bool> locked_{false};
};

}  // namespace bamboo
