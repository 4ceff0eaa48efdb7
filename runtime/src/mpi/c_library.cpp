// The C library's sleeps, which suspend the calling task only. Outside tasks (a
// constructor, an atexit handler) each is the C library's own. rand() and exit() are with
// MPI_Init's calls.
#include <errno.h>
#include <time.h>
#include <unistd.h>

#include <chrono>

#include "bamboo.h"
#include "messaging/rank.hpp"

using bamboo::Rank;

unsigned bamboo_sleep(unsigned seconds) {
    Rank* self = Rank::current();
    if (!self) return sleep(seconds);
    self->sleep_until(std::chrono::steady_clock::now() + std::chrono::seconds(seconds));
    return 0;  // no signal cuts a task's sleep short
}

int bamboo_usleep(useconds_t microseconds) {
    Rank* self = Rank::current();
    if (!self) return usleep(microseconds);
    self->sleep_until(std::chrono::steady_clock::now() + std::chrono::microseconds(microseconds));
    return 0;
}

int bamboo_nanosleep(const struct timespec* requested, struct timespec* remaining) {
    Rank* self = Rank::current();
    if (!self) return nanosleep(requested, remaining);
    if (requested->tv_nsec < 0 || requested->tv_nsec > 999999999 || requested->tv_sec < 0) {
        errno = EINVAL;
        return -1;
    }
    self->sleep_until(std::chrono::steady_clock::now() + std::chrono::seconds(requested->tv_sec) +
                      std::chrono::nanoseconds(requested->tv_nsec));
    return 0;
}
