// A task's own copy of the C library's random-number state (rand, srand, random, srandom).
//
// Under MPI each rank is a process with its own libc; tasks of one process would share
// one generator, so `srand(rank)` followed by `rand()` would give other numbers than the
// same program under plain MPI. glibc's reentrant random_r() family is the very generator
// behind rand() and random(), so a per-task state gives the same sequences.
#pragma once

#include <stdlib.h>

namespace bamboo {

class RandomState {
public:
    long next();               // random(); rand() is the same number as an int
    void seed(unsigned seed);  // srandom(); srand() is the same

private:
    // 128 bytes: the size of glibc's default state (TYPE_3), which rand() starts from.
    char state_[128];
    random_data data_{};
    bool seeded_ = false;
};

}  // namespace bamboo
