#include "messaging/shared_bytes.hpp"

#include <algorithm>

#include "messaging/byte_runs.hpp"

namespace bamboo {
namespace {

// The runs of `data`, by offset from `at` less its address, in address order.
std::vector<ByteRun> sorted_runs(const TypedBuffer& data, MPI_Aint at) {
    std::vector<ByteRun> runs = byte_runs(data.type, data.layout, data.count);
    for (ByteRun& run : runs) run.offset += at;
    auto before = [](const ByteRun& x, const ByteRun& y) { return x.offset < y.offset; };
    if (!std::is_sorted(runs.begin(), runs.end(), before)) std::sort(runs.begin(), runs.end(), before);
    return runs;
}

bool runs_meet(const std::vector<ByteRun>& x, const std::vector<ByteRun>& y) {
    std::size_t i = 0, j = 0;
    while (i < x.size() && j < y.size()) {
        MPI_Aint x_end = x[i].offset + static_cast<MPI_Aint>(x[i].bytes);
        MPI_Aint y_end = y[j].offset + static_cast<MPI_Aint>(y[j].bytes);
        if (x_end <= y[j].offset) ++i;
        else if (y_end <= x[i].offset) ++j;
        else return true;
    }
    return false;
}

}  // namespace

bool SharedBytes::between(const TypedBuffer& a, const TypedBuffer& b) {
    if (a.bytes() == 0 || b.bytes() == 0) return false;
    const char *a_first, *a_last, *b_first, *b_last;
    if (!a.byte_range(&a_first, &a_last) || !b.byte_range(&b_first, &b_last)) return true;
    if (a_last <= b_first || b_last <= a_first) return false;
    if (a.layout.contiguous && b.layout.contiguous) return true;  // their spans are their bytes

    const MPI_Aint distance = static_cast<const char*>(b.base) - static_cast<const char*>(a.base);
    const std::uint64_t forgotten = forgotten_datatypes();
    if (forgotten != known_since_) {  // a handle may name another datatype now
        known_.clear();
        known_since_ = forgotten;
    }
    for (const Known& k : known_)
        if (k.distance == distance && k.a_type == a.type && k.b_type == b.type && k.a_count == a.count &&
            k.b_count == b.count)
            return k.shared;

    const bool shared = runs_meet(sorted_runs(a, 0), sorted_runs(b, distance));
    if (known_.size() == kKept) known_.clear();  // a program with more pairs than that: start again
    known_.push_back(Known{a.type, b.type, a.count, b.count, distance, shared});
    return shared;
}

}  // namespace bamboo
