#include "transport/comm_engine.hpp"

#include <sched.h>

#include <algorithm>
#include <chrono>
#include <climits>
#include <cstddef>
#include <cstring>
#include <string>
#include <thread>

#include "core/task.hpp"
#include "core/worker.hpp"
#include "messaging/delivery.hpp"
#include "messaging/one_sided.hpp"
#include "messaging/rank.hpp"
#include "messaging/routes.hpp"
#include "trace/recorder.hpp"
#include "util/backoff.hpp"
#include "util/simulation.hpp"
#include "util/errors.hpp"
#include "util/mpi_guard.hpp"
#include "util/spin.hpp"

namespace bamboo {

// What a control message says.
enum class Kind : std::int32_t {
    data,           // a message, with its payload or followed by it
    announce,       // a message whose data its sender keeps until asked
                    // (messaging/buffer_budget.hpp)
    clear_to_send,  // the receive took announced message `id`: send its data
    decline,        // nobody will receive announced message `id`: its sender goes on
    refund,         // only the piggybacked refund
};

struct WireHeader {
    std::uint64_t bytes;        // data and announce: the message's size
    std::uint64_t piece_bytes;  // a separate payload comes in pieces of this size
    std::uint64_t sequence;     // among the control messages from the sender to this process
    std::uint64_t refund;       // credit the receiver of this header gets back
    std::uint64_t id;           // the announced message, at the process that announced it
    std::int32_t kind;
    std::int32_t source;  // the sender's rank in the communicator
    std::int32_t dest_vrank;
    std::int32_t tag;
    std::int32_t comm;
    std::int32_t payload_separate;
};

namespace {

// A control message's bytes: its header and the payload that rides in it. Several control
// messages for one process may travel in one MPI message (a send block's, send_held()), each
// at an offset aligned for its header.
std::size_t record_bytes(const WireHeader& header) {
    bool rides = static_cast<Kind>(header.kind) == Kind::data && !header.payload_separate;
    return sizeof header + (rides ? header.bytes : 0);
}
std::size_t aligned(std::size_t offset) { return (offset + alignof(WireHeader) - 1) & ~(alignof(WireHeader) - 1); }

constexpr int kTag = 0;  // the engine's communicators carry nothing else
// From this size on, a payload travels as its own messages, after its header: straight from
// the user's buffer when it is contiguous, and into the receive's buffer when the receive is
// posted. Below it, the payload rides in the control message, which stays below the eager
// limits of MPI's TCP transports (64 KiB in Open MPI, 128 KiB in MPICH). (A payload sent
// separately waits for its receive a while, kParkLimit, holding up the messages behind it:
// a smaller limit made a storm of 4 KiB messages to a busy task twenty times slower.)
constexpr std::size_t kSeparatePayloadBytes = 32u << 10;
// Receives posted ahead for control messages: enough that messages from several processes
// at once find one, few enough to cost little memory (each holds the largest control message).
constexpr std::size_t kControlSlots = 8;
// Rounds of taking control messages out of the slots in one round of progress.
constexpr int kReceiveRounds = 16;
constexpr std::size_t kControlSlotBytes = sizeof(WireHeader) + kSeparatePayloadBytes;
constexpr std::uint64_t kLargestGap = 1u << 16;
// --bamboo-payload-piece auto: pieces for processes on other nodes (see the header).
constexpr std::size_t kNetworkPieceBytes = 60u << 10;
// An MPI count is an int: a payload larger than this travels in pieces of this size even
// where whole payloads were asked for.
constexpr std::size_t kLargestPieceBytes = std::size_t(1) << 30;
// MPI requests (control messages and payload pieces) the engine keeps in flight to one
// process; later messages wait in the engine, in order. MPI's ordering between two processes
// rests on the library's sequence numbers, and Open MPI's (ob1) are 16 bits per peer and
// communicator: with 2^16 messages outstanding to a late receiver a number repeats, and a
// message fragment that the transport delivered late (shared memory reorders fragments under
// load) is matched in the wrong place. 200,000 sends in flight lost and reordered messages.
// A few hundred keep any link busy.
constexpr int kWindowRequests = 256;
// Messages corked at most (transport/cork.hpp): more open the cork.
constexpr std::size_t kCorkedMessages = 1024;
// Sends in flight beyond which a sending task retires the finished ones itself.
constexpr std::size_t kRetireBacklog = 64;
// How long a large payload may wait in MPI for its receive to be posted (see the header).
constexpr auto kParkLimit = std::chrono::microseconds(50);
// With a single process the engine has nothing to move; its thread only runs the watch.
constexpr auto kSingleProcessTick = std::chrono::milliseconds(10);
// A worker that polled the engine this recently is taken to be still polling.
constexpr auto kWorkerPollingWindow = std::chrono::microseconds(20);

// Takes the requests among `requests` that MPI has completed (each becomes MPI_REQUEST_NULL),
// calling on_completed(index, status) for each; returns how many. One MPI_Testany per
// completed request and one more, not one MPI_Testsome: SimGrid's SMPI bills a failed test
// per request inside a Testsome (the engine's 8 control slots: 8 simulated microseconds a
// poll) but once per Testany. Each call starts at the first request still pending, so taking
// requests that complete in the order they were posted (sends, mostly) is linear.
template <class OnCompleted>
int take_completed(MPI_Request* requests, int count, OnCompleted&& on_completed) {
    int taken = 0;
    for (int start = 0;;) {
        while (start < count && requests[start] == MPI_REQUEST_NULL) ++start;
        if (start == count) return taken;
        int index = MPI_UNDEFINED, flag = 0;
        MPI_Status status;
        {
            MpiGuard guard;
            MPI_Testany(count - start, requests + start, &index, &flag, &status);
        }
        if (flag && index == MPI_UNDEFINED) {
            // No request left active, says MPI. SimGrid 3.32 says so of the sends it completed
            // on its own (detached: below smpi/send-is-detached-thresh), which are not
            // MPI_REQUEST_NULL yet; MPI_Wait completes each at once. Elsewhere every request
            // left is null by now.
            for (int i = start; i < count; ++i) {
                if (requests[i] == MPI_REQUEST_NULL) continue;
                {
                    MpiGuard guard;
                    MPI_Wait(&requests[i], &status);
                }
                on_completed(i, status);
                ++taken;
            }
            return taken;
        }
        if (!flag) return taken;
        on_completed(start + index, status);
        ++taken;
    }
}

// Whether every request of a payload's pieces has completed: those a wait completed are
// MPI_REQUEST_NULL; under Look::waited the others are not asked about.
bool pieces_done(std::vector<MPI_Request>& pieces, Look look) {
    if (std::all_of(pieces.begin(), pieces.end(), [](MPI_Request r) { return r == MPI_REQUEST_NULL; })) return true;
    if (look == Look::waited) return false;
    int done = 0;
    MpiGuard guard;
    MPI_Testall(static_cast<int>(pieces.size()), pieces.data(), &done, MPI_STATUSES_IGNORE);
    return done != 0;
}

// Whether the end-of-job and deadlock checks count a control message. Refunds are not: no
// task ever waits for one (a sender out of credit announces its message instead), so one
// still in flight is harmless, and a process whose tasks have finished may still send one.
bool counted(Kind kind) { return kind != Kind::refund; }

// Whether a control message is a task's message (its data or its announcement), rather than
// the engine's own traffic.
bool carries_message(Kind kind) { return kind == Kind::data || kind == Kind::announce; }

int message_size(std::size_t bytes) {
    if (bytes > static_cast<std::size_t>(INT_MAX))
        fatal("messages between processes are limited to %d bytes; this one has %zu", INT_MAX,
              bytes);
    return static_cast<int>(bytes);
}

// Whether Open MPI was told not to use shared memory between processes of a node (e.g.
// --mca btl tcp,self): its "btl" control variable, read through MPI's tools interface. Other
// libraries have no such variable.
bool shared_memory_transport_off() {
    int provided = 0, index = 0, count = 0;
    if (MPI_T_init_thread(MPI_THREAD_SINGLE, &provided) != MPI_SUCCESS) return false;
    std::string list;
    if (MPI_T_cvar_get_index("btl", &index) == MPI_SUCCESS) {
        MPI_T_cvar_handle handle;
        if (MPI_T_cvar_handle_alloc(index, nullptr, &handle, &count) == MPI_SUCCESS) {
            std::vector<char> value(static_cast<std::size_t>(std::max(count, 1)) + 1, '\0');
            if (MPI_T_cvar_read(handle, value.data()) == MPI_SUCCESS) list = value.data();
            MPI_T_cvar_handle_free(&handle);
        }
    }
    MPI_T_finalize();
    if (list.empty()) return false;
    bool names_shared_memory = false;
    for (std::size_t start = list[0] == '^', comma; start <= list.size(); start = comma + 1) {
        comma = std::min(list.find(',', start), list.size());
        std::string name = list.substr(start, comma - start);
        if (name == "vader" || name == "sm") names_shared_memory = true;
    }
    return list[0] == '^' ? names_shared_memory : !names_shared_memory;
}

}  // namespace

// An announced message, kept by its sender until the receive asks.
struct CommEngine::Lent {
    Request* completion;  // the send, which waits
    TypedBuffer data;
};

// A message for another process: a control message (header, and the payload unless it
// travels separately), a separate payload, or both.
struct CommEngine::Outgoing {
    int process = 0;
    ByteBuffer control;  // none: the data of an announced message, asked for
    std::size_t control_bytes = 0;
    const char* payload = nullptr;    // a separate payload: the user's buffer, or `packed`
    ByteBuffer packed;
    std::size_t payload_bytes = 0;
    std::size_t piece_bytes = 0;
    int payload_tag = kTag;
    Request* completion = nullptr;    // completed once a payload from the user's buffer has left
    std::optional<Lent> lent;         // an announce: the data the sender keeps meanwhile

