// The C library's calls with hidden state, per task (getopt, strtok, rand/random, drand48),
// its sleeps, which suspend the calling task only, and errno's address on the running thread.
// Outside tasks (a constructor, an atexit handler) each is the C library's own. exit() is with
// MPI_Init's calls (mpi/init.cpp).
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <chrono>

#include "bamboo.h"
#include "core/getopt_session.hpp"
#include "messaging/rank.hpp"

namespace bamboo {
namespace {

int task_getopt(const GetoptCall& call) {
    Rank* self = Rank::current();
    if (!self) return call.to_glibc();
    GetoptSession& session = GetoptSession::instance();
    WaitInfo info;
    info.call = "getopt";
    info.what = "the option parser, which another task of this process holds until its getopt() returns -1";
    self->wait_until(info, [&] { return session.try_take(*self); });
    return session.next_option(self->getopt, call);
}

}  // namespace
}  // namespace bamboo

using bamboo::GetoptCall;
using bamboo::Rank;

// The thread's own errno, which holds the running task's (Task::enter restores it).
int* bamboo_errno(void) { return &errno; }

int bamboo_getopt(int argc, char* const argv[], const char* optstring) {
    return bamboo::task_getopt({GetoptCall::Kind::short_options, argc, argv, optstring, nullptr, nullptr});
}

int bamboo_getopt_long(int argc, char* const argv[], const char* optstring, const struct option* longopts,
                       int* longindex) {
    return bamboo::task_getopt({GetoptCall::Kind::long_options, argc, argv, optstring, longopts, longindex});
}

int bamboo_getopt_long_only(int argc, char* const argv[], const char* optstring, const struct option* longopts,
                            int* longindex) {
    return bamboo::task_getopt({GetoptCall::Kind::long_only, argc, argv, optstring, longopts, longindex});
}

char** bamboo_optarg(void) {
    Rank* self = Rank::current();
    return self ? &self->getopt.optarg : &optarg;
}

int* bamboo_optind(void) {
    Rank* self = Rank::current();
    return self ? &self->getopt.optind : &optind;
}

int* bamboo_opterr(void) {
    Rank* self = Rank::current();
    return self ? &self->getopt.opterr : &opterr;
}

int* bamboo_optopt(void) {
    Rank* self = Rank::current();
    return self ? &self->getopt.optopt : &optopt;
}

char* bamboo_strtok(char* str, const char* delimiters) {
    Rank* self = Rank::current();
    return self ? strtok_r(str, delimiters, &self->strtok_next) : strtok(str, delimiters);
}

double bamboo_drand48(void) {
    Rank* self = Rank::current();
    return self ? self->drand48.next_double() : drand48();
}

long bamboo_lrand48(void) {
    Rank* self = Rank::current();
    return self ? self->drand48.next_nonnegative() : lrand48();
}

long bamboo_mrand48(void) {
    Rank* self = Rank::current();
    return self ? self->drand48.next_signed() : mrand48();
}

double bamboo_erand48(unsigned short xsubi[3]) {
    Rank* self = Rank::current();
    return self ? self->drand48.next_double(xsubi) : erand48(xsubi);
}

long bamboo_nrand48(unsigned short xsubi[3]) {
    Rank* self = Rank::current();
    return self ? self->drand48.next_nonnegative(xsubi) : nrand48(xsubi);
}

long bamboo_jrand48(unsigned short xsubi[3]) {
    Rank* self = Rank::current();
    return self ? self->drand48.next_signed(xsubi) : jrand48(xsubi);
}

void bamboo_srand48(long seed) {
    if (Rank* self = Rank::current()) self->drand48.seed(seed);
    else srand48(seed);
}

unsigned short* bamboo_seed48(unsigned short seed16v[3]) {
    Rank* self = Rank::current();
    return self ? self->drand48.seed(seed16v) : seed48(seed16v);
}

void bamboo_lcong48(unsigned short param[7]) {
    if (Rank* self = Rank::current()) self->drand48.set_parameters(param);
    else lcong48(param);
}

long bamboo_random(void) {
    Rank* self = Rank::current();
    return self ? self->random.next() : random();
}

void bamboo_srandom(unsigned seed) {
    if (Rank* self = Rank::current()) self->random.seed(seed);
    else srandom(seed);
}

int bamboo_rand(void) { return static_cast<int>(bamboo_random()); }

void bamboo_srand(unsigned seed) { bamboo_srandom(seed); }

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
