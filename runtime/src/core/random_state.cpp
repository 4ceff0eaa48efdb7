#include "core/random_state.hpp"

namespace bamboo {

void RandomState::seed(unsigned seed) {
    if (!seeded_) {
        initstate_r(seed, state_, sizeof state_, &data_);  // data_ starts zeroed, as glibc needs
        seeded_ = true;
    } else {
        srandom_r(seed, &data_);
    }
}

long RandomState::next() {
    if (!seeded_) seed(1);  // like a process that never called srand()
    int32_t value;
    random_r(&data_, &value);
    return value;
}

}  // namespace bamboo
