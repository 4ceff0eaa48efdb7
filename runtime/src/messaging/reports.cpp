#include "messaging/reports.hpp"

namespace bamboo {
namespace {

std::string comm_text(const Communicator* comm, int context) {
    return comm ? comm->name() : "the communicator of context " + std::to_string(context & ~1);
}

}  // namespace

std::string describe_rank(const Communicator* comm, int rank) {
    if (rank == kAny) return "any source";
    if (comm && comm->context() == kWorldContext) return "vrank " + std::to_string(rank);
    std::string text = "rank " + std::to_string(rank);
    if (comm && rank >= 0 && rank < comm->peer_count())
        text += " (vrank " + std::to_string(comm->peer_vrank(rank)) + ")";
    return text;
}

std::string describe_message(const Communicator* comm, const Pattern& p) {
    if (p.comm & 1)  // a collective's context: its tags are the runtime's own
        return "a message of the collective from " + describe_rank(comm, p.source) + " of " +
               comm_text(comm, p.comm);
    std::string tag = p.tag == kAny ? "any tag" : "tag " + std::to_string(p.tag);
    return "a message from " + describe_rank(comm, p.source) + ", " + tag + ", " +
           comm_text(comm, p.comm);
}

}  // namespace bamboo
