// --bamboo-trace-filter: what the recorder keeps, to bound a trace and its cost.
//
//   time=FROM..TO       seconds since the process started recording (either end may be left
//                       out: time=2..  time=..0.5)
//   kinds=K+K...        of task, idle, wait, engine, message, rma
//   ranks=R+R..R...     vranks (MPI_COMM_WORLD ranks under Bamboo): their runs, waits, and the
//                       messages and one-sided operations between two of them
//
// Clauses are separated by commas: time=2..3,kinds=task+message,ranks=0..3+8. What is left
// out costs a test where it would be recorded. A span that began before the window is left
// out; one still open at its end ends with the process's last record in it. Messages and
// one-sided operations are recorded whatever the window, so that each send keeps its place
// in its stream (sends are matched with arrivals by order), and the merge keeps those sent
// inside it.
#pragma once

#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace bamboo::trace {

// The kinds of records, as bits of Filter::kinds.
enum class Kind : unsigned { task = 1, idle = 2, wait = 4, engine = 8, message = 16, rma = 32 };
constexpr unsigned kAllKinds = 63;

struct Filter {
    double from = 0;  // seconds since recording started
    double to = std::numeric_limits<double>::infinity();
    unsigned kinds = kAllKinds;
    std::vector<std::pair<int, int>> ranks;  // inclusive ranges; empty: every rank
    std::string spec;                        // as given ("" if none)

    bool keeps(Kind kind) const { return kinds & static_cast<unsigned>(kind); }
    bool keeps_rank(int vrank) const {
        if (ranks.empty()) return true;
        for (const auto& [first, last] : ranks)
            if (vrank >= first && vrank <= last) return true;
        return false;
    }
};

// The filter `spec` gives; nullopt with *error set (what is wrong, and what is allowed) if
// it is not one.
std::optional<Filter> parse_filter(std::string_view spec, std::string* error);

}  // namespace bamboo::trace
