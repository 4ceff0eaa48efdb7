#include "communicators/communicator.hpp"

#include <mpi.h>

#include <algorithm>
#include <unordered_map>

namespace bamboo {

Communicator::Communicator(int context, std::vector<int> vranks, int vf, std::string name,
                           std::optional<Topology> topology)
    : context_(context),
      vranks_(std::move(vranks)),
      name_(std::move(name)),
      topology_(std::move(topology)),
      process_index_(vranks_.size()) {
    // Processes in the order of their lowest rank; then a counting sort of ranks by process.
    std::unordered_map<int, int> index_of_process;
    std::vector<int> counts;
    for (std::size_t r = 0; r < vranks_.size(); ++r) {
        auto [it, added] = index_of_process.try_emplace(vranks_[r] / vf, static_cast<int>(counts.size()));
        if (added) counts.push_back(0);
        process_index_[r] = it->second;
        ++counts[static_cast<std::size_t>(it->second)];
    }
    process_start_.assign(counts.size() + 1, 0);
    for (std::size_t p = 0; p < counts.size(); ++p) process_start_[p + 1] = process_start_[p] + counts[p];
    members_.resize(vranks_.size());
    std::vector<int> next(process_start_.begin(), process_start_.end() - 1);
    for (std::size_t r = 0; r < vranks_.size(); ++r)
        members_[static_cast<std::size_t>(next[static_cast<std::size_t>(process_index_[r])]++)] = static_cast<int>(r);
}

void Communicator::join_remote_group(std::vector<int> remote, std::shared_ptr<const Communicator> local) {
    remote_vranks_ = std::move(remote);
    local_ = std::move(local);
}

std::vector<int> ranks_in_group(const Group& group, const std::vector<int>& vranks) {
    std::unordered_map<int, int> position;
    for (std::size_t i = 0; i < group.size(); ++i) position.emplace(group[i], static_cast<int>(i));
    std::vector<int> ranks(vranks.size(), MPI_UNDEFINED);
    for (std::size_t i = 0; i < vranks.size(); ++i) {
        auto it = position.find(vranks[i]);
        if (it != position.end()) ranks[i] = it->second;
    }
    return ranks;
}

}  // namespace bamboo
