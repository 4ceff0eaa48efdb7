#include "util/simulation.hpp"

#include <cstdlib>

#ifdef SMPI_H

#include <simgrid/engine.h>
#include <simgrid/host.h>
#include <xbt/config.h>

namespace bamboo {

namespace {

double cost(const char* variable) {
    const char* text = std::getenv(variable);
    return text ? std::strtod(text, nullptr) : 0.0;
}

double owed = 0;  // seconds charged and not yet simulated (settle_charges)

// Whether SMPI times the code between MPI calls (smpi/simulate-computation). Where it does not,
// stopping its timer around a copy and starting it again would only cost two system calls (it
// reads the thread's CPU clock), at every copy.
bool code_timed() {
    static const bool timed = sg_cfg_get_boolean("smpi/simulate-computation") != 0;
    return timed;
}

}  // namespace

// As flops at the host's speed: smpi_execute() would drop charges under smpi/cpu-threshold.
void settle_charges() {
    if (owed <= 0) return;
    double seconds = owed;
    owed = 0;
    smpi_execute_flops(seconds * sg_host_get_speed(sg_host_self()));
}

std::int64_t simulated_now_ns() { return static_cast<std::int64_t>(simgrid_get_clock() * 1e9); }

std::int64_t process_clock_ns() { return static_cast<std::int64_t>((simgrid_get_clock() + owed) * 1e9); }

void charge(RuntimeWork work) {
    static const double costs[] = {cost("BAMBOO_SMPI_SWITCH_COST"), cost("BAMBOO_SMPI_MESSAGE_COST"),
                                   cost("BAMBOO_SMPI_REMOTE_COST")};
    owed += costs[static_cast<int>(work)];
}

CopyCharge::CopyCharge(std::size_t bytes) {
    static const double byte_cost = cost("BAMBOO_SMPI_BYTE_COST");
    seconds_ = static_cast<double>(bytes) * byte_cost;
    if (seconds_ > 0 && code_timed()) smpi_bench_end();  // what ran before the copy is charged as measured
}

CopyCharge::~CopyCharge() {
    if (seconds_ <= 0) return;
    owed += seconds_;
    if (code_timed()) smpi_bench_begin();
}

}  // namespace bamboo

#else

namespace bamboo {

std::int64_t simulated_now_ns() { std::abort(); }

}  // namespace bamboo

#endif
