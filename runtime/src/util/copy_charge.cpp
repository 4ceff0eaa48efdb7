#include "util/copy_charge.hpp"

#ifdef SMPI_H

#include <simgrid/host.h>

#include <cstdlib>

namespace bamboo {

namespace {

double byte_cost() {
    static const double cost = [] {
        const char* text = std::getenv("BAMBOO_SMPI_BYTE_COST");
        return text ? std::strtod(text, nullptr) : 0.0;
    }();
    return cost;
}

}  // namespace

CopyCharge::CopyCharge(std::size_t bytes) : seconds_(static_cast<double>(bytes) * byte_cost()) {
    if (seconds_ > 0) smpi_bench_end();  // what ran before the copy is charged as measured
}

CopyCharge::~CopyCharge() {
    if (seconds_ <= 0) return;
    // As flops at the host's speed: smpi_execute() would drop charges under smpi/cpu-threshold.
    smpi_execute_flops(seconds_ * sg_host_get_speed(sg_host_self()));
    smpi_bench_begin();
}

}  // namespace bamboo

#endif
