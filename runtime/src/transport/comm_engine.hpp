// The comm engine: moves messages between processes with the real MPI library.
//
// All traffic uses private duplicates of MPI_COMM_WORLD. A message is a wire header
// (source rank, destination vrank, tag, communicator, size) on the control communicator,
// with the payload in the same MPI message when it is small. A large contiguous payload
// follows as a second message on the payload communicator, sent straight from the user's
// buffer and received straight into the posted receive buffer when there is one, so that
// neither side copies it.
//
// Control messages land in a few receives posted ahead of them, from any process: looking
// for one is a single MPI_Testsome, and a small message whose receive is posted goes from
// there into it with no allocation. Each control message carries its number among those
// from its sender, which puts them back in order where MPI completes a larger one after a
// smaller one behind it.
//
// Nothing in the engine blocks on a transfer: every message is received with a nonblocking
// MPI call, so a large message crawling over a slow network holds up neither the engine's
// sends nor messages from other processes. Messages from one process are handed to tasks in
// the order MPI matched them (each source process has a queue; only its front moves on).
//
// A large payload whose receive is not posted yet, for a task that is runnable or running,
// is left in MPI for a short while (kParkLimit): the task is usually about to post the
// receive (a ping-pong's reply often arrives just before), and staging the payload would
// cost a copy. Meanwhile later messages from that process wait behind it. After that while,
// or once the task waits for something else, the payload is received into a buffer of its
// own, so a sender never waits for the receiving task (sends are buffered).
//
// Over TCP, a large MPI message needs a handshake (rendezvous): the receiver's answer goes
// out behind whatever data the receiver is already sending the other way, so two processes
// exchanging large messages take turns instead of sending both ways at once. Payloads for
// processes on other nodes therefore travel in pieces small enough to be sent eagerly,
// without a handshake (--bamboo-payload-piece; within a node, where shared memory has no such
// queue, whole, unless Open MPI was told to leave shared memory out).
//
// Inside a send block (Rank::hold_sends) a task's control messages that complete its sends at
// once are held back, and when the block ends those for one process leave together in one MPI
// message, as many as a control slot holds: a halo exchange sends several messages to each
// neighbouring process (multigrid's 26 neighbours lie in at most 7 processes), and each MPI
// message costs both ends a fixed overhead that a single worker cannot hide. A message that
// cannot be held sends what is held first. In single-thread mode the blocks of tasks that
// run one after another may also wait for each other and leave together (transport/cork.hpp).
//
// The engine sends in the order tasks hand it messages, and MPI keeps that order between two
// processes, so messages from one task to another never overtake each other.
//
// Whoever holds the engine's progress lock drives it: the comm engine thread, which keeps
// polling while there is work, but also an idle worker (try_progress) and a sending task
// (which starts its own MPI_Isend when the lock is free), so that a message does not wait
// for a thread switch to leave or to be received.
#pragma once

#include <mpi.h>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <memory>
#include <deque>
#include <functional>
#include <map>
#include <mutex>
#include <optional>
#include <unordered_map>
#include <utility>
#include <vector>

#include "messaging/buffer_budget.hpp"
#include "messaging/datatype.hpp"
#include "messaging/mailbox.hpp"
#include "messaging/requests.hpp"
#include "messaging/routes.hpp"
#include "transport/cork.hpp"
#include "transport/peer_queues.hpp"
#include "transport/traffic.hpp"
#include "util/byte_buffer.hpp"

namespace bamboo {

// What a round of progress asks MPI about: every request the engine waits for (a poll), or
// none beyond the one an idle wait completed (CommEngine::wait_for_any): every request still
// pending is in the next wait, which returns at once for one that has completed.
enum class Look { poll, waited };

struct WireHeader;
class Task;
class Worker;

class CommEngine final : public Traffic, public ProcessLink, public AnnouncedData {
public:
    // Collective over MPI_COMM_WORLD. `processes_on_node`: this node's (transport/node.hpp);
    // `payload_piece_auto` and `payload_piece` are --bamboo-payload-piece's.
    CommEngine(Routes& routes, const std::vector<std::unique_ptr<Worker>>& workers,
               const std::vector<int>& processes_on_node, bool payload_piece_auto, std::size_t payload_piece);
    ~CommEngine();

    bool send(const Envelope& envelope, int dest_vrank, const TypedBuffer& data, Request* completion,
              ReceiverWait receiver_wait) override;
    void send_later(const Envelope& envelope, int dest_vrank, const TypedBuffer& data) override;
    void hold_sends(int vrank) override;
    void release_sends(int vrank) override;

    // Single-thread mode, before any task runs: send blocks of consecutive tasks may leave
    // joined (transport/cork.hpp); then the worker calls before_task.
    void cork_send_blocks();
    // The worker's thread, before each run of a task (nullptr: before it goes idle).
    void before_task(const Task* next);

    // Announced messages (any thread): a receive took one, or nobody will.
    void pull(Request& receive, const Envelope& envelope, std::size_t bytes, const Announced& announced) override;
    void decline(const Announced& announced) override;

