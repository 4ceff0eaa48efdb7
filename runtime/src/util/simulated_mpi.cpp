#include "util/simulated_mpi.hpp"

#ifdef SMPI_H
#include <simgrid/engine.h>
#endif

#include <cstdlib>

namespace bamboo {

std::int64_t simulated_now_ns() {
#ifdef SMPI_H
    smpi_bench_end();
    double seconds = simgrid_get_clock();
    smpi_bench_begin();
    return static_cast<std::int64_t>(seconds * 1e9);
#else
    std::abort();
#endif
}

}  // namespace bamboo
