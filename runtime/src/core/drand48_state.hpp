// A task's own copy of the C library's drand48() state (drand48, lrand48, mrand48, srand48,
// seed48, lcong48, and the parameters erand48, nrand48 and jrand48 take from lcong48).
//
// Like rand() (core/random_state.hpp): tasks of one process would share one generator.
// glibc's reentrant drand48_r() family is the generator behind drand48(), and a zeroed
// drand48_data is the state of a process that never seeded it, so the sequences are a
// separate process's.
#pragma once

#include <stdlib.h>

namespace bamboo {

class Drand48State {
public:
    double next_double();                          // drand48()
    long next_nonnegative();                       // lrand48()
    long next_signed();                            // mrand48()
    double next_double(unsigned short xsubi[3]);   // erand48(): the caller's X, our a and c
    long next_nonnegative(unsigned short xsubi[3]);
    long next_signed(unsigned short xsubi[3]);
    void seed(long seed);                          // srand48()
    unsigned short* seed(unsigned short seed16v[3]);  // seed48(): the previous X, kept here
    void set_parameters(unsigned short param[7]);  // lcong48()

private:
    drand48_data data_{};
};

}  // namespace bamboo
