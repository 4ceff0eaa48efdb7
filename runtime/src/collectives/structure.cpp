#include "collectives/structure.hpp"

namespace bamboo {

TwoLevel::TwoLevel(const Communicator& comm, int rank, int root) : comm_(comm) {
    int processes = comm.process_count();
    root_process_ = root >= 0 ? comm.process_index_of(root) : 0;
    leaders_.resize(static_cast<std::size_t>(processes));
    for (int p = 0; p < processes; ++p) {
        int a = absolute(p);
        leaders_[static_cast<std::size_t>(p)] = a == root_process_ && root >= 0 ? root : *comm.members_begin(a);
    }
    int mine = comm.process_index_of(rank);
    my_process_ = (mine - root_process_ + processes) % processes;
    local_ = members(my_process_);
    my_local_ = static_cast<int>(std::find(local_.begin(), local_.end(), rank) - local_.begin());
}

std::vector<int> TwoLevel::members(int p) const {
    int a = absolute(p);
    int leader = leaders_[static_cast<std::size_t>(p)];
    std::vector<int> out;
    out.reserve(static_cast<std::size_t>(comm_.member_count(a)));
    out.push_back(leader);
    for (const int* m = comm_.members_begin(a); m != comm_.members_end(a); ++m)
        if (*m != leader) out.push_back(*m);
    return out;
}

}  // namespace bamboo
