// Telling the sanitizers about switches between stacks.
//
// ASan keeps track of the stack each thread runs on, TSan of each thread's call stack; a
// switch to a task's stack they are not told about looks to them like a corrupt stack
// (false reports, "ASan is ignoring requested __asan_handle_no_return"). The worker
// announces every switch between its loop and its tasks (Worker::jump, arrived, finished).
// Only sanitizer builds compile the calls (runtime/CMakeLists.txt, BAMBOO_SANITIZE).
// Boost.Context's own annotations need a library built for ucontext (BOOST_USE_ASAN);
// Debian's is built for fcontext, and Boost 1.74 has none for TSan.
#pragma once

#include <cstddef>

#if defined(__SANITIZE_ADDRESS__)
#define BAMBOO_ASAN 1
#elif defined(__SANITIZE_THREAD__)
#define BAMBOO_TSAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define BAMBOO_ASAN 1
#elif __has_feature(thread_sanitizer)
#define BAMBOO_TSAN 1
#endif
#endif

#if defined(BAMBOO_ASAN)
#include <pthread.h>
#include <sanitizer/common_interface_defs.h>
#elif defined(BAMBOO_TSAN)
#include <sanitizer/tsan_interface.h>
#endif

// On a function that announces a switch to TSan and then returns on the other context (a
// finishing task: Worker::finished and the task's entry function, which boost's fiber
// returns from to jump away). TSan keeps a shadow call stack per fiber: such a function's
// exit would pop a frame off the stack of the context switched to, which then ends below
// its bottom after enough tasks have finished on one worker (TSan crashed once tasks moved
// and one worker finished most of them). Without instrumentation it pushes and pops nothing.
#define BAMBOO_NO_TSAN_FRAMES __attribute__((no_sanitize("thread")))

namespace bamboo {

// A context's stack as the sanitizers know it.
class SanitizerStack {
public:
    SanitizerStack() = default;  // not known yet: see become_this_threads()

    // A task's stack, from `bottom` (its lowest address) up.
    SanitizerStack([[maybe_unused]] const void* bottom, [[maybe_unused]] std::size_t size) {
#if defined(BAMBOO_ASAN)
        bottom_ = bottom;
        size_ = size;
#elif defined(BAMBOO_TSAN)
        tsan_fiber_ = __tsan_create_fiber(0);
        owns_tsan_fiber_ = true;
#endif
    }

    ~SanitizerStack() {
#if defined(BAMBOO_TSAN)
        if (owns_tsan_fiber_) __tsan_destroy_fiber(tsan_fiber_);
#endif
    }

    SanitizerStack(const SanitizerStack&) = delete;
    SanitizerStack& operator=(const SanitizerStack&) = delete;

    // The stack of the calling thread (a worker's loop).
    void become_this_threads() {
#if defined(BAMBOO_ASAN)
        pthread_attr_t attributes;
        pthread_getattr_np(pthread_self(), &attributes);
        void* bottom = nullptr;
        pthread_attr_getstack(&attributes, &bottom, &size_);
        pthread_attr_destroy(&attributes);
        bottom_ = bottom;
#elif defined(BAMBOO_TSAN)
        tsan_fiber_ = __tsan_get_current_fiber();
#endif
    }

    // Right before switching to this stack. `leaving`: where the sanitizer keeps the state
    // of the context being left, for announce_arrival() when it runs again; nullptr if it
    // never will (a finished task).
    void announce_switch([[maybe_unused]] void** leaving) const {
#if defined(BAMBOO_ASAN)
        __sanitizer_start_switch_fiber(leaving, bottom_, size_);
#elif defined(BAMBOO_TSAN)
        __tsan_switch_to_fiber(tsan_fiber_, 0);
#endif
    }

private:
#if defined(BAMBOO_ASAN)
    const void* bottom_ = nullptr;
    std::size_t size_ = 0;
#elif defined(BAMBOO_TSAN)
    void* tsan_fiber_ = nullptr;
    bool owns_tsan_fiber_ = false;
#endif
};

// First thing in a context that a switch has reached: `state` is what announce_switch()
// kept when the context left (nullptr for a task's first run).
inline void announce_arrival([[maybe_unused]] void* state) {
#if defined(BAMBOO_ASAN)
    __sanitizer_finish_switch_fiber(state, nullptr, nullptr);
#endif
}

}  // namespace bamboo