    int mpi_requests() const {  // the control message and the payload's pieces
        const std::size_t pieces = payload_bytes ? (payload_bytes + piece_bytes - 1) / piece_bytes : 0;
        return (control ? 1 : 0) + static_cast<int>(pieces);
    }
};

// Asked-for data of an announced message on its way into the receive that took it.
struct CommEngine::Pull {
    Request* receive;
    Envelope envelope;
    std::size_t bytes;
    std::vector<MPI_Request> pieces;
    ByteBuffer staging;  // when the receive buffer is not contiguous, or too short (truncated)
};

struct CommEngine::InFlight {
    ByteBuffer control;
    ByteBuffer packed;
    Request* completion = nullptr;
    int process = 0;
    int requests = 0;  // its consecutive entries in mpi_requests_
};

CommEngine::CommEngine(Routes& routes, const std::vector<std::unique_ptr<Worker>>& workers,
                       const std::vector<int>& processes_on_node, bool payload_piece_auto, std::size_t payload_piece)
    : routes_(routes),
      workers_(workers),
      held_(static_cast<std::size_t>(routes.vf)),
      sent_to_(routes.process_count, 0),
      early_(routes.process_count),
      arrivals_(routes.process_count),
      piece_bytes_(routes.process_count, 0),
      queued_(routes.process_count),
      requests_to_(routes.process_count, 0),
      next_sequence_from_(routes.process_count, 0) {
    MPI_Comm_dup(MPI_COMM_WORLD, &control_comm_);
    MPI_Comm_dup(MPI_COMM_WORLD, &payload_comm_);
    int* tag_ub = nullptr;
    int found = 0;
    MPI_Comm_get_attr(payload_comm_, MPI_TAG_UB, &tag_ub, &found);
    pulled_tags_ = found && *tag_ub > kTag + 1 ? *tag_ub - kTag : 32767 - kTag;
    // A process is reached over a network unless it shares this node and MPI may use shared
    // memory.
    std::vector<bool> over_network(routes.process_count, true);
    if (!shared_memory_transport_off())
        for (int rank : processes_on_node) over_network[rank] = false;
    over_network[routes.process] = false;
    for (int p = 0; p < routes.process_count; ++p) {
        network_peers_ = network_peers_ || over_network[p];
        std::size_t piece = !payload_piece_auto ? payload_piece
                            : over_network[p]                  ? kNetworkPieceBytes
                                                               : 0;
        piece_bytes_[p] = piece == 0 ? kLargestPieceBytes : std::min(piece, kLargestPieceBytes);
    }
    if (routes.process_count > 1)
        for (std::size_t slot = 0; slot < kControlSlots; ++slot) {
            slot_buffers_.emplace_back(new char[kControlSlotBytes]);
            slot_requests_.push_back(MPI_REQUEST_NULL);
            slot_posted_.push_back(0);
            post_control_receive(slot);
        }
    slot_indices_.resize(kControlSlots);
    slot_statuses_.resize(kControlSlots);
}

CommEngine::~CommEngine() = default;

void CommEngine::post_control_receive(std::size_t slot) {
    slot_posted_[slot] = next_posting_++;
    MpiGuard guard;
    MPI_Irecv(slot_buffers_[slot].get(), static_cast<int>(kControlSlotBytes), MPI_BYTE, MPI_ANY_SOURCE, kTag,
              control_comm_, &slot_requests_[slot]);
}

void CommEngine::post_emptied_slots() {
    for (std::size_t slot : slots_to_post_) post_control_receive(slot);
    slots_to_post_.clear();
}

namespace {

WireHeader control_header(Kind kind) {
    WireHeader header;
    std::memset(&header, 0, sizeof header);
    header.kind = static_cast<std::int32_t>(kind);
    return header;
}

}  // namespace

CommEngine::Outgoing CommEngine::control_message(int process, const WireHeader& header, std::size_t extra_bytes) {
    Outgoing out;
    out.process = process;
    out.control_bytes = sizeof header + extra_bytes;
    message_size(out.control_bytes);
    out.control = ByteBuffer(out.control_bytes);
    std::memcpy(out.control.get(), &header, sizeof header);
    return out;
}

bool CommEngine::send(const Envelope& e, int dest_vrank, const TypedBuffer& data, Request* completion,
                      ReceiverWait receiver_wait) {
    bool completes_later = false;
    Outgoing out = outgoing(e, dest_vrank, data, completion, receiver_wait, &completes_later);
    Held* held = completion ? &held_by(completion->owner->vrank()) : nullptr;
    // Held if it is one control message that completes the send now; otherwise what is held
    // (and corked) goes first, so that messages to one process keep their order.
    if (held && held->on && !completes_later && out.payload_bytes == 0) {
        held->messages.push_back(std::move(out));
        return false;
    }
    const std::int64_t began = cork_ ? process_clock_ns() : 0;
    if (held && held->on) send_after_cork(held->messages);
    else open_cork();
    hand_over(std::move(out));
    if (cork_) cork_->sent(process_clock_ns() - began);
    return completes_later;
}

void CommEngine::hold_sends(int vrank) { held_by(vrank).on = true; }

void CommEngine::release_sends(int vrank) {
    Held& held = held_by(vrank);
    held.on = false;
    if (cork_) {
        // Corked behind those already corked, or sent after them.
        const int task = local_index(vrank);
        std::int64_t now = process_clock_ns();
        if (cork_->may_cork(task) && corked_.size() < kCorkedMessages) {
            if (corked_.empty() && !held.messages.empty()) cork_->closed(now);
            for (Outgoing& out : held.messages) corked_.push_back(std::move(out));
            held.messages.clear();
        } else {
            send_after_cork(held.messages);
            std::int64_t sent = process_clock_ns();
            cork_->sent(sent - now);
            now = sent;
        }
        cork_->block_ended(task, now);
        return;
    }
    send_held(held.messages);
}

void CommEngine::cork_send_blocks() { cork_ = std::make_unique<Cork>(routes_.vf); }

// Between two runs of tasks: what is corked leaves, unless the next run is expected short.
void CommEngine::before_task(const Task* next) {
    std::int64_t now = process_clock_ns();
    cork_->stopped(now);
    if (!corked_.empty() && !(next && cork_->may_stay_closed(local_index(next->vrank()), now))) {
        open_cork();
        now = process_clock_ns();
    }
    if (next) cork_->started(local_index(next->vrank()), now);
}

void CommEngine::open_cork() {
    if (!corked_.empty()) send_held(corked_);
}

// What is corked, then `messages`, joined together: the tail of one task's block and the head
// of the next may go to one process.
void CommEngine::send_after_cork(std::vector<Outgoing>& messages) {
    if (corked_.empty()) return send_held(messages);
    for (Outgoing& out : messages) corked_.push_back(std::move(out));
    messages.clear();
    send_held(corked_);
}

void CommEngine::send_held(std::vector<Outgoing>& messages) {
    join(messages, [this](Outgoing&& out) { hand_over(std::move(out)); });
}

// Hands `messages` to `launch`, those for one process joined into as few MPI messages as a
// control slot holds, in order: each MPI message costs both ends a fixed overhead, and a
// task's halo exchange sends several to one process (multigrid's 26 neighbours lie in at
// most 7).
template <class Launch>
void CommEngine::join(std::vector<Outgoing>& messages, Launch&& launch) {
    for (std::size_t first = 0; first < messages.size(); ++first) {
        if (!messages[first].control) continue;  // joined to an earlier one
        const int process = messages[first].process;
        std::vector<Outgoing*> joint{&messages[first]};
        std::size_t bytes = messages[first].control_bytes;
        auto send_joint = [&] {
            if (joint.size() == 1) {
                launch(std::move(*joint[0]));
            } else {
                Outgoing out;
                out.process = process;
                out.control_bytes = bytes;
                out.control = ByteBuffer(bytes);
                CopyCharge charge(bytes);
                std::size_t at = 0;
                for (Outgoing* part : joint) {
                    std::memcpy(out.control.get() + at, part->control.get(), part->control_bytes);
                    at = aligned(at + part->control_bytes);
                }
                joined_messages_.fetch_add(joint.size(), std::memory_order_relaxed);
                joint_sends_.fetch_add(1, std::memory_order_relaxed);
                launch(std::move(out));
            }
            for (Outgoing* part : joint) part->control = ByteBuffer();
        };
        for (std::size_t next = first + 1; next < messages.size(); ++next) {
            Outgoing& candidate = messages[next];
            if (!candidate.control || candidate.process != process) continue;
            if (aligned(bytes) + candidate.control_bytes > kControlSlotBytes) {
                send_joint();
                joint.clear();
                bytes = 0;
            }
            bytes = (joint.empty() ? 0 : aligned(bytes)) + candidate.control_bytes;
            joint.push_back(&candidate);
        }
        send_joint();
    }
    messages.clear();
}

void CommEngine::send_later(const Envelope& e, int dest_vrank, const TypedBuffer& data) {
    bool completes_later = false;
    queue_in_outbox(outgoing(e, dest_vrank, data, nullptr, ReceiverWait::never, &completes_later));
}

CommEngine::Outgoing CommEngine::outgoing(const Envelope& e, int dest_vrank, const TypedBuffer& data,
                                          Request* completion, ReceiverWait receiver_wait, bool* completes_later) {
    std::size_t bytes = data.bytes();
    int process = routes_.process_of(dest_vrank);
    BufferBudget& budget = *routes_.budget;
    bool announce = receiver_wait == ReceiverWait::always ||
                    (receiver_wait == ReceiverWait::beyond_credit && !budget.spend(process, buffer_cost(bytes)));
    if (receiver_wait == ReceiverWait::never) budget.force_spend(process, buffer_cost(bytes));
    bool separate = !announce && bytes >= kSeparatePayloadBytes;
    bool from_user_buffer = separate && completion && data.layout.contiguous;
    WireHeader header = control_header(announce ? Kind::announce : Kind::data);
    header.bytes = bytes;
    header.source = e.source;
    header.dest_vrank = dest_vrank;
    header.tag = e.tag;
    header.comm = e.comm;
    header.payload_separate = separate;
    header.piece_bytes = separate ? piece_bytes_[process] : 0;

    Outgoing out = control_message(process, header, separate || announce ? 0 : bytes);
    if (announce) {
        completion->lent = Request::Lent::until_received;
        out.lent = Lent{completion, data};
    } else if (from_user_buffer) {
        out.payload = data.data();
        out.completion = completion;
    } else if (separate) {
        out.packed = ByteBuffer(bytes);
        pack(data, out.packed.get());
        out.payload = out.packed.get();
    } else {
        pack(data, out.control.get() + sizeof header);
    }
    if (separate) {
        out.payload_bytes = bytes;
        out.piece_bytes = header.piece_bytes;
    }
    *completes_later = announce || from_user_buffer;
    return out;
}

void CommEngine::hand_over(Outgoing&& out) {
    // Start it now if the engine is free, after whatever other threads handed over before (a
    // task's earlier messages among them: they stay in order).
    std::unique_lock<std::mutex> progress_lock(progress_mutex_, std::try_to_lock);
    if (progress_lock.owns_lock()) {
        start_sends();
        submit(std::move(out));
        post_emptied_slots();
        // A task that sends without ever waiting (the root of a loop of broadcasts) would
        // otherwise pile up finished sends that every later round tests again.
        if (in_flight_.size() >= kRetireBacklog) retire_sends(Look::poll);
        note_transit();
        return;
    }
    queue_in_outbox(std::move(out));
}

void CommEngine::queue_in_outbox(Outgoing&& out) {
    bool wake;
    {
        std::lock_guard<std::mutex> lock(outbox_mutex_);
        outbox_.push_back(std::move(out));
        set_outbox_empty(false);
        wake = engine_sleeping_;
    }
    if (wake) wakeup_.notify_one();
}

void CommEngine::pull(Request& receive, const Envelope& envelope, std::size_t bytes, const Announced& announced) {
    {
        std::lock_guard<std::mutex> lock(outbox_mutex_);
        wanted_.push_back(Wanted{&receive, envelope, bytes, announced.process, announced.id});
        set_outbox_empty(false);
    }
    wakeup_.notify_one();
}

void CommEngine::decline(const Announced& announced) {
    WireHeader header = control_header(Kind::decline);
    header.id = announced.id;
    hand_over(control_message(announced.process, header, 0));
}

bool CommEngine::start_sends() {
    if (outbox_empty()) return false;
    {
        std::lock_guard<std::mutex> lock(outbox_mutex_);
        starting_.swap(outbox_);
        wanted_starting_.swap(wanted_);
        set_outbox_empty(true);
    }
    for (Wanted& wanted : wanted_starting_) start_pull(wanted);
    wanted_starting_.clear();
    for (Outgoing& out : starting_) submit(std::move(out));
    starting_.clear();
    return true;
}

// Launches `out` at once if nothing waits before it and its process's window has room, else
// queues it behind the others for that process.
void CommEngine::submit(Outgoing&& out) {
    int in_flight = requests_to_[out.process];
    if (queued_.empty(out.process) && (in_flight == 0 || in_flight + out.mpi_requests() <= kWindowRequests)) {
        launch(std::move(out));
        return;
    }
    const int process = out.process;
    queued_.push(process, std::move(out));
}

// Posts the receive of an announced message's data, then asks its sender for it (so the
// data never arrives before its receive).
void CommEngine::start_pull(const Wanted& wanted) {
    Pull pull{wanted.receive, wanted.envelope, wanted.bytes, {}, ByteBuffer()};
    const TypedBuffer& target = wanted.receive->target;
    char* where = target.data();
    if (!target.layout.contiguous || wanted.bytes > target.bytes()) {
        pull.staging = ByteBuffer(wanted.bytes);
        where = pull.staging.get();
    }
    post_payload_receives(where, wanted.bytes, piece_bytes_[wanted.process], wanted.process, pulled_tag(wanted.id),
                          &pull.pieces);
    pulls_.push_back(std::move(pull));
    WireHeader header = control_header(Kind::clear_to_send);
    header.id = wanted.id;
    submit(control_message(wanted.process, header, 0));
}

void CommEngine::post_payload_receives(char* where, std::size_t bytes, std::size_t piece, int process, int tag,
                                       std::vector<MPI_Request>* pieces) {
    MpiGuard guard;
    for (std::size_t offset = 0; offset < bytes || offset == 0; offset += piece) {
        pieces->emplace_back();
        MPI_Irecv(where + offset, static_cast<int>(std::min(piece, bytes - offset)), MPI_BYTE, process, tag,
                  payload_comm_, &pieces->back());
        if (bytes == 0) break;
    }
}

bool CommEngine::advance_pulls(Look look) {
    bool moved = false;
    std::size_t kept = 0;
    for (Pull& pull : pulls_) {
        if (!pieces_done(pull.pieces, look)) {
            if (&pulls_[kept] != &pull) pulls_[kept] = std::move(pull);
            ++kept;
            continue;
        }
        if (pull.staging) {
            unpack(pull.staging.get(), pull.bytes, pull.receive->target);
            routes_.copies.copied(MessageKind::origin_of(pull.envelope.comm), MessageKind::other_process, pull.bytes);
        }
        complete_receive(*pull.receive, pull.envelope, pull.bytes);
        moved = true;
    }
    pulls_.resize(kept);
    return moved;
}

int CommEngine::pulled_tag(std::uint64_t id) const {
    return kTag + 1 + static_cast<int>(id % static_cast<std::uint64_t>(pulled_tags_));
}

// Starts queued messages, in order per process, while the process's window has room (a
// message wider than the whole window goes alone).
bool CommEngine::launch_queued() {
    bool launched = false;
    queued_.visit_busy([&](int process, std::deque<Outgoing>& queue) {
        while (!queue.empty() &&
               (requests_to_[process] == 0 || requests_to_[process] + queue.front().mpi_requests() <= kWindowRequests)) {
            launch(std::move(queue.front()));
            queue.pop_front();
            launched = true;
        }
    });
    return launched;
}

void CommEngine::launch(Outgoing&& out) {
    std::size_t first = mpi_requests_.size();
    if (out.control) {
        // Each control message's number among those to that process (the receiver checks the
        // order); the first carries whatever credit that process is owed by now.
        std::uint64_t refund = routes_.budget->take_refund(out.process);
        bool carries = false;
        for (std::size_t at = 0; at < out.control_bytes;) {
            WireHeader& header = *reinterpret_cast<WireHeader*>(out.control.get() + at);
            header.sequence = sent_to_[out.process]++;
            header.refund = refund;
            refund = 0;
            if (out.lent) {  // an announce travels alone
                header.id = next_announce_id_++;
                announced_.emplace(header.id, *out.lent);
            }
            if (counted(static_cast<Kind>(header.kind))) count_sent();
            carries = carries || carries_message(static_cast<Kind>(header.kind));
            at = aligned(at + record_bytes(header));
        }
        // The engine's work beyond a message within the process is its MPI calls: once per
        // MPI message, however many tasks' messages it carries.
        if (carries) charge(RuntimeWork::remote_message_end);
    }
    settle_charges();
    {
        MpiGuard guard;
        if (out.control) {
            mpi_requests_.emplace_back();
            MPI_Isend(out.control.get(), static_cast<int>(out.control_bytes), MPI_BYTE, out.process, kTag,
                      control_comm_, &mpi_requests_.back());
        }
        const std::size_t piece = out.piece_bytes;
        for (std::size_t offset = 0; offset < out.payload_bytes || (offset == 0 && !out.control); offset += piece) {
            mpi_requests_.emplace_back();
            MPI_Isend(out.payload + offset, static_cast<int>(std::min(piece, out.payload_bytes - offset)),
                      MPI_BYTE, out.process, out.payload_tag, payload_comm_, &mpi_requests_.back());
            if (out.payload_bytes == 0) break;
        }
    }
    count_move();
    int requests = static_cast<int>(mpi_requests_.size() - first);
    requests_to_[out.process] += requests;
    peak_requests_to_one_ = std::max(peak_requests_to_one_, requests_to_[out.process]);
    in_flight_.push_back(InFlight{std::move(out.control), std::move(out.packed), out.completion, out.process,
                                  requests});
}

bool CommEngine::retire_sends(Look look) {
    if (in_flight_.empty()) return false;
    int completed = 0;
    if (look == Look::poll)
        completed = take_completed(mpi_requests_.data(), static_cast<int>(mpi_requests_.size()),
                                   [](int, const MPI_Status&) {});
    if (completed == 0 && !waited_send_) return false;
    waited_send_ = false;
    bool woke_task = false;
    std::size_t kept = 0, kept_requests = 0, first = 0;
    for (std::size_t i = 0; i < in_flight_.size(); ++i) {
        const std::size_t count = static_cast<std::size_t>(in_flight_[i].requests);
        const bool done = std::all_of(mpi_requests_.begin() + first, mpi_requests_.begin() + first + count,
                                      [](MPI_Request r) { return r == MPI_REQUEST_NULL; });
        if (done) {
            requests_to_[in_flight_[i].process] -= in_flight_[i].requests;
            if (Request* request = in_flight_[i].completion) {
                Task* owner = request->owner;
                request->complete.store(true);
                owner->wake();
                woke_task = true;
            }
        } else {
            if (kept != i) in_flight_[kept] = std::move(in_flight_[i]);
            std::copy(mpi_requests_.begin() + first, mpi_requests_.begin() + first + count,
                      mpi_requests_.begin() + kept_requests);
            ++kept;
            kept_requests += count;
        }
        first += count;
    }
    in_flight_.resize(kept);
    mpi_requests_.resize(kept_requests);
    if (queued_.any()) launch_queued();
    return woke_task;
}

// Control messages from every process land in receives posted ahead of them, from any
// source: finding one costs an MPI test, where a probe allocated and freed a request on
// every look. MPI matches a process's messages to these receives in the order it sent them,
// so taken in posting order they come in order; but a larger control message may complete
// after a smaller one behind it, so each carries its number and one that is early waits for
// those before it.
std::size_t CommEngine::receive_controls(Look look) {
    // First those wait_for_any completed (MPI_REQUEST_NULL now, which tests pass over).
    int completed = 0;
    for (const auto& [slot, status] : waited_slots_) {
        slot_indices_[static_cast<std::size_t>(completed)] = static_cast<int>(slot);
        slot_statuses_[static_cast<std::size_t>(completed)] = status;
        ++completed;
    }
    waited_slots_.clear();
    if (look == Look::poll)
        take_completed(slot_requests_.data(), static_cast<int>(slot_requests_.size()),
                       [&](int slot, const MPI_Status& status) {
                           slot_indices_[static_cast<std::size_t>(completed)] = slot;
                           slot_statuses_[static_cast<std::size_t>(completed)] = status;
                           ++completed;
                       });
    // Completion indices by posting order (at most kControlSlots: an insertion sort).
    int in_order[kControlSlots];
    for (int k = 0; k < completed; ++k) {
        int j = k;
        for (; j > 0 && slot_posted_[slot_indices_[in_order[j - 1]]] > slot_posted_[slot_indices_[k]]; --j)
            in_order[j] = in_order[j - 1];
        in_order[j] = k;
    }
    for (int k = 0; k < completed; ++k) {
        int i = in_order[k];
        std::size_t slot = static_cast<std::size_t>(slot_indices_[i]);
        int size = 0;
        MPI_Get_count(&slot_statuses_[i], MPI_BYTE, &size);
        count_move();
        const int source = slot_statuses_[i].MPI_SOURCE;
        const char* message = slot_buffers_[slot].get();
        bool carries = false;
        for (std::size_t at = 0; at < static_cast<std::size_t>(size);) {
            WireHeader header;
            std::size_t left = static_cast<std::size_t>(size) - at;
            if (left >= sizeof header) std::memcpy(&header, message + at, sizeof header);
            if (left < sizeof header || record_bytes(header) > left)
                fatal("process %d received a %d-byte message from process %d that ends inside the control "
                      "message at byte %zu: the message was cut short or corrupted",
                      routes_.process, size, source, at);
            carries = carries || carries_message(static_cast<Kind>(header.kind));
            take_control(source, message + at, record_bytes(header));
            at = aligned(at + record_bytes(header));
        }
        if (carries) charge(RuntimeWork::remote_message_end);  // as at the sender (launch())
        slots_to_post_.push_back(slot);
    }
    return static_cast<std::size_t>(completed);
}

// A control message from `source`, still in its slot: taken now if it is the one due from
// that process, else kept until those before it are in.
void CommEngine::take_control(int source, const char* bytes, std::size_t size) {
    WireHeader header;
    std::memcpy(&header, bytes, sizeof header);
    std::uint64_t due = next_sequence_from_[source];
    std::map<std::uint64_t, Early>& early = early_[source];
    // The engine's own check of MPI's ordering: a message lost, repeated or overtaken between
    // two processes is an error, never a wrong answer. An early message waits for a larger one
    // before it that is still arriving, a few microseconds; a gap wider than MPI's own
    // ordering numbers (16 bits in Open MPI) means a message was lost.
    if (header.sequence < due || early.count(header.sequence) || header.sequence - due > kLargestGap)
        fatal("process %d received message #%llu from process %d where #%llu was due: MPI lost or "
              "reordered messages between the two processes",
              routes_.process, static_cast<unsigned long long>(header.sequence), source,
              static_cast<unsigned long long>(due));
    if (header.sequence != due) {
        Early kept{ByteBuffer(size)};
        CopyCharge charge(size);
        std::memcpy(kept.bytes.get(), bytes, size);
        early.emplace(header.sequence, std::move(kept));
        return;
    }
    accept_control(source, bytes, ByteBuffer());
    for (auto next = early.begin(); next != early.end() && next->first == next_sequence_from_[source];
         next = early.begin()) {
        Early kept = std::move(next->second);
        early.erase(next);
        const char* bytes_kept = kept.bytes.get();  // before the move below: argument order is unspecified
        accept_control(source, bytes_kept, std::move(kept.bytes));
    }
}

// The control message due from `source`, at `bytes`: in its slot, or in `owned`.
void CommEngine::accept_control(int source, const char* bytes, ByteBuffer owned) {
    WireHeader header;
    std::memcpy(&header, bytes, sizeof header);
    ++next_sequence_from_[source];
    Kind kind = static_cast<Kind>(header.kind);
    if (counted(kind)) count_received();
    routes_.budget->refund(source, header.refund);
    switch (kind) {
        case Kind::refund: return;
        case Kind::clear_to_send:
        case Kind::decline: answer(source, header.id, kind == Kind::decline); return;
        case Kind::data:
        case Kind::announce: break;
    }
    if (header.dest_vrank < 0 || header.dest_vrank >= routes_.world->size() ||
        routes_.process_of(header.dest_vrank) != routes_.process)
        fatal("process %d received a message for task vrank %d, which is not one of its tasks",
              routes_.process, header.dest_vrank);
    Arrival a;
    a.source_process = source;
    a.envelope = Envelope{header.source, header.tag, header.comm};
    a.dest_vrank = header.dest_vrank;
    a.payload_bytes = header.bytes;
    if (kind == Kind::announce) a.announced = Announced{this, source, header.id};
    if (header.payload_separate) {
        // The payload was sent right behind its header; payloads from one process are
        // received in header order.
        a.stage = Arrival::Stage::payload_unposted;
        a.piece_bytes = header.piece_bytes;
        a.since = std::chrono::steady_clock::now();
    } else {
        a.stage = Arrival::Stage::held;
        a.data = bytes + sizeof header;
        a.buffer = std::move(owned);
        if (arrivals_.empty(source)) {
            if (deliver_held(a)) return;
            a.buffer = copy_out(a);  // no receive waits for it
            deliver_held(a);
            return;
        }
        if (!a.buffer && kind == Kind::data) a.buffer = copy_out(a);
    }
    // It waits: for its payload, or behind an earlier message from that process.
    arrivals_.push(source, std::move(a));
    ++arriving_;
}

// The data of `a`, out of its slot into a buffer of its own: a copy the runtime counts.
ByteBuffer CommEngine::copy_out(Arrival& a) {
    ByteBuffer buffer(a.payload_bytes);
    CopyCharge charge(a.payload_bytes);
    if (a.payload_bytes) std::memcpy(buffer.get(), a.data, a.payload_bytes);
    a.data = buffer.get();
    routes_.copies.copied(MessageKind::origin_of(a.envelope.comm), MessageKind::other_process, a.payload_bytes);
    return buffer;
}

namespace {

// A message from another process has all it needs to be received (its data, or its
// announcement): the trace's arrival. One-sided messages are not: the operations they carry
// are recorded where they are applied (messaging/one_sided.cpp).
void trace_arrival(int dest_vrank, const Envelope& e, std::size_t bytes) {
    if (trace::on(trace::Kind::message) && !is_one_sided(e)) trace::arrived(dest_vrank, e.source, e.tag, e.comm, bytes);
}

}  // namespace

// Hands a message that came with its data (or announced, without it) to its task: straight
// into a posted receive, or as an unexpected message, which needs the data in a buffer of its
// own. False, doing nothing, while the data is only in its slot and no receive waits for it.
bool CommEngine::deliver_held(Arrival& a) {
    Rank& dest = *routes_.local(a.dest_vrank);
    Request* receive = nullptr;
    if (!a.announced.source && !a.buffer) {
        bool closed = false;
        receive = claim_posted_receive(dest, a.envelope, &closed);
        if (!receive && !closed) return false;
    }
    Message message;
    message.envelope = a.envelope;
    message.bytes = a.payload_bytes;
    message.announced = a.announced;
    if (!a.announced.source) {
        message.data = a.data;
        message.storage = std::move(a.buffer);
        message.charge = BufferCharge(routes_.budget.get(), a.source_process, buffer_cost(a.payload_bytes));
    }
    trace_arrival(a.dest_vrank, a.envelope, a.payload_bytes);
    if (receive) fill(*receive, std::move(message));
    else deliver_message(dest, std::move(message));  // unexpected, or dropped: its task has finished
    return true;
}

bool CommEngine::advance_arrivals(Look look) {
    bool moved = false;
    arrivals_.visit_busy([&](int, std::deque<Arrival>& queue) {
        while (!queue.empty() && advance(queue.front(), look)) {
            queue.pop_front();
            --arriving_;
            moved = true;
        }
    });
    return moved;
}

bool CommEngine::advance(Arrival& a, Look look) {
    switch (a.stage) {
        case Arrival::Stage::held:
            return deliver_held(a);
        case Arrival::Stage::payload_unposted:
            if (!start_payload(a)) return false;
            a.stage = Arrival::Stage::payload;
            [[fallthrough]];
        case Arrival::Stage::payload:
            if (!pieces_done(a.pieces, look)) return false;
            finish_payload(a);
            return true;
    }
    return false;
}

// The receiving process answered an announce of this process: send the data, or not.
void CommEngine::answer(int process, std::uint64_t id, bool declined) {
    auto found = announced_.find(id);
    if (found == announced_.end())
        fatal("process %d asked process %d for the data of a message it never announced (#%llu)", process,
              routes_.process, static_cast<unsigned long long>(id));
    Lent lent = found->second;
    announced_.erase(found);
    Request& send = *lent.completion;
    if (declined) {
        Task* owner = send.owner;
        send.complete.store(true);
        owner->wake();
        return;
    }
    Outgoing out;
    out.process = process;
    out.payload_bytes = lent.data.bytes();
    out.piece_bytes = piece_bytes_[process];
    out.payload_tag = pulled_tag(id);
    out.completion = &send;
    if (lent.data.layout.contiguous) {
        out.payload = lent.data.data();
    } else {
        out.packed = ByteBuffer(out.payload_bytes);
        pack(lent.data, out.packed.get());
        out.payload = out.packed.get();
    }
    submit(std::move(out));
}

// Whether the payload may wait longer for its receive: its task will likely post it soon if
// it is runnable or running.
bool CommEngine::payload_may_wait(const Arrival& a, const Task& dest) const {
    if (std::chrono::steady_clock::now() - a.since >= kParkLimit) return false;
    TaskState state = dest.state();
    return state == TaskState::runnable || state == TaskState::running;
}

// Starts receiving a separate payload: straight into the task's posted receive when there is
// one, else (after parking) into a buffer of its own.
bool CommEngine::start_payload(Arrival& a) {
    Rank& dest = *routes_.local(a.dest_vrank);
    bool closed = false;
    a.receive = claim_posted_receive(dest, a.envelope, &closed);
    void* where = nullptr;
    if (a.receive) {
        // Into a buffer of its own for a datatype that is not contiguous or a truncated message;
        // finish_payload unpacks the part that fits.
        const TypedBuffer& target = a.receive->target;
        if (target.layout.contiguous && a.payload_bytes <= target.bytes()) where = target.data();
    } else if (!closed) {
        // The send the task waits for has often completed inside MPI along with the arrival
        // of this header; retiring it makes the task runnable, and it then posts the receive.
        if (dest.state() == TaskState::waiting) retire_sends(Look::poll);
        if (payload_may_wait(a, dest)) return false;
    }
    if (!where) {
        a.buffer = ByteBuffer(a.payload_bytes);
        where = a.buffer.get();
    }
    post_payload_receives(static_cast<char*>(where), a.payload_bytes, a.piece_bytes, a.source_process, kTag,
                          &a.pieces);
    return true;
}

void CommEngine::finish_payload(Arrival& a) {
    trace_arrival(a.dest_vrank, a.envelope, a.payload_bytes);
    BufferCharge charge(routes_.budget.get(), a.source_process, buffer_cost(a.payload_bytes));
    if (a.receive) {
        if (a.buffer) {  // the receive's datatype is not contiguous, or the message is truncated
            unpack(a.buffer.get(), a.payload_bytes, a.receive->target);
            routes_.copies.copied(MessageKind::origin_of(a.envelope.comm), MessageKind::other_process,
                                  a.payload_bytes);
        }
        complete_receive(*a.receive, a.envelope, a.payload_bytes);
        return;  // the charge goes with it: the receive took the data
    }
    Message message;
    message.envelope = a.envelope;
    message.bytes = a.payload_bytes;
    message.data = a.buffer.get();
    message.storage = std::move(a.buffer);
    message.charge = std::move(charge);
    deliver_message(*routes_.local(a.dest_vrank), std::move(message));
}

bool CommEngine::try_progress() {
    if (thread_runs_.load(std::memory_order_relaxed))
        worker_polled_at_.store(std::chrono::steady_clock::now().time_since_epoch().count(),
                                std::memory_order_relaxed);
    std::unique_lock<std::mutex> lock(progress_mutex_, std::try_to_lock);
    return lock.owns_lock() && progress(Look::poll);
}

bool CommEngine::wait_for_any(const std::vector<MPI_Request*>& also) {
    std::lock_guard<std::mutex> lock(progress_mutex_);
    // First what needs no MPI completion: messages handed to the engine, refunds due, a
    // payload whose receive was left unposted while its task ran, sends that waited for the
    // window. What that moves may make a task runnable; the caller looks before waiting.
    bool handed_work = !outbox_empty() || routes_.budget->refunds_due();
    if (progress(Look::waited) || handed_work) return true;
    post_emptied_slots();  // a wait must cover every slot
    waited_.clear();
    auto add = [this](MPI_Request& request) {
        if (request != MPI_REQUEST_NULL) waited_.push_back(&request);
    };
    for (MPI_Request& request : slot_requests_) add(request);
    const std::size_t slots_end = waited_.size();
    for (MPI_Request& request : mpi_requests_) add(request);
    const std::size_t sends_end = waited_.size();
    arrivals_.visit_busy([&](int, std::deque<Arrival>& queue) {  // only a queue's front receives its payload
        if (queue.front().stage == Arrival::Stage::payload)
            for (MPI_Request& request : queue.front().pieces) add(request);
    });
    for (Pull& pull : pulls_)
        for (MPI_Request& request : pull.pieces) add(request);
    waited_.insert(waited_.end(), also.begin(), also.end());
    if (waited_.empty()) return false;
    waited_handles_.clear();
    for (MPI_Request* request : waited_) waited_handles_.push_back(*request);
    int index = MPI_UNDEFINED;
    MPI_Status status;
    settle_charges();
    {
        MpiGuard guard;
        MPI_Waitany(static_cast<int>(waited_handles_.size()), waited_handles_.data(), &index, &status);
    }
    if (index == MPI_UNDEFINED) return false;
    std::size_t which = static_cast<std::size_t>(index);
    *waited_[which] = MPI_REQUEST_NULL;  // MPI has freed it
    if (which < slots_end)
        waited_slots_.emplace_back(static_cast<std::size_t>(waited_[which] - slot_requests_.data()), status);
    else if (which < sends_end)
        waited_send_ = true;
    progress(Look::waited);
    return true;
}

bool CommEngine::progress(Look look) {
    std::int64_t began = trace::on(trace::Kind::engine) ? trace::now() : 0;
    post_emptied_slots();
    // A round of progress sends whatever is handed to the engine, what is corked too.
    if (!corked_.empty()) join(corked_, [this](Outgoing&& out) { submit(std::move(out)); });
    bool moved = start_sends();
    if (routes_.budget->refunds_due()) send_refunds();
    // Data asked for by other processes, and messages that waited for the window.
    if (queued_.any() && launch_queued()) moved = true;
    if (!pulls_.empty() && advance_pulls(look)) moved = true;
    // A task whose large send just left usually posts its receive next: let it run before
    // looking for arrivals, or the reply would find no posted receive and need a copy.
    if (retire_sends(look)) {
        moved = true;
    } else {
        // A slot reposted finds the next message MPI holds at once: while every slot comes back
        // full, drain the backlog in a few rounds, so that a task working through it seldom
        // finds its mailbox empty.
        for (int round = 0; round < kReceiveRounds; ++round) {
            std::size_t received = receive_controls(look);
            if (received > 0) moved = true;
            if (received < kControlSlots) break;
            post_emptied_slots();
        }
        if (arriving_ > 0 && advance_arrivals(look)) moved = true;
    }
    // What the arrivals answered (a get's data, a flush's acknowledgement, a lock granted)
    // leaves now. Left in the outbox until the next poll, an answer waited out an idle
    // worker's nap: 0.5 ms a get between processes.
    if (start_sends()) moved = true;
    note_transit();
    if (moved && trace::on(trace::Kind::engine)) trace::engine_round(began);
    return moved;
}

// Refunds large enough for a message of their own (no message went back to carry them).
void CommEngine::send_refunds() {
    BufferBudget& budget = *routes_.budget;
    budget.refunds_sent();
    for (int p = 0; p < routes_.process_count; ++p) {
        if (!budget.refund_due(p)) continue;
        submit(control_message(p, control_header(Kind::refund), 0));  // launch() fills it in
    }
}

void CommEngine::tasks_done() {
    open_cork();  // the last task's blocks (single-thread mode: this is the worker's thread)
    {
        std::lock_guard<std::mutex> lock(outbox_mutex_);
        tasks_done_.store(true);
    }
    wakeup_.notify_one();
}

bool CommEngine::tasks_waiting() const {
    int waiting = 0;  // a task's wait may end on another worker than it began on
    for (const auto& worker : workers_) waiting += worker->waiting_tasks();
    return waiting > 0;
}

bool CommEngine::busy() const { return moving() || tasks_waiting(); }

void CommEngine::run(bool shares_core, const std::function<bool()>& job_finished) {
    thread_runs_.store(true, std::memory_order_relaxed);
    Backoff backoff(std::chrono::microseconds(50));
    PoliteSpin spin;
    for (;;) {
        bool moved = false;
        if (routes_.process_count > 1) {
            std::lock_guard<std::mutex> lock(progress_mutex_);
            moved = progress(Look::poll);
        }
        if (job_finished()) return drain_sends();
        auto now = std::chrono::steady_clock::now().time_since_epoch();
        auto polled_at = std::chrono::steady_clock::duration(worker_polled_at_.load(std::memory_order_relaxed));
        std::chrono::microseconds pause(0);
        if (routes_.process_count == 1) pause = kSingleProcessTick;
        else if (now - polled_at < kWorkerPollingWindow) pause = kWorkerPollingWindow;
        else if (moved) backoff.reset();
        else if (!busy() || shares_core) pause = backoff.next();
        if (pause.count() == 0) {
            spin.pause();
            continue;
        }
        std::unique_lock<std::mutex> lock(outbox_mutex_);
        if (!outbox_.empty() || tasks_done_.load()) continue;
        engine_sleeping_ = true;
        wakeup_.wait_for(lock, pause);
        engine_sleeping_ = false;
    }
}

void CommEngine::finish(bool never_sleeps, const std::function<bool()>& job_finished,
                        const std::function<bool()>& block) {
    Backoff backoff(std::chrono::microseconds(50));
    for (;;) {
        if (job_finished()) return drain_sends();
        if (block && block()) continue;
        if (try_progress()) backoff.reset();
        auto pause = never_sleeps ? std::chrono::microseconds(0) : backoff.next();
        if (pause.count() == 0) sched_yield();
        else std::this_thread::sleep_for(pause);
    }
}

// The job is over: only refunds can still be in flight (uncounted, so the end did not wait for
// them); MPI_Finalize must find no request of this process pending, sends nor the receives
// posted for control messages.
void CommEngine::drain_sends() {
    std::lock_guard<std::mutex> lock(progress_mutex_);
    MpiGuard guard;
    MPI_Waitall(static_cast<int>(mpi_requests_.size()), mpi_requests_.data(), MPI_STATUSES_IGNORE);
    mpi_requests_.clear();
    in_flight_.clear();
    for (MPI_Request& request : slot_requests_) {
        if (request == MPI_REQUEST_NULL) continue;
        MPI_Cancel(&request);
        MPI_Wait(&request, MPI_STATUS_IGNORE);
    }
}

}  // namespace bamboo
