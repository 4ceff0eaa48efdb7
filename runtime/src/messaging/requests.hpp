// Requests: the state of a send or receive, and the MPI_Request handles user code holds
// (encoded as communicators/handles.hpp describes).
#pragma once

#include <mpi.h>

#include <atomic>
#include <chrono>
#include <cstdint>
#include <memory>
#include <vector>

#include "bamboo.h"
#include "communicators/communicator.hpp"
#include "communicators/handles.hpp"
#include "messaging/datatype.hpp"
#include "messaging/mailbox.hpp"

namespace bamboo {

class Task;
enum class SendMode : std::uint8_t;

// What a persistent request (MPI_Send_init, MPI_Recv_init, ...) does each time MPI_Start
// starts it: the arguments of its call.
struct PersistentCall {
    bool is_send = false;
    SendMode mode{};  // sends only
    const char* call = "";
    void* buf = nullptr;
    int count = 0;
    // The program may free its datatype while the request lives: the request holds its
    // own (hold_datatype), or the program's if nothing needs holding.
    MPI_Datatype type = MPI_DATATYPE_NULL;
    MPI_Datatype held_type = MPI_DATATYPE_NULL;
    int peer = 0;  // destination or source rank
    int tag = 0;
    MPI_Comm comm = MPI_COMM_NULL;
};

// A generalized request's callbacks (MPI_Grequest_start), which the waits, tests, frees and
// cancels of the request call as MPI says.
struct GeneralizedCall {
    MPI_Grequest_query_function* query = nullptr;
    MPI_Grequest_free_function* free = nullptr;
    MPI_Grequest_cancel_function* cancel = nullptr;
    void* extra_state = nullptr;
};

struct Request : PostedReceive {
    // collective: a nonblocking one; generalized: the program's, completed by MPI_Grequest_complete;
    // file: a nonblocking file access (MPI_File_iread...), its status like a receive's.
    enum class Kind : std::uint8_t { send, receive, collective, generalized, file };

    Kind kind = Kind::receive;
    // Set last by whoever completes the request; the owner may reuse it at once after.
    std::atomic<bool> complete{false};
    Task* owner = nullptr;
    TypedBuffer target;    // where a receive puts its message
    MPI_Datatype held_type = MPI_DATATYPE_NULL;  // target.type, owned (hold_datatype)
    int peer = 0;          // a send's destination vrank (for reports)
    bool synchronous = false;     // a synchronous send: it awaits its receive whatever the budget
    // Whether a send's data stays in the sender's buffer for its receive to take from there,
    // and until when (messaging/delivery.hpp).
    enum class Lent : std::uint8_t {
        no,  // copied into its receive, buffered, or handed to the comm engine
        // Until a receive takes it: beyond the receiving process's buffer budget, or synchronous.
        until_received,
        // Nonblocking, to a rank of this process: until a receive takes it or the sender buys
        // it back.
        until_bought_back,
        // Blocking: until a receive takes it or the sender's next evaluation point, where it
        // buys it back; its task does not wait for it.
        until_evaluation_point,
    };
    Lent lent = Lent::no;
    std::chrono::steady_clock::time_point lent_at{};  // until_bought_back: since when
    // A receive its firing rule announced and the rank posted at the evaluation point
    // (messaging/announced_receives.hpp): completing it counts down what the rank waits for.
    bool announced = false;
    const Communicator* comm = nullptr;  // for reports
    // A receive's communicator as the program named it: its error handler gets a truncation.
    MPI_Comm errors_to = MPI_COMM_NULL;
    // What the MPI_Status of the completed operation reports: for a truncated message its
    // whole size, as Open MPI's does.
    int source = 0;
    int tag = 0;
    std::size_t bytes = 0;
    // Where it was issued, for error and deadlock reports.
    const char* call = "";
    bamboo_site site{};
    // A persistent request keeps its handle between starts; inactive, it is like a null
    // request to waits and tests.
    std::unique_ptr<PersistentCall> persistent;
    std::unique_ptr<GeneralizedCall> generalized;
    bool active = true;
    bool cancelled = false;  // a receive taken back by MPI_Cancel

    // A completed receive's message was longer than its buffer, which holds the part that fits
    // (messaging/delivery.hpp); the call that completes the request returns MPI_ERR_TRUNCATE.
    bool truncated() const { return kind == Kind::receive && bytes > target.bytes(); }
};

// The requests of one task. Used only by the task itself (so no locking); completers
// reach a Request through the pointer held in a mailbox or send queue, never the table.
class RequestTable {
public:
    // A fresh request (not complete) and its handle.
    Request* allocate(MPI_Request* handle);
    // The live request `handle` names, or nullptr if it names none.
    Request* find(MPI_Request handle) const;
    // Frees the request `*handle` names and sets *handle to MPI_REQUEST_NULL.
    void release(MPI_Request* handle);
    // `request` again as allocate() makes it, keeping its persistent call (MPI_Start).
    static void renew(Request& request);
    // Requests the program freed before they completed (MPI_Request_free).
    std::vector<MPI_Request>& orphans() { return orphans_; }
    std::size_t live_count() const { return live_count_; }

private:
    static constexpr std::size_t kChunk = 32;
    Request* slot(std::uint32_t index) const { return &chunks_[index / kChunk][index % kChunk]; }

    std::vector<std::unique_ptr<Request[]>> chunks_;  // stable addresses
    std::vector<bool> live_;
    std::vector<std::uint32_t> free_;
    std::vector<MPI_Request> orphans_;
    std::size_t live_count_ = 0;
};

}  // namespace bamboo