    // One round of work if no other thread is at it: start queued sends, retire finished
    // ones, deliver arrived messages. Returns whether anything moved.
    bool try_progress();

    // Single-thread mode under a simulated MPI, nothing to run: blocks in MPI (MPI_Waitany)
    // until one of the requests the engine waits for, or one of `also`, completes, and takes
    // it in a round of progress that asks MPI nothing more (Look::waited). A blocked simulated
    // process costs one simulation event per completion, where polling costs one per poll,
    // and a failed test bills simulated time. Work that needs no MPI completion (messages
    // handed to it, refunds due, a payload's receive to post) it does instead of waiting.
    // Returns false only where it has nothing to wait for. A request it completes is left
    // MPI_REQUEST_NULL where it came from (one of `also` for its owner to find); a control
    // slot's status is kept for receive_controls().
    bool wait_for_any(const std::vector<MPI_Request*>& also);

    // The comm engine thread: progress until `job_finished()` (which also runs the deadlock
    // watch) says the whole job is over. A thread that shares its core with the workers never
    // spins: it naps between polls even while messages are in transit, so it keeps transfers
    // moving at little cost to the tasks.
    void run(bool shares_core, const std::function<bool()>& job_finished);
    // Without an engine thread, after all local tasks are done: the same; between polls it
    // naps, unless `never_sleeps` (single-thread mode, see WorkerDuties). `block`, if given,
    // is tried first when a poll moved nothing (it blocks as wait_for_any does; false: it
    // could not).
    void finish(bool never_sleeps, const std::function<bool()>& job_finished, const std::function<bool()>& block);
    // All tasks of this process are done: the engine thread stops napping, so that the end
    // of the job is seen at once.
    void tasks_done();

    // Whether some other process is reached over a network rather than shared memory.
    bool has_network_peers() const { return network_peers_; }

    // The most MPI requests the engine had in flight to one process at once (--bamboo-stats).
    int peak_requests_to_one_process() const { return peak_requests_to_one_; }
    // Messages of send blocks that left together with others for the same process, and the
    // MPI messages they took (--bamboo-stats).
    std::uint64_t joined_messages() const { return joined_messages_.load(std::memory_order_relaxed); }
    std::uint64_t joint_sends() const { return joint_sends_.load(std::memory_order_relaxed); }

private:
    struct Outgoing;
    struct InFlight;
    struct Lent;
    struct Pull;
    // A receive took an announced message (handed over by pull()).
    struct Wanted {
        Request* receive;
        Envelope envelope;
        std::size_t bytes;
        int process;
        std::uint64_t id;
    };
    // A message from another process that waits to be handed to its task: behind an earlier
    // message from the same process (`held`: its data in `buffer`), or for its separate
    // payload, first to be received, then to arrive.
    struct Arrival {
        enum class Stage { held, payload_unposted, payload };
        Stage stage = Stage::held;
        int source_process = -1;
        std::vector<MPI_Request> pieces;  // the payload
        const char* data = nullptr;       // held: the data (in `buffer`, or in its slot)
        ByteBuffer buffer;   // held: the data; payload: staged, when no receive took it
        Envelope envelope{};
        int dest_vrank = -1;
        Announced announced;              // held: the message was announced, its data left behind
        std::size_t payload_bytes = 0;
        std::size_t piece_bytes = 0;
        Request* receive = nullptr;       // the task's receive a payload goes into
        std::chrono::steady_clock::time_point since;  // when the header was read (parking)
    };
    // A control message that arrived ahead of an earlier one from its process (the earlier,
    // larger one still arriving), kept until that one is in.
    struct Early {
        ByteBuffer bytes;
    };

    // A rank's messages held back inside its send block (hold_sends), in the order it sent them.
    struct Held {
        bool on = false;
        std::vector<Outgoing> messages;
    };
    int local_index(int vrank) const { return vrank - routes_.process * routes_.vf; }
    Held& held_by(int vrank) { return held_[static_cast<std::size_t>(local_index(vrank))]; }
    void send_held(std::vector<Outgoing>& messages);
    // Hands `messages` to `launch`, those for one process joined (send_held()).
    template <class Launch>
    void join(std::vector<Outgoing>& messages, Launch&& launch);
    void open_cork();  // sends what is corked, the progress lock not held
    void send_after_cork(std::vector<Outgoing>& messages);  // held messages, after what is corked

