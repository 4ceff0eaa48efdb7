#include "core/drand48_state.hpp"

namespace bamboo {

double Drand48State::next_double() {
    double value;
    drand48_r(&data_, &value);
    return value;
}

long Drand48State::next_nonnegative() {
    long value;
    lrand48_r(&data_, &value);
    return value;
}

long Drand48State::next_signed() {
    long value;
    mrand48_r(&data_, &value);
    return value;
}

double Drand48State::next_double(unsigned short xsubi[3]) {
    double value;
    erand48_r(xsubi, &data_, &value);
    return value;
}

long Drand48State::next_nonnegative(unsigned short xsubi[3]) {
    long value;
    nrand48_r(xsubi, &data_, &value);
    return value;
}

long Drand48State::next_signed(unsigned short xsubi[3]) {
    long value;
    jrand48_r(xsubi, &data_, &value);
    return value;
}

void Drand48State::seed(long seed) { srand48_r(seed, &data_); }

unsigned short* Drand48State::seed(unsigned short seed16v[3]) {
    seed48_r(seed16v, &data_);
    return data_.__old_x;  // glibc's seed48() returns its own copy of the previous X alike
}

void Drand48State::set_parameters(unsigned short param[7]) { lcong48_r(param, &data_); }

}  // namespace bamboo
