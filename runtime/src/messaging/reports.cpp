#include "messaging/reports.hpp"

#include <mutex>

#include "messaging/rank.hpp"

namespace bamboo {
namespace {

std::string request_text(const Request& r) {
    if (r.kind == Request::Kind::receive) return describe_message(r.comm, r.pattern);
    if (r.kind == Request::Kind::collective || r.kind == Request::Kind::file)
        return std::string("its ") + r.call + " to complete";
    if (r.kind == Request::Kind::generalized)
        return std::string("its generalized request (") + r.call + ") to be completed by MPI_Grequest_complete";
    std::string text = "its " + std::to_string(r.target.bytes()) + "-byte message to vrank " + std::to_string(r.peer);
    if (r.synchronous) return text + " to be received (a synchronous send completes once a receive matches it)";
    if (r.lent == Request::Lent::until_received)
        return text + " to be received (the receiving process had no room left to buffer it, see --bamboo-buffer-limit)";
    return text + " to leave the process";
}

// "from vrank 0 tag 3", "from rank 1 (vrank 3) tag 2 of <communicator>", as a rule lists them.
std::string expectation_text(const Rank& rank, const Pattern& p) {
    const Communicator* comm = rank.communicator_with_context(p.comm);
    if (p.comm & 1) return describe_message(comm, p).substr(2);  // "message of the collective ..."
    std::string text = "from " + describe_rank(comm, p.source) + " " +
                       (p.tag == kAny ? std::string("any tag") : "tag " + std::to_string(p.tag));
    if (p.comm != kWorldContext) text += " of " + (comm ? comm->name() : std::string("an unknown communicator"));
    return text;
}

std::string site_text(const WaitInfo& w) {
    if (!w.site.file) return "";
    return " at " + std::string(w.site.file) + ":" + std::to_string(w.site.line);
}

}  // namespace

std::string describe_comm(const Communicator* comm, int context) {
    return comm ? comm->name() : "the communicator of context " + std::to_string(context & ~1);
}

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
               describe_comm(comm, p.comm);
    std::string tag = p.tag == kAny ? "any tag" : "tag " + std::to_string(p.tag);
    return "a message from " + describe_rank(comm, p.source) + ", " + tag + ", " +
           describe_comm(comm, p.comm);
}

std::string describe_awaited(const Rank& rank) {
    const WaitInfo& w = rank.wait_info();
    if (w.what) return std::string("for ") + w.what;
    if (w.request) return "for " + request_text(*w.request);
    if (w.handles) {
        std::string list;
        for (int i = 0; i < w.handle_count; ++i) {
            const Request* r = rank.requests().find(w.handles[i]);
            if (!r || r->complete.load()) continue;
            list += (list.empty() ? "" : "; ") + request_text(*r);
        }
        return "for: " + (list.empty() ? "nothing (its requests are complete)" : list);
    }
    // A firing rule, or MPI_Probe (a rule of one message).
    std::lock_guard<SpinLock> lock(rank.mailbox().mutex());
    const std::vector<Expectation>& rule = rank.mailbox().armed_rule();
    if (w.call && rule.size() == 1)
        return "for " + describe_message(rank.communicator_with_context(rule[0].pattern.comm), rule[0].pattern);
    std::string list;
    for (const Expectation& x : rule) {
        if (x.arrived >= x.expected) continue;
        list += list.empty() ? "" : ", ";
        list += expectation_text(rank, x.pattern);
        list += " (" + std::to_string(x.expected - x.arrived) + " missing)";
    }
    return "for: " + (list.empty() ? "nothing (its rule holds)" : list);
}

std::string describe_wait(const Rank& rank) {
    const WaitInfo& w = rank.wait_info();
    std::string text = "task vrank " + std::to_string(rank.vrank()) + " waits in ";
    text += w.call ? w.call : "its firing rule";
    return text + site_text(w) + " " + describe_awaited(rank);
}

}  // namespace bamboo
