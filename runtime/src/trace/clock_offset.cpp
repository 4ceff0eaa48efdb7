#include "trace/clock_offset.hpp"

#include <cstdint>
#include <limits>
#include <vector>

#include "util/simulation.hpp"

namespace bamboo::trace {

ClockOffset measure_clock_offset(MPI_Comm comm) {
    if (kSimulatedMpi) return ClockOffset{now(), 0};  // one simulated clock for all
    constexpr int kRounds = 8;
    int me = 0, count = 1;
    MPI_Comm_rank(comm, &me);
    MPI_Comm_size(comm, &count);
    std::vector<std::int64_t> offsets(static_cast<std::size_t>(count), 0);
    for (int p = 1; p < count; ++p) {
        std::int64_t best = std::numeric_limits<std::int64_t>::max();
        for (int round = 0; round < kRounds; ++round) {
            if (me == 0) {
                std::int64_t asked = now(), theirs = 0;
                MPI_Send(nullptr, 0, MPI_BYTE, p, 0, comm);
                MPI_Recv(&theirs, 1, MPI_INT64_T, p, 0, comm, MPI_STATUS_IGNORE);
                std::int64_t answered = now();
                if (answered - asked < best) {
                    best = answered - asked;
                    offsets[static_cast<std::size_t>(p)] = theirs - (asked + answered) / 2;
                }
            } else if (me == p) {
                MPI_Recv(nullptr, 0, MPI_BYTE, 0, 0, comm, MPI_STATUS_IGNORE);
                std::int64_t mine = now();
                MPI_Send(&mine, 1, MPI_INT64_T, 0, 0, comm);
            }
        }
    }
    std::int64_t mine = 0;
    MPI_Scatter(offsets.data(), 1, MPI_INT64_T, &mine, 1, MPI_INT64_T, 0, comm);
    return ClockOffset{now(), mine};
}

}  // namespace bamboo::trace