    // The members below require progress_mutex_.
    bool progress(Look look);
    Outgoing control_message(int process, const WireHeader& header, std::size_t extra_bytes);
    // A task's message, which starts at once if the engine is free, else with its next round.
    Outgoing outgoing(const Envelope& envelope, int dest_vrank, const TypedBuffer& data, Request* completion,
                      ReceiverWait receiver_wait, bool* completes_later);
    void hand_over(Outgoing&& out);
    void queue_in_outbox(Outgoing&& out);  // any thread, progress lock held or not
    bool start_sends();
    void start_pull(const Wanted& wanted);
    void post_payload_receives(char* where, std::size_t bytes, std::size_t piece, int process, int tag,
                               std::vector<MPI_Request>* pieces);
    bool advance_pulls(Look look);
    int pulled_tag(std::uint64_t id) const;
    void answer(int process, std::uint64_t id, bool declined);
    void send_refunds();
    void drain_sends();
    void submit(Outgoing&& out);
    bool launch_queued();
    void launch(Outgoing&& out);
    bool retire_sends(Look look);  // true if it completed a task's send (and woke the task)
    void post_control_receive(std::size_t slot);
    void post_emptied_slots();
    std::size_t receive_controls(Look look);  // how many it took
    void take_control(int source, const char* bytes, std::size_t size);
    void accept_control(int source, const char* bytes, ByteBuffer owned);
    ByteBuffer copy_out(Arrival& arrival);
    bool deliver_held(Arrival& arrival);  // false while its data is only in its slot
    bool advance_arrivals(Look look);
    bool advance(Arrival& arrival, Look look);  // true once the arrival is delivered
    bool start_payload(Arrival& arrival);  // false while the payload waits for its receive
    void finish_payload(Arrival& arrival);
    bool payload_may_wait(const Arrival& arrival, const Task& dest) const;
    bool busy() const;
    void note_transit() {
        set_in_transit(!in_flight_.empty() || queued_.any() || arriving_ > 0 || !pulls_.empty());
    }
    bool tasks_waiting() const;

    Routes& routes_;
    const std::vector<std::unique_ptr<Worker>>& workers_;  // (their waiting tasks)
    MPI_Comm control_comm_ = MPI_COMM_NULL;
    MPI_Comm payload_comm_ = MPI_COMM_NULL;

    // Per rank of this process, each touched by its own rank only.
    std::vector<Held> held_;
    // Send blocks corked in single-thread mode (cork_send_blocks()), touched by the one
    // thread only.
    std::unique_ptr<Cork> cork_;
    std::vector<Outgoing> corked_;
    std::atomic<std::uint64_t> joined_messages_{0};
    std::atomic<std::uint64_t> joint_sends_{0};

    // Handed over by tasks; guarded by outbox_mutex_.
    std::mutex outbox_mutex_;
    std::condition_variable wakeup_;
    std::vector<Outgoing> outbox_;
    std::vector<Wanted> wanted_;
    bool engine_sleeping_ = false;

    // Guarded by progress_mutex_.
    std::vector<Outgoing> starting_;
    std::vector<Wanted> wanted_starting_;
    std::vector<MPI_Request> mpi_requests_;  // per in-flight send: control, then payload pieces
    std::vector<InFlight> in_flight_;
    std::vector<std::uint64_t> sent_to_;     // control messages per destination process
    // Receives posted ahead for control messages from any process, one per slot (see
    // receive_controls()); their requests side by side for MPI_Testsome.
    std::vector<std::unique_ptr<char[]>> slot_buffers_;
    std::vector<MPI_Request> slot_requests_;
    std::vector<std::uint64_t> slot_posted_;  // when each slot's receive was posted
    // Slots a round of progress emptied, posted again by the next round or by the next send
    // handed over, whichever comes first: the reply of a task that an arrival woke then
    // leaves before the engine's own MPI call.
    std::vector<std::size_t> slots_to_post_;
    std::uint64_t next_posting_ = 0;
    std::vector<int> slot_indices_;
    std::vector<MPI_Status> slot_statuses_;
    // Completed by wait_for_any and not yet taken: control slots (with their status), a send.
    std::vector<std::pair<std::size_t, MPI_Status>> waited_slots_;
    bool waited_send_ = false;
    std::vector<MPI_Request*> waited_;    // wait_for_any's set, where each request lives
    std::vector<MPI_Request> waited_handles_;
    std::vector<std::map<std::uint64_t, Early>> early_;  // per source process, by sequence
    PeerQueues<Arrival> arrivals_;               // per source process, in MPI's match order
    std::size_t arriving_ = 0;                   // arrivals in all queues
    std::vector<std::size_t> piece_bytes_;       // per destination process
    PeerQueues<Outgoing> queued_;                // per destination process: waiting for the window
    std::vector<int> requests_to_;               // MPI requests in flight per destination process
    int peak_requests_to_one_ = 0;
    std::vector<std::uint64_t> next_sequence_from_;  // the sent_to_ number due next, per source
    std::unordered_map<std::uint64_t, Lent> announced_;  // by id: announced, not yet asked for
    std::uint64_t next_announce_id_ = 0;
    std::vector<Pull> pulls_;                    // asked-for data on its way in
    int pulled_tags_ = 1;                        // tags for asked-for data (from MPI_TAG_UB)
    bool network_peers_ = false;

    std::atomic<bool> tasks_done_{false};

    // When a worker last drove the engine (steady_clock ticks): while workers poll, the
    // engine thread steps back rather than compete with them for the core. Kept only while
    // the engine has a thread of its own.
    std::atomic<bool> thread_runs_{false};
    std::atomic<std::int64_t> worker_polled_at_{0};
};

}  // namespace bamboo
